import Engine
import Gateway
import Marine
import NMEA
import Platform
import Router
import TestSupport
import Testing

/// A recorded log's clock through its glitches (``LogClock``): each test is a log that once made the replay tick
/// through hours it never held, or play the rest of a log at one instant.
@Suite struct LogClockTests {
    /// An afternoon's second of sailing: its RMC at `time` (hhmmss), the wind, the log and the heading.
    func second(_ time: String) -> [String] {
        [
            checksummed("GPRMC,\(time).00,A,4629.7000,N,00641.0000,E,5.0,90.0,190614,1.0,E,A"),
            try! MWV(angle: 30, reference: .relative, speed: 15, isValid: true).encode(talker: "WI").description,
            try! VHW(speedKnots: 6).encode(talker: "VW").description,
            try! HDT(heading: 100).encode(talker: "HE").description,
        ]
    }

    /// hhmmss of `seconds` after midnight.
    func clock(_ seconds: Int) -> String {
        let parts = [seconds / 3600 % 24, seconds / 60 % 60, seconds % 60]
        return parts.map { $0 < 10 ? "0\($0)" : "\($0)" }.joined()
    }

    /// `count` seconds from `start` (seconds after midnight).
    func seconds(from start: Int, count: Int) -> [String] {
        (0..<count).flatMap { second(clock(start + $0)) }
    }

    func gll(_ time: String) -> String { checksummed("GPGLL,4629.7000,N,00641.0000,E,\(time),A,A") }

    func parsed(_ lines: [String]) -> [Sentence] { lines.map { try! Sentence(parsing: $0) } }

    func recording(_ lines: [String]) -> Recording {
        let framed = parsed(lines)
        var statistics = FramerStatistics()
        statistics.sentences = framed.count
        return Recording(path: "log", sentences: framed, statistics: statistics)
    }

    func replay(_ lines: [String]) -> ReplayRunner.Result {
        var options = ReplayRunner.Options()
        options.speed = nil
        return ReplayRunner(engine: Engine(), options: options).run([recording(lines)]) { _ in }
    }

    let afternoon = 17 * 3600 + 14 * 60

    @Test("a mangled time (00:47 in an afternoon's log) is left out: no day taken for midnight, nothing held at it")
    func mangledTime() {
        var lines = seconds(from: afternoon, count: 60)
        let clean = replay(lines)
        lines.insert(gll("004758"), at: 30 * 4 + 1)
        lines.insert(gll("235959"), at: 45 * 4 + 2)
        let (times, glitches) = RecordingTimeline.timeline(of: parsed(lines), lineRate: 10)
        #expect(glitches == 2)
        #expect(times == times.sorted() && times.last! - times.first! < 60)
        let result = replay(lines)
        #expect(result.timeGlitches == 2 && result.summary.duration == clean.summary.duration)
        #expect(result.summary.computed == clean.summary.computed && result.summary.gaps == 0)
    }

    @Test("a second device whose clock is an hour out, its times between the log's, is left out time by time")
    func deviceHourOut() {
        var lines: [String] = []
        for offset in 0..<40 {
            lines += second(clock(afternoon + offset))
            lines.append(gll(clock(afternoon + 3600 + offset)))
        }
        let (times, glitches) = RecordingTimeline.timeline(of: parsed(lines), lineRate: 10)
        #expect(glitches == 40)
        #expect(times == times.sorted() && times.last! - times.first! < 41)
    }

    @Test("a first time far from the log's clock is left out")
    func leadingGlitch() {
        let lines = [gll("030000")] + seconds(from: afternoon, count: 30)
        let (times, glitches) = RecordingTimeline.timeline(of: parsed(lines), lineRate: 10)
        #expect(glitches == 1 && times.last! - times.first! < 31)
        // The lines left out, by index: the first, and a run of three in the middle.
        var anchors = (0..<30).map { (index: $0 * 2, time: 1_000.0 + Double($0)) }
        anchors[0].time = 90_000
        for i in 10..<13 { anchors[i].time += 7_200 }
        var shifts: [(index: Int, shift: Double)] = []
        var dropped: [Int] = []
        #expect(LogClock.settle(&anchors, daily: false, shifts: &shifts, dropped: &dropped) == 4)
        #expect(dropped == [0, 20, 22, 24] && anchors.count == 26 && shifts.isEmpty)
    }

    @Test("a logger paused for two hours is followed; the replay ticks ten minutes of the gap and skips the rest")
    func pausedLogger() {
        let lines = seconds(from: afternoon, count: 30) + seconds(from: afternoon + 7200, count: 30)
        let (times, glitches) = RecordingTimeline.timeline(of: parsed(lines), lineRate: 10)
        #expect(glitches == 0 && times[times.count - 4] - times[0] == 7229)
        var session = ReplaySession(engine: Engine())
        var outputs: [ReplaySession.Output] = []
        let timeline = zip(times, parsed(lines)).map { TimedSentence(time: $0, sentence: $1, log: 0) }
        session.run(timeline, sources: [SourceID(0)]) { outputs.append($0) }
        #expect(session.summary.gaps == 1 && session.summary.duration == 7229.75)
        // Ten minutes of the gap played (the data-lost alarms), the hour and fifty minutes after them not.
        #expect(abs(session.summary.skipped - (7200 - 29.75 - ReplaySession.gapLimit)) < 0.2)
        #expect(outputs.contains { $0.time > times[0] + 29 + 60 && $0.time < times[0] + 29 + ReplaySession.gapLimit })
        #expect(!outputs.contains { $0.time > times[0] + 29 + ReplaySession.gapLimit + 1 && $0.time < times[0] + 7200 })
        // A paced replay waits on the play time: the sentences after the gap come ten minutes after those before.
        let last = outputs.last!
        #expect(last.time - outputs[0].time > 7200 && last.playTime - outputs[0].playTime < 61 + ReplaySession.gapLimit)
    }

    @Test("a clock set back is taken out: the log goes on from where its clock was, every second in its order")
    func clockSetBack() {
        let lines = seconds(from: afternoon, count: 30) + seconds(from: afternoon - 900, count: 30)
        let (times, glitches) = RecordingTimeline.timeline(of: parsed(lines), lineRate: 10)
        #expect(glitches == 0 && times == times.sorted())
        // The second half a second apart as it was, not held at the first half's last time.
        #expect(times.last! - times.first! > 55 && times.last! - times.first! < 61)
        #expect(times[lines.count - 4] - times[lines.count - 8] == 1)
    }

    /// A candump of the apparent wind (PGN 130306) ten times a second from `start`, with lines at `glitchTime` in the middle.
    func candump(start: Double, count: Int, glitches: Int, glitchTime: Double, setBack: Double = 0) -> String {
        var text = ""
        for line in 0..<count {
            var time = start + Double(line) / 10
            if line >= count / 2 { time -= setBack }
            if line >= count / 2 && line < count / 2 + glitches { time = glitchTime }
            text += "(\(FixedDecimal.text(time, decimals: 6))) can0 09FD0223#01F4017414FAFFFF\n"
        }
        return text
    }

    func stream(_ text: String, _ name: String) throws -> (N2KRecordingStream, [Double]) {
        let path = temporaryFolder("log-clock") + "/\(name).log"
        try POSIX.writeFileAtomically(path, text)
        let stream = try N2KRecordingStream(path: path, prefix: "log", lineRate: 10)
        var times: [Double] = []
        while let item = stream.next() { times.append(item.time) }
        return (stream, times)
    }

    @Test("a recorded NMEA 2000 bus with four lines stamped 2090 replays in its own minute")
    func busGlitch() throws {
        let (stream, times) = try stream(
            candump(start: 1_745_600_961, count: 600, glitches: 4, glitchTime: 3_807_000_000), "glitch")
        #expect(stream.timeGlitches == 4 && times.count > 30)
        #expect(times == times.sorted() && times.last! - times.first! < 61)
    }

    @Test("a recorded NMEA 2000 bus whose host clock was set back goes on in its order")
    func busSetBack() throws {
        let (stream, times) = try stream(
            candump(start: 1_745_600_961, count: 600, glitches: 0, glitchTime: 0, setBack: 3600), "set-back")
        #expect(stream.timeGlitches == 0 && times.count > 30)
        #expect(times == times.sorted() && times.last! - times.first! > 55 && times.last! - times.first! < 61)
    }
}
