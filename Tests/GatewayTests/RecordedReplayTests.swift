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
        /// Checksum-valid lines whose values cannot be true (misaligned fields read as a speed or a distance).
        var implausible = 0
        var testDescription: String { file }
    }

    static let recordings = [
        Recording(file: "bundg_zeus_9.log", unreadable: 0, rejected: 0),
        Recording(file: "n2kd-183-merrimac.log", unreadable: 0, rejected: 0),
        Recording(file: "plaka.log", unreadable: 0, rejected: 0),
        Recording(file: "pypilot.log", unreadable: 0, rejected: 0),
        // The spliced $GPRMB lines and one line without '$' (see SharedFixtureTests in NMEATests). 40 more spliced
        // RMBs can be read field by field, but put the date where the closing velocity goes (10813 kn) or the
        // waypoint's range (1010813 NM): implausible, no longer passed on.
        Recording(file: "NMEA0004.TXT", unreadable: 483, rejected: 1, implausible: 40),
    ]

    @Test(
        "recordings replay with only their known bad lines refused, every output line valid and at most 82 bytes",
        arguments: recordings)
    func replays(_ recording: Recording) throws {
        guard let folder = sharedFixtures() else {
            print("SKIPPED: ../shared/fixtures is absent; \(recording.file) not replayed")
            return
        }
        let log = try Gateway.Recording.read(folder + "/" + recording.file)
        var options = ReplayRunner.Options()
        options.speed = nil
        var configuration = EngineConfiguration()
        configuration.echoWindow = 0
        var output: [UInt8] = []
        let result = ReplayRunner(engine: Engine(configuration: configuration), options: options).run([log]) {
            output.append(contentsOf: $0)
        }
        #expect(result.summary.invalid == recording.unreadable + recording.implausible)
        #expect(result.summary.implausible == recording.implausible)
        #expect(result.rejects.total == recording.rejected)
        #expect(
            result.summary.passedThrough + result.summary.tooLong
                == log.sentences.count - recording.unreadable - recording.implausible)
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
