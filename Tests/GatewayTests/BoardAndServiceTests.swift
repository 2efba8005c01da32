import Engine
import NMEA
import Platform
import TestSupport
import Testing

@testable import Gateway

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct BoardAndServiceTests {
    @Test("a board profile names the devices: serial://@gpio-uart is the Pi 5's GPIO UART, not its serial0")
    func boardDevices() throws {
        let folder = projectFixtures() + "/../Boards"
        let pi5 = try ConfigurationFile.parse(
            "board = \"raspberry-pi-5\"\n[[input]]\nurl = \"serial://@gpio-uart?baud=4800\"\n", base: folder)
        #expect(pi5.inputs.first?.endpoint == .serial(path: "/dev/ttyAMA0", baud: 4800))
        let pi4 = try ConfigurationFile.parse(
            "board = \"raspberry-pi-4\"\n[[input]]\nurl = \"serial://@gpio-uart?baud=38400\"\n", base: folder)
        #expect(pi4.inputs.first?.endpoint == .serial(path: "/dev/serial0", baud: 38400))
        for name in ["raspberry-pi-3", "raspberry-pi-4", "raspberry-pi-5", "raspberry-pi-zero-2-w", "macarthur-hat"] {
            let profile = try BoardProfile.load(name, from: [folder])
            #expect(profile.devices["i2c"] == "/dev/i2c-1")
        }
        #expect(try BoardProfile.load("macarthur-hat", from: [folder]).imuAxes?.description == "x,-y,-z")
        do {
            _ = try ConfigurationFile.parse(
                "board = \"raspberry-pi-4\"\n[[input]]\nurl = \"serial://@nmea9\"\n", base: folder)
            Issue.record("an unknown device was accepted")
        } catch {
            #expect(error.line == 3 && error.key == "[[input]] #1 url")
        }
        #expect(throws: ConfigurationFile.Error.self) {
            try ConfigurationFile.parse("board = \"pi-6\"\n", base: folder)
        }
    }

    @Test("under systemd the runtime says READY, keeps the watchdog fed from its loop, and says STOPPING")
    func systemdNotify() throws {
        let directory = temporaryFolder("notify")
        let path = directory + "/notify"
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        defer {
            close(fd)
            unlink(path)
            rmdir(directory)
        }
        var configuration = GatewayConfiguration()
        configuration.statusLine = false
        configuration.outputs = [OutputConfiguration(name: "udp", endpoint: .udp(host: "127.0.0.1", port: 9))]
        configuration.engine.kinds = []
        // What systemd puts in $NOTIFY_SOCKET and $WATCHDOG_USEC, given directly so no other test sees it.
        configuration.systemdNotify = (path, 200_000)
        let runtime = try Runtime(configuration: configuration) { _ in }
        // Read as systemd does, while the gateway runs: the kernel queues only a few datagrams for a socket
        // (net.unix.max_dgram_qlen, 10 here), and the notifier never blocks the loop to wait for room.
        let received = MessageBox()
        let reader = TestThread {
            var buffer = [UInt8](repeating: 0, count: 256)
            var timeout = timeval(tv_sec: 0, tv_usec: 300_000)
            _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            while true {
                let got = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                guard got > 0 else { break }
                let message = String(decoding: buffer[0..<got], as: UTF8.self)
                received.append(message)
                if message == "STOPPING=1" { break }
            }
        }
        runtime.run(duration: 1)
        reader.join()
        let messages = received.items
        #expect(messages.first?.hasPrefix("READY=1") == true)
        // 1 s with a 0.2 s watchdog: a keep-alive every 0.1 s (at least half of them on a loaded machine).
        #expect(messages.filter { $0 == "WATCHDOG=1" }.count >= 5)
        #expect(messages.last == "STOPPING=1", "\(messages)")
    }
}
