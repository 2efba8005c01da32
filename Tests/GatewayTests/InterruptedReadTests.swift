import CPosix
import Glibc
import NMEA
import Platform
import TestSupport
import Testing

@testable import Gateway

/// EINTR is retried in the funnel and nowhere else: with every other read interrupted (the funnel's test knob, armed
/// on this thread only), an IMU trace, a log and a serial input each deliver every line, and each was interrupted,
/// which shows its reads went through the funnel. A reader that went around it (CSVIMUInput once read with a raw
/// `read`, libserialport's read takes EINTR for a failed device) is not interrupted, and the count says so.
@Suite(.serialized) struct InterruptedReadTests {
    static func folder() -> String { temporaryFolder("eintr") }

    /// Runs `body` with reads interrupted; the reads interrupted meanwhile.
    func interrupting(_ body: () throws -> Void) rethrows -> Int {
        let before = POSIX.interruptedReads
        POSIX.interruptReads(true)
        defer { POSIX.interruptReads(false) }
        try body()
        return POSIX.interruptedReads - before
    }

    let lines = (0..<200).map { index in
        "IIHDT,\(index % 360).0,T"
    }

    @Test("a log played as an input delivers every sentence when its reads are interrupted")
    func log() throws {
        let path = Self.folder() + "/log.nmea"
        try POSIX.writeFile(path, lines.map { checksummed($0) + "\r\n" }.joined())
        var seen: [String] = []
        let interrupted = try interrupting {
            var configuration = InputConfiguration(name: "log", endpoint: .file(path: path))
            configuration.speed = 1000
            let input = try FileInput(configuration: configuration, path: path)
            input.start(at: 0)
            // A few turns: an input hands over at most its share a turn.
            while input.finished == false {
                input.service(now: 1e6, polled: PollSet()) { event in
                    if case .sentence(let sentence) = event { seen.append(sentence.description) }
                }
            }
        }
        #expect(seen == lines.map { checksummed($0) })
        #expect(interrupted > 0)
    }

    @Test("an IMU trace delivers every sample when its reads are interrupted")
    func imuTrace() throws {
        let path = Self.folder() + "/imu.csv"
        let rows = (0..<300).map { "\(Double($0) / 100),0.1,0.2,-9.8,0.5,0.0,-0.5" }
        // Longer than the reader's 64 KB buffer, so that it reads many times.
        let padding = String(repeating: "#\n", count: 40_000)
        try POSIX.writeFile(path, "time_s,ax,ay,az,gx,gy,gz\n" + padding + rows.joined(separator: "\n") + "\n")
        var samples = 0
        let interrupted = try interrupting {
            let input = try CSVIMUInput(configuration: IMUConfiguration.parse("csv://" + path, base: "."))
            input.start(at: 0)
            input.service(now: 1e6, polled: PollSet()) { event in
                if case .imu = event { samples += 1 }
            }
        }
        #expect(samples == rows.count)
        #expect(interrupted > 2)
    }

    @Test("a serial input on a pseudo-terminal delivers every sentence and stays open when its reads are interrupted")
    func serial() throws {
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        try #require(master >= 0)
        defer { close(master) }
        // unlockpt(3) and ptsname(3) as the kernel has them (TIOCSPTLCK, TIOCGPTN), which Glibc's module leaves out.
        var unlock: Int32 = 0
        var number: UInt32 = 0
        try #require(cposix_ioctl(master, 0x4004_5431, &unlock) == 0)
        try #require(cposix_ioctl(master, 0x8004_5430, &number) == 0)
        let device = "/dev/pts/\(number)"
        var events: [LogEvent] = []
        let input = SerialInput(
            name: "instruments", path: device, baud: 4800, framing: FramerConfiguration(),
            log: Log { events.append($0) })
        defer { input.close() }
        var seen: [String] = []
        let interrupted = interrupting {
            var fds = PollSet()
            input.prepare(now: 0, into: &fds)
            for (index, line) in lines.enumerated() {
                let bytes = Array((checksummed(line) + "\r\n").utf8)
                _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
                if index % 20 == 19 || index == lines.count - 1 {
                    for _ in 0..<50 where seen.count <= index {
                        fds.removeAll()
                        input.prepare(now: 1, into: &fds)
                        fds.wait(seconds: 0.02)
                        input.service(now: 1, polled: fds) { event in
                            if case .sentence(let sentence) = event { seen.append(sentence.description) }
                        }
                    }
                }
            }
        }
        #expect(seen == lines.map { checksummed($0) })
        #expect(interrupted > 0)
        #expect(!events.contains { $0.id == "input.lost" }, "the input was closed: \(events.map(\.message))")
    }
}
