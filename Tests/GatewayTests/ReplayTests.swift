import Engine
import Gateway
import NMEA
import Platform
import TestSupport
import Testing

@Suite struct ReplayTests {
    func sentences(_ lines: [String]) -> [Sentence] { lines.map { try! Sentence(parsing: $0) } }

    @Test("a plain log runs on its own UTC, spreading the lines between two times evenly")
    func utcClock() {
        let log = sentences([
            checksummed("GPRMC,235959.50,A,5000.0000,N,00100.0000,E,5.0,90.0,211126,,,A"),
            "$HCHDM,093.8,M*2B", "$HCHDM,093.8,M*2B", "$HCHDM,093.8,M*2B",
            checksummed("GPGGA,000000.50,5000.0000,N,00100.0000,E,1,08,1.0,5.0,M,40.0,M,,"),
            "$HCHDM,093.8,M*2B",
        ])
        let times = RecordingTimeline.times(of: log, lineRate: 10)
        let midnight = Double(UTCDate(year: 2026, month: 11, day: 22).daysSinceEpoch) * 86_400
        #expect(times[0] == midnight - 0.5)
        #expect(times[1] == midnight - 0.25 && times[2] == midnight && times[3] == midnight + 0.25)
        #expect(times[4] == midnight + 0.5)
        // After the last time, lines keep the spacing of the first interval.
        #expect(times[5] == midnight + 0.75)
    }

    @Test("tag-block times are used when present; a log with no time advances at the line rate")
    func tagAndLineRate() throws {
        var tagged = try Sentence(parsing: "$HCHDM,093.8,M*2B")
        tagged.tagBlock = TagBlock(unixMilliseconds: 1_763_800_000_000)
        var later = tagged
        later.tagBlock = TagBlock(unixMilliseconds: 1_763_800_002_000)
        let plain = try Sentence(parsing: "$HCHDM,093.8,M*2B")
        #expect(
            RecordingTimeline.times(of: [tagged, plain, later], lineRate: 10) == [
                1_763_800_000, 1_763_800_001,
                1_763_800_002,
            ])
        #expect(RecordingTimeline.times(of: [plain, plain, plain], lineRate: 4, start: 100) == [100, 100.25, 100.5])
    }

    @Test("a clock that steps back a little is held, not followed")
    func heldClock() {
        let log = sentences([
            checksummed("GPGLL,5000.0000,N,00100.0000,E,120010,A,A"),
            checksummed("GPGLL,5000.0000,N,00100.0000,E,120009,A,A"),
            checksummed("GPGLL,5000.0000,N,00100.0000,E,120011,A,A"),
        ])
        let times = RecordingTimeline.times(of: log, lineRate: 10)
        #expect(times[1] == times[0] && times[2] == times[0] + 1)
    }

    @Test("several logs merge in time order")
    func merge() throws {
        let s = try Sentence(parsing: "$HCHDM,093.8,M*2B")
        let a = [TimedSentence(time: 1, sentence: s, log: 0), TimedSentence(time: 3, sentence: s, log: 0)]
        let b = [TimedSentence(time: 2, sentence: s, log: 1), TimedSentence(time: 3, sentence: s, log: 1)]
        #expect(
            RecordingTimeline.merge([a, b]).map { "\($0.time)/\($0.log)" } == ["1.0/0", "2.0/1", "3.0/0", "3.0/1"])
    }

    func demoLog() -> Recording {
        var lines: [String] = []
        for second in 0..<20 {
            let time = "1200" + (second < 10 ? "0\(second)" : "\(second)")
            lines.append(checksummed("GPRMC,\(time).00,A,5000.0000,N,00100.0000,E,5.0,90.0,221126,1.0,E,A"))
            lines.append(
                try! MWV(angle: 30, reference: .relative, speed: 15, isValid: true).encode(talker: "WI")
                    .description)
            lines.append(try! VHW(speedKnots: 6).encode(talker: "VW").description)
            lines.append(try! HDT(heading: 100).encode(talker: "HE").description)
            lines.append(checksummed("IIMWV,-1.-3,R,10,N,A"))
        }
        let framed = sentences(lines)
        var statistics = FramerStatistics()
        statistics.sentences = framed.count
        return Recording(path: "demo", sentences: framed, statistics: statistics)
    }

    func replay(_ options: ReplayRunner.Options) -> (String, ReplayRunner.Result) {
        var out: [UInt8] = []
        let result = ReplayRunner(engine: Engine(), options: options).run([demoLog()]) { out.append(contentsOf: $0) }
        return (String(decoding: out, as: UTF8.self), result)
    }

    @Test("replay passes the input through, interleaves computed sentences in time order, and drops unreadable lines")
    func interleaves() throws {
        var options = ReplayRunner.Options()
        options.speed = nil
        options.tagTime = true
        let (text, result) = replay(options)
        let lines = text.split(separator: "\r\n").map(String.init)
        #expect(result.summary.passedThrough == 80 && result.summary.invalid == 20)
        #expect(!text.contains("-1.-3"))
        #expect(text.contains("IIMWV") && text.contains("IIMWD") && text.contains("IIVPW"))
        // Tag times never go backwards.
        let times = lines.map { line -> Int64 in
            let block = line.dropFirst(3).prefix { $0 != "*" }
            return Int64(block)!
        }
        #expect(times == times.sorted())
        #expect(lines.allSatisfy { $0.hasPrefix("\\c:") })
        // Every line is a valid sentence after its tag block.
        for line in lines {
            let sentence = try Sentence(parsing: line, requiresChecksum: true)
            #expect(sentence.tagBlock?.unixMilliseconds != nil && sentence.wireLength <= 82)
        }
    }

    @Test("replay is deterministic: the same logs give the same bytes")
    func deterministic() {
        var options = ReplayRunner.Options()
        options.speed = nil
        options.tagTime = true
        #expect(replay(options).0 == replay(options).0)
        options.computedOnly = true
        let computed = replay(options).0
        #expect(!computed.contains("GPRMC") && computed.contains("IIMWV"))
    }

    @Test("real-time replay takes the log's time, sped up by --speed")
    func pacing() {
        var options = ReplayRunner.Options()
        options.speed = 40
        let start = POSIX.monotonic()
        _ = replay(options)
        let elapsed = POSIX.monotonic() - start
        // 19.8 s of log at 40x is about 0.5 s.
        #expect(elapsed > 0.4 && elapsed < 3)
    }

    @Test("golden comparison reports the first differing lines with their numbers")
    func golden() {
        let expected = Array("a\r\nb\r\nc\r\n".utf8)
        #expect(GoldenComparison.differences(expected: expected, actual: expected).isEmpty)
        let found = GoldenComparison.differences(expected: expected, actual: Array("a\r\nB\r\n".utf8))
        #expect(
            found == [
                GoldenComparison.Difference(line: 2, expected: "b", actual: "B"),
                GoldenComparison.Difference(line: 3, expected: "c", actual: nil),
            ])
    }
}

@Suite struct PassThroughTests {
    @Test("an input over 82 bytes is shortened by dropping XDR quadruples, or dropped when it cannot be")
    func longInputs() throws {
        let long = checksummed(
            "IIXDR,C,12.5,C,AIRTEMP,A,-1.0,D,HEEL,A,2.9,D,TRIM,P,1.013,B,BARO,A,-3.9,D,RUDDER,C,18.0,C,WATERTEMP")
        let sentence = try Sentence(parsing: long)
        #expect(sentence.wireLength > 82)
        guard case .shortened(let shortened) = PassThrough.prepare(sentence, message: try? Message(sentence)) else {
            Issue.record("not shortened")
            return
        }
        #expect(shortened.wireLength <= 82)
        let kept = try XDR(shortened).measurements
        #expect(kept == Array(try XDR(sentence).measurements.prefix(kept.count)) && kept.count >= 4)
        let unknown = try Sentence(parsing: checksummed("GPGSV," + String(repeating: "1,", count: 40) + "1"))
        guard case .dropped = PassThrough.prepare(unknown, message: try? Message(unknown)) else {
            Issue.record("an unshortenable long sentence was passed")
            return
        }
        let short = try Sentence(parsing: "$HCHDM,093.8,M*2B")
        guard case .unchanged(let same) = PassThrough.prepare(short, message: try? Message(short)), same == short else {
            Issue.record("a short sentence was changed")
            return
        }
    }
}
