import CPosix
import NMEA
import Platform
import TestSupport
import Testing

@testable import Gateway

/// A log played as a live input, read as it plays: each sentence at its time, a looping log from the start again.
@Suite struct FileInputTests {
    func log(_ lines: [String]) throws -> String {
        let folder = temporaryFolder("file-input")
        let path = folder + "/log.nmea"
        try POSIX.writeFile(path, lines.map { checksummed($0) + "\r\n" }.joined())
        return path
    }

    @Test("each sentence at its log time; a looping log starts again after one mean interval, says so, and again")
    func looping() throws {
        let path = try log([
            "GPRMC,100000.00,A,5000.0000,N,00100.0000,W,5.0,0.0,241126,,,A", "IIHDT,10.0,T",
            "GPRMC,100001.00,A,5000.0010,N,00100.0000,W,5.0,0.0,241126,,,A", "IIHDT,11.0,T",
            "GPRMC,100002.00,A,5000.0020,N,00100.0000,W,5.0,0.0,241126,,,A", "IIHDT,12.0,T",
        ])
        var configuration = InputConfiguration(name: "log", endpoint: .file(path: path))
        configuration.loop = true
        let input = try FileInput(configuration: configuration, path: path)
        input.start(at: 100)
        var seen: [(Double, String)] = []
        var laps: [Int] = []
        var now = 100.0
        while now < 109 {
            input.service(now: now, polled: PollSet()) { event in
                switch event {
                case .sentence(let sentence): seen.append((now, sentence.description))
                case .restarted(let lap): laps.append(lap)
                default: break
                }
            }
            now += 0.25
        }
        // Six sentences over 2 s, a lap of 3 s: 3 laps in 9 s, each sentence once a lap at its time.
        #expect(seen.count == 18, "\(seen.count)")
        #expect(laps == [1, 2, 3])
        // Every lap plays the first one again, 3 s later, sentence for sentence.
        let times = seen.map(\.0)
        #expect(Array(times[6..<12]) == times[0..<6].map { $0 + 3 })
        #expect(Array(seen[6..<12].map(\.1)) == seen[0..<6].map(\.1))
        let firstRMC = seen.filter { $0.1.contains("RMC,100000") }.map(\.0)
        #expect(firstRMC == [100, 103, 106])
        #expect(input.finished == false)
    }

    @Test("played once, a log finishes; a file that shrinks underneath is played out, never spun on")
    func once() throws {
        let path = try log(["IIHDT,10.0,T", "IIHDT,11.0,T", "IIHDT,12.0,T"])
        let input = try FileInput(
            configuration: InputConfiguration(name: "log", endpoint: .file(path: path)), path: path)
        input.start(at: 0)
        var count = 0
        input.service(now: 100, polled: PollSet()) { if case .sentence = $0 { count += 1 } }
        #expect(count == 3 && input.finished == true && input.nextDue(now: 100) == nil)

        let shrinking = try log(["IIHDT,10.0,T", "IIHDT,11.0,T", "IIHDT,12.0,T", "IIHDT,13.0,T"])
        let cut = try FileInput(
            configuration: InputConfiguration(name: "log", endpoint: .file(path: shrinking)), path: shrinking)
        try POSIX.writeFile(shrinking, checksummed("IIHDT,10.0,T") + "\r\n")
        cut.start(at: 0)
        count = 0
        cut.service(now: 100, polled: PollSet()) { if case .sentence = $0 { count += 1 } }
        #expect(count == 1 && cut.finished == true)
    }

    @Test("a logger paused two hours: its first ten minutes played silent, the rest skipped, each lap alike")
    func pausedLogger() throws {
        // Ten fixes a second apart, the logger paused two hours, ten more.
        let fix = { (time: String) in "GPRMC,\(time).00,A,5000.0000,N,00100.0000,W,5.0,0.0,241126,,,A" }
        let path = try log((0..<10).map { fix("10000\($0)") } + (0..<10).map { fix("12000\($0)") })
        var configuration = InputConfiguration(name: "log", endpoint: .file(path: path))
        configuration.loop = true
        let input = try FileInput(configuration: configuration, path: path)
        input.start(at: 0)
        var seen: [Double] = []
        var now = 0.0
        while now < 1_300 {
            input.service(now: now, polled: PollSet()) { if case .sentence = $0 { seen.append(now) } }
            now += 0.5
        }
        // 12:00:00 comes 600 s after 10:00:09 (the two hours cut to ten minutes), not 7,191 s; a lap is the 618 s
        // played plus one mean interval of them (618 / 19), not of the two hours.
        let lap = 618 + 618.0 / 19
        let once = (0..<10).map(Double.init) + (0..<10).map { 609 + Double($0) }
        let due = once + once.map { $0 + lap }
        #expect(seen.count == 40, "\(seen.count) sentences: \(seen.suffix(3))")
        #expect(zip(seen, due).allSatisfy { $0 >= $1 && $0 < $1 + 0.5 }, "\(seen) for \(due)")
    }

    @Test("a loop held up catches up a turn's share at a time: every sentence, in order, none lost")
    func backlog() throws {
        let lines = (0..<300).map { "IIHDT,\(Double($0) / 10),T" }
        let timed = lines.indices.map { index in
            let time = "1000\(index < 100 ? "0" : "")\(index / 10).\(index % 10)0"
            return "GPRMC,\(time),A,5000.0000,N,00100.0000,W,5.0,0.0,241126,,,A"
        }
        let path = try log(zip(timed, lines).flatMap { [$0, $1] })
        let input = try FileInput(
            configuration: InputConfiguration(name: "log", endpoint: .file(path: path)), path: path)
        input.start(at: 0)
        // Held up for the whole log's 30 s: turn after turn at the same instant, each hands over at most its share.
        var turns: [Int] = []
        var seen: [String] = []
        while input.finished == false && turns.count < 100 {
            var count = 0
            input.service(now: 30, polled: PollSet()) {
                if case .sentence(let sentence) = $0 {
                    count += 1
                    seen.append(sentence.description)
                }
            }
            turns.append(count)
        }
        #expect(turns == [256, 256, 88], "\(turns)")
        #expect(seen == zip(timed, lines).flatMap { [checksummed($0), checksummed($1)] })
    }

    @Test("what playing a log leaves out is said in the gateway's log when it opens: refused lines, glitches, pauses")
    func saidWhenOpened() throws {
        let fix = { (time: String, date: String) in "GPRMC,\(time).00,A,5000.0000,N,00100.0000,W,5.0,0.0,\(date),,,A" }
        let folder = temporaryFolder("file-input-said")
        let path = folder + "/log.nmea"
        // Ten fixes, one stamped five hours out, a line with a broken checksum, the logger paused two hours, ten more.
        var lines = (0..<10).map { checksummed(fix("10000\($0)", "241126")) }
        lines[5] = checksummed(fix("153005", "241126"))
        lines.append("$GPRMC,100009.50,A,5000.0000,N,00100.0000,W,5.0,0.0,241126,,,A*00")
        lines += (0..<10).map { checksummed(fix("12000\($0)", "241126")) }
        try POSIX.writeFile(path, lines.map { $0 + "\r\n" }.joined())
        var said: [LogEvent] = []
        let log = Log { said.append($0) }
        let configuration = InputConfiguration(name: "bench", endpoint: .file(path: path))
        #expect(try Transports.input(configuration, log: log) != nil)
        let line = said.first { $0.id == "input.log-read" }?.message ?? ""
        #expect(said.count == 1, "\(said.map(\.message))")
        #expect(line.hasPrefix("input bench: " + path), "\(line)")
        #expect(line.contains("1 line refused") && line.contains("1 time out of line"), "\(line)")
        #expect(line.contains("1 pause of the logger cut to ten minutes (110 min skipped)"), "\(line)")
        // A clean log opens without a word.
        said = []
        let clean = try self.log((0..<10).map { fix("10000\($0)", "241126") })
        _ = try Transports.input(InputConfiguration(name: "clean", endpoint: .file(path: clean)), log: log)
        #expect(said.isEmpty, "\(said.map(\.message))")
    }
}
