import Engine
import Platform
import Router
import TestSupport
import Testing

@testable import Gateway

/// An IMU trace's clock read through its glitches, in a replay (`--imu`) and played as the gateway's input (found by
/// fuzzing the trace, 2026-12-01: one sample stamped 31 years out held every sample after it back, the heel and pitch
/// lost for the rest of the trace and nothing said).
@Suite struct IMUClockTests {
    /// 100 Hz rows from `start`, `count` of them; `glitch` replaces the time of one row.
    func rows(from start: Double, count: Int, glitch: (Int, Double)? = nil) -> [String] {
        (0..<count).map { index in
            let time = glitch?.0 == index ? glitch!.1 : start + Double(index) / 100
            return "\(time),0.1,0.8,-9.8,0.5,-0.2,0.3"
        }
    }

    func file(_ rows: [String]) throws -> String {
        let path = temporaryFolder("imu-clock") + "/imu.csv"
        try POSIX.writeFile(path, "time_s,ax,ay,az,gx,gy,gz\n" + rows.joined(separator: "\n") + "\n")
        return path
    }

    /// The times (runtime clock) the input plays each sample at, serviced every 10 ms until `until`.
    func played(_ path: String, until: Double, rejected: inout Int) throws -> [Double] {
        let input = try CSVIMUInput(configuration: IMUConfiguration.parse("csv://" + path, base: "."))
        input.start(at: 0)
        var times: [Double] = []
        var now = 0.0
        while now < until {
            input.service(now: now, polled: PollSet()) { event in
                if case .imu = event { times.append(now) }
                if case .rejected = event { rejected += 1 }
            }
            now += 0.01
        }
        return times
    }

    @Test("a sample stamped years out is left out, in a replay and as an input; every other sample is played")
    func glitch() throws {
        let path = try file(rows(from: 1_782_036_000, count: 300, glitch: (120, 2_782_036_000)))
        let read = try IMUFile.read(path)
        #expect(read.samples.count == 299 && read.timeGlitches == 1)
        #expect(read.samples.map(\.time) == read.samples.map(\.time).sorted())
        var rejected = 0
        let times = try played(path, until: 5, rejected: &rejected)
        #expect(times.count == 299 && times.last! < 3.05, "\(times.count) samples, the last at \(times.last ?? -1)")
        #expect(rejected == 1, "the sample left out counted with the input's refused lines")
    }

    @Test("as an input, a trace paused two hours goes on ten minutes later; one whose clock went back goes on at once")
    func leaps() throws {
        let paused = try file(
            rows(from: 1_782_036_000, count: 100) + rows(from: 1_782_036_000 + 7_200, count: 100))
        var rejected = 0
        let times = try played(paused, until: 602, rejected: &rejected)
        #expect(
            times.count == 200 && abs(times[100] - 600.99) < 0.02, "\(times.count), \(times.dropFirst(99).prefix(2))")
        let back = try file(rows(from: 1_782_036_000, count: 100) + rows(from: 1_782_036_000 - 3_600, count: 100))
        let again = try played(back, until: 3, rejected: &rejected)
        #expect(again.count == 200 && again.last! < 2.05, "\(again.count), \(again.last ?? -1)")
        #expect(rejected == 0, "a leap followed is no glitch")
    }
}
