import Engine
import Gateway
import NMEA
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback TCP server a test controls: the other end of a `tcp://` input.
final class LoopbackServer: @unchecked Sendable {
    let listener: Int32
    let port: Int
    private var connection: Int32 = -1

    init() {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        listen(fd, 4)
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = Int(UInt16(bigEndian: actual.sin_port))
    }

    deinit {
        if connection >= 0 { close(connection) }
        close(listener)
    }

    /// Waits for the gateway to connect.
    func accept() { connection = Glibc.accept(listener, nil, nil) }

    func send(_ text: String) {
        var text = text
        text.withUTF8 { _ = Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Drops the connection, as a multiplexer restarting would.
    func hangUp() {
        close(connection)
        connection = -1
    }
}

@Suite(.serialized) struct RecordTests {
    @Test("a TCP input reconnects after the server hangs up, and the recording replays on its receive times")
    func recordAndReconnect() throws {
        let server = LoopbackServer()
        let directory = temporaryFolder("record")
        var configuration = GatewayConfiguration()
        configuration.inputs = [InputConfiguration(name: "mux", endpoint: .tcp(host: "127.0.0.1", port: server.port))]
        configuration.record = Recorder.Settings(directory: directory)
        configuration.statusLine = false
        configuration.engine.kinds = []
        let runtime = try Runtime(configuration: configuration) { _ in }
        let box = RuntimeBox(runtime)
        let running = TestThread { box.runtime.run(duration: 3) }
        server.accept()
        for _ in 0..<10 { server.send("$HCHDM,093.8,M*2B\r\n") }
        usleep(300_000)
        server.hangUp()
        server.accept()  // the gateway is back within a second
        server.send("$WIMWV,12.1,T,10.1,N,A*27\r\n$WIMWV,12.1,T,10.1,N,A*")  // the second is cut: not recorded
        usleep(300_000)
        server.hangUp()
        running.join()

        let files = runtime.recordedFiles
        #expect(files.count == 1)
        let log = try Recording.read(try #require(files.first))
        #expect(log.sentences.count == 11)
        #expect(log.sentences.allSatisfy { $0.tagBlock?.source == "mux" })
        let times = log.sentences.compactMap { $0.tagBlock?.unixMilliseconds }
        #expect(times.count == 11 && times == times.sorted())
        // The reconnect took a moment: the last sentence came well after the first ten.
        #expect(times[10] - times[9] >= 250)
        #expect(RecordingTimeline.times(of: log.sentences, lineRate: 10) == times.map { Double($0) / 1000 })
        #expect(runtime.router.counters.rejected >= 1)
        // No IMU, no IMU file: an empty CSV beside every log would only be noise.
        #expect(!fileExists(String(files[0].dropLast(5)) + ".imu.csv"))
        for file in files { unlink(file) }
        rmdir(directory)
    }

    @Test("the IMU plays in run: heel comes out, and the recorder writes the IMU CSV beside the NMEA")
    func imuInRun() throws {
        let directory = temporaryFolder("imu")
        let folder = projectFixtures() + "/demo-voyage"
        let configuration = try ConfigurationFile.parse(
            """
            status_line = false
            [imu]
            url = "csv:imu.csv"
            speed = 20
            axes = "x,y,z"
            [record]
            directory = "\(directory)"
            [[input]]
            url = "file:voyage.nmea"
            speed = 20
            """, base: folder)
        let runtime = try Runtime(configuration: configuration) { _ in }
        runtime.run(duration: 2)
        let heel = try #require(runtime.lastReport?.values.imuAttitude?.heel)
        #expect(abs(heel) < 40)
        let nmea = try #require(runtime.recordedFiles.first)
        #expect(runtime.recordedFiles.contains(String(nmea.dropLast(5)) + ".imu.csv"))
        let imu = try IMUFile.read(String(nmea.dropLast(5)) + ".imu.csv")
        // 2 s at 20x is 40 s of a 100 Hz IMU; a loaded machine plays less of it (a CI building beside it played
        // under 30 s once), so the count asks for an eighth, and the samples written are the played file's, one after
        // another from the first written, none left out.
        #expect(imu.samples.count > 500 && imu.rejected == 0)
        let played = try IMUFile.read(folder + "/imu.csv").samples
        let same = { (a: IMUFile.Sample, b: IMUFile.Sample) in
            let d = a.accelerometer - b.accelerometer
            return abs(d.x) + abs(d.y) + abs(d.z) < 1e-3
        }
        let start = imu.samples.first.flatMap { first in played.firstIndex { same($0, first) } } ?? played.count
        let along = zip(imu.samples, played[start...]).prefix { same($0, $1) }.count
        #expect(along == imu.samples.count, "\(along) of \(imu.samples.count) samples the played file's in turn")
        #expect(try Recording.read(nmea).sentences.count > 500)
        unlink(String(nmea.dropLast(5)) + ".imu.csv")
        unlink(nmea)
        rmdir(directory)
    }
}
