import Engine
import Gateway
import Marine
import NMEA
import Platform
import Sensors
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct AttitudeOutputTests {
    @Test("XDR names and decimals per output: one output as configured globally, another B&G-style with 2 decimals")
    func perOutput() throws {
        let folder = temporaryFolder()
        LevelCalibrationTests().trace(folder + "/heeled.csv", heel: 7.25, pitch: -1.5)
        let text = """
            status_line = false
            state_file = ""
            [attitude]
            decimals = 1
            [imu]
            url = "csv://\(folder)/heeled.csv"
            [[output]]
            name = "plain"
            url = "tcp://127.0.0.1:1"
            kinds = ["attitude"]
            [[output]]
            name = "bg"
            url = "tcp://127.0.0.1:2"
            kinds = ["attitude"]
            attitude_names = ["HEEL", "TRIM"]
            attitude_decimals = 2
            talker = "YX"
            """
        var configuration = try ConfigurationFile.parse(text)
        // Any free port (the file format wants a real one).
        for index in configuration.outputs.indices {
            configuration.outputs[index].endpoint = .tcp(host: "127.0.0.1", port: 0)
        }
        configuration.engine.kinds = configuration.requiredKinds
        let runtime = try Runtime(configuration: configuration) { _ in }
        let plain = LoopbackClient(port: try #require(runtime.tcpPorts["plain"]))
        let bg = LoopbackClient(port: try #require(runtime.tcpPorts["bg"]))
        let box = RuntimeBox(runtime)
        let boxes = (ClientBox(plain), ClientBox(bg))
        let running = TestThread { box.runtime.run(duration: 2.5) }
        let start = POSIX.monotonic()
        let reading = TestThread {
            while POSIX.monotonic() - start < 2.7 {
                boxes.0.client.drain()
                boxes.1.client.drain()
                usleep(5000)
            }
        }
        running.join()
        reading.join()
        let plainLast = try #require(String(decoding: plain.bytes, as: UTF8.self).split(separator: "\r\n").last)
        let bgLast = try #require(String(decoding: bg.bytes, as: UTF8.self).split(separator: "\r\n").last)
        // The same attitude (the last tick's), in two dialects.
        let p = plainLast.split(separator: ",")
        let b = bgLast.split(separator: ",")
        #expect(p[0] == "$IIXDR" && p[4] == "ROLL" && p[8].hasPrefix("PTCH*"), "\(plainLast)")
        #expect(b[0] == "$YXXDR" && b[4] == "HEEL" && b[8].hasPrefix("TRIM*"), "\(bgLast)")
        #expect(p[2].split(separator: ".").last?.count == 1 && b[2].split(separator: ".").last?.count == 2)
        #expect(b[6].split(separator: ".").last?.count == 2)
        let heel = try #require(Double(b[2]))
        #expect(abs(heel - 7.25) < 1, "\(bgLast)")
        #expect(abs((Double(p[2]) ?? 0) - heel) <= 0.05 + 1e-9)
        #expect(
            bgLast.hasSuffix(checksummed(String(bgLast.dropFirst().prefix { $0 != "*" })).suffix(3)))
    }

    @Test("attitude names are checked")
    func badNames() {
        #expect(throws: ConfigurationFile.Error.self) {
            try ConfigurationFile.parse("[[output]]\nurl = \"stdout:\"\nattitude_names = [\"heel\", \"TRIM\"]\n")
        }
        #expect(throws: ConfigurationFile.Error.self) {
            try ConfigurationFile.parse("[[output]]\nurl = \"stdout:\"\nattitude_names = [\"HEEL\"]\n")
        }
    }
}
