import Engine
import Gateway
import NMEA
import TestSupport
import Testing

@Suite struct ImplausibleInputTests {
    /// A minute of a steady boat: position, heading, log and wind every second, with one nonsense sentence in each
    /// second (valid checksums all).
    static func log(bad: [String]) -> [UInt8] {
        var text = ""
        for second in 0..<60 {
            let time = "1200" + (second < 10 ? "0" : "") + "\(second).00"
            text += checksummed("GPRMC,\(time),A,5000.000,N,00100.000,W,5.0,90.0,010126,,,A") + "\r\n"
            text += checksummed("HCHDT,90.0,T") + "\r\n"
            text += checksummed("IIVHW,,,90.0,M,5.0,N,,") + "\r\n"
            text += checksummed("WIMWV,40.0,R,12.0,N,A") + "\r\n"
            text += checksummed(bad[second % bad.count]) + "\r\n"
        }
        return Array(text.utf8)
    }

    @Test("nonsense with a valid checksum reaches neither the outputs nor the engine, and is counted")
    func neverPassedNeverUsed() throws {
        let bad = [
            "WIMWV,40.0,R,99999,N,A", "IIVHW,,,90,M,999,N,,", "WIMWV,-999,R,10,N,A", "HCHDT,400,T", "HCHDT,-999,T",
            "WIMWV,40,R,-5,N,A", "SDDPT,-3.0,0.0", "IIXDR,A,nan,D,ROLL,A,inf,D,PTCH", "IIXDR,A,1e308,D,ROLL",
        ]
        var framer = SentenceFramer()
        var sentences: [Sentence] = []
        let collect: (FramerEvent) -> Void = { if case .sentence(let s) = $0 { sentences.append(s) } }
        framer.feed(Self.log(bad: bad), collect)
        framer.finish(collect)
        let recorded = Recording(path: "implausible.nmea", sentences: sentences, statistics: framer.statistics)
        var options = ReplayRunner.Options()
        options.speed = nil
        options.progress = false
        var configuration = EngineConfiguration()
        configuration.echoWindow = 0
        var output: [UInt8] = []
        let result = ReplayRunner(engine: Engine(configuration: configuration), options: options).run([recorded]) {
            output.append(contentsOf: $0)
        }
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\r\n").map(String.init)
        for sentence in bad.map({ checksummed($0) }) {
            #expect(!lines.contains(sentence), "passed through: \(sentence)")
        }
        #expect(result.summary.implausible == 60)
        // True wind from the honest readings only: 12 kn at 40° apparent, 5 kn through the water.
        let trueWind = lines.filter { $0.hasPrefix("$IIMWV") && $0.contains(",T,") && $0.contains(",A*") }
        #expect(!trueWind.isEmpty)
        for line in trueWind {
            let fields = line.split(separator: ",")
            let speed = try #require(Double(fields[3]))
            #expect(speed > 7 && speed < 10, "true wind \(line)")
        }
    }
}

@Suite struct IMUOnlyReplayTests {
    @Test("an IMU trace alone replays on its own clock: heel and pitch come out with no NMEA log")
    func imuAlone() throws {
        let imu = try IMUFile.read(projectFixtures() + "/demo-voyage/imu.csv")
        var configuration = EngineConfiguration()
        configuration.echoWindow = 0
        configuration.kinds = [.attitude]
        var options = ReplayRunner.Options()
        options.speed = nil
        options.progress = false
        var output: [UInt8] = []
        let result = ReplayRunner(engine: Engine(configuration: configuration), options: options).run(
            [Recording](), imu: imu
        ) {
            output.append(contentsOf: $0)
        }
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\r\n")
        let seconds = try #require(imu.samples.last).time - imu.samples[0].time
        // Attitude every 0.2 s over the whole trace.
        #expect(result.summary.computed > Int(seconds * 5 * 0.9), "\(result.summary.computed) over \(seconds) s")
        #expect(lines.allSatisfy { $0.hasPrefix("$IIXDR,A,") && $0.contains(",D,ROLL,A,") })
    }
}

@Suite struct LogStreamTests {
    /// Replays `paths` framed in memory and read as they play; the bytes must be the same.
    func both(_ paths: [String]) throws -> (inMemory: [UInt8], streamed: [UInt8], read: Int) {
        var options = ReplayRunner.Options()
        options.speed = nil
        options.progress = false
        options.tagTime = true
        let runner = ReplayRunner(engine: Engine(), options: options)
        var inMemory: [UInt8] = []
        _ = runner.run(try paths.map { try Recording.read($0) }) { inMemory.append(contentsOf: $0) }
        var streamed: [UInt8] = []
        let streams = try paths.enumerated().map { try RecordingStream(path: $1, index: $0, lineRate: 10) }
        let result = runner.run(streams) { streamed.append(contentsOf: $0) }
        return (inMemory, streamed, result.sentencesRead)
    }

    @Test("a log read as it replays gives the bytes of the same log framed in memory")
    func demoVoyage() throws {
        let (inMemory, streamed, read) = try both([projectFixtures() + "/demo-voyage/voyage.nmea"])
        #expect(read > 28_000)
        #expect(inMemory.count > 1_000_000 && inMemory == streamed)
    }

    @Test("two logs merged as they play keep the order of the merge of whole logs (ties by log, then line)")
    func mergedLogs() throws {
        let folder = projectFixtures() + "/edge-cases"
        let (inMemory, streamed, _) = try both([folder + "/gps-a.nmea", folder + "/gps-b.nmea", folder + "/noise.nmea"])
        #expect(!inMemory.isEmpty && inMemory == streamed)
    }
}
