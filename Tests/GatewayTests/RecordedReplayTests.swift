import Engine
import Gateway
import NMEA
import TestSupport
import Testing

/// The real recordings in `../shared/fixtures` replay with no errors beyond their known bad lines.
@Suite struct RecordedReplayTests {
    struct Recording: Sendable, CustomTestStringConvertible {
        let file: String
        /// Checksum-valid lines whose fields cannot be read (corrupted in the recording).
        let unreadable: Int
        /// Lines refused while framing.
        let rejected: Int
        var testDescription: String { file }
    }

    static let recordings = [
        Recording(file: "bundg_zeus_9.log", unreadable: 0, rejected: 0),
        Recording(file: "n2kd-183-merrimac.log", unreadable: 0, rejected: 0),
        Recording(file: "plaka.log", unreadable: 0, rejected: 0),
        Recording(file: "pypilot.log", unreadable: 0, rejected: 0),
        // The spliced $GPRMB lines and one line without '$' (see SharedFixtureTests in NMEATests).
        Recording(file: "NMEA0004.TXT", unreadable: 483, rejected: 1),
    ]

    @Test(
        "recordings replay with only their known bad lines refused, every output line valid and at most 82 bytes",
        arguments: recordings)
    func replays(_ recording: Recording) throws {
        guard let folder = sharedFixtures() else {
            print("SKIPPED: ../shared/fixtures is absent; \(recording.file) not replayed")
            return
        }
        let log = try RecordedLog.read(folder + "/" + recording.file)
        var options = ReplayRunner.Options()
        options.speed = nil
        var configuration = EngineConfiguration()
        configuration.echoWindow = 0
        var output: [UInt8] = []
        let result = ReplayRunner(engine: Engine(configuration: configuration), options: options).run([log]) {
            output.append(contentsOf: $0)
        }
        #expect(result.summary.invalid == recording.unreadable)
        #expect(result.rejects.total == recording.rejected)
        #expect(result.summary.passedThrough + result.summary.tooLong == log.sentences.count - recording.unreadable)
        var framer = SentenceFramer(configuration: .strict)
        var lines = 0
        framer.feed(output) { event in
            if case .sentence = event { lines += 1 }
        }
        framer.finish { _ in }
        #expect(framer.statistics.rejects.total == 0, "output lines rejected by a strict 82-byte reader")
        #expect(lines == result.summary.passedThrough + result.summary.computed)
        print("\(recording.file): \(result.summary.passedThrough) passed through, \(result.summary.computed) computed")
    }
}
