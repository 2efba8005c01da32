import Engine
import NMEA
import Platform
import TestSupport
import Testing

@testable import Gateway

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct ConfigurationTests {
    @Test("the bench profile is valid and says what make run promises")
    func benchProfile() throws {
        let folder = projectFixtures() + "/../Boards"
        let configuration = try ConfigurationFile.load(path: folder + "/bench.toml")
        #expect(configuration.inputs.first?.loop == true)
        #expect(configuration.outputs.first?.endpoint == .tcp(host: "0.0.0.0", port: 10110))
        #expect(configuration.route?.hasSuffix("Fixtures/demo-voyage/route.gpx") == true)
        #expect(configuration.web?.port == 3000, "the Signal K server and the panel on Signal K's usual port")
    }

    struct BadCase: Sendable, CustomTestStringConvertible {
        let text: String
        let line: Int?
        let key: String
        var testDescription: String { key }
    }

    @Test(
        "a bad configuration is refused with the key and its line",
        arguments: [
            BadCase(text: "talker = \"II\"\nrat = 10\n", line: 2, key: "rat"),
            BadCase(text: "rate = 100\n", line: 1, key: "rate"),
            BadCase(text: "[wind]\nheel_correction = \"yes\"\n", line: 2, key: "wind.heel_correction"),
            BadCase(
                text: "[[output]]\nurl = \"tcp://0.0.0.0:10110\"\n[[output]]\nurl = \"ftp://x\"\n", line: 4,
                key: "[[output]] #2 url"),
            BadCase(
                text: "[[output]]\nurl = \"stdout:\"\nkinds = [\"true-wind\", \"tru-wind\"]\n", line: 3,
                key: "[[output]] #1 kinds"),
            BadCase(
                text: "[[input]]\nname = \"a\"\nurl = \"file:x.nmea\"\n[[output]]\nname = \"a\"\nurl = \"stdout:\"\n",
                line: 5, key: "[[output]] #1 name"),
            BadCase(text: "[damping]\ntrue_wind = -1\n", line: 2, key: "damping.true_wind"),
            BadCase(text: "rate = \n", line: 1, key: "(syntax)"),
        ])
    func refused(_ c: BadCase) {
        do {
            _ = try ConfigurationFile.parse(c.text)
            Issue.record("accepted: \(c.text)")
        } catch {
            #expect(error.key == c.key)
            #expect(error.line == c.line)
        }
    }

    @Test("defaults: with only an output, every engine default holds and the standard kinds are built")
    func defaults() throws {
        let configuration = try ConfigurationFile.parse("[[output]]\nurl = \"stdout:\"\n")
        #expect(configuration.tickRate == 10)
        #expect(configuration.engine.timeouts.wind == 3)
        #expect(configuration.engine.damping.trueWind == 2)
        #expect(configuration.engine.kinds == ComputedKind.standard)
        #expect(configuration.outputs.first?.passThrough == true)
    }

    @Test("source priorities per quantity group come from [priority]")
    func priorities() throws {
        let configuration = try ConfigurationFile.parse(
            "[priority]\nwind = [\"masthead\", \"backup\"]\nposition = [\"gps2\"]\n[[output]]\nurl = \"stdout:\"\n")
        #expect(configuration.engine.priorities[.wind] == ["masthead", "backup"])
        #expect(configuration.engine.priorities[.position] == ["gps2"])
        #expect(throws: ConfigurationFile.Error.self) {
            try ConfigurationFile.parse("[priority]\nwinds = [\"a\"]\n")
        }
    }

    @Test("address patterns select sentences per output")
    func patterns() {
        var output = OutputConfiguration(name: "o", endpoint: .standardOutput)
        output.include = ["*MWV", "GP*"]
        output.exclude = ["GPGSV"]
        #expect(output.admits(Address("IIMWV")!) && output.admits(Address("GPRMC")!))
        #expect(!output.admits(Address("GPGSV")!) && !output.admits(Address("HCHDG")!))
    }
}

/// A TCP client on loopback that counts complete sentences.
final class LoopbackClient {
    let fd: Int32
    var bytes: [UInt8] = []

    init(port: Int, receiveBuffer: Int32? = nil) {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    deinit { close(fd) }

    func drain() {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let got = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard got > 0 else { return }
            bytes.append(contentsOf: buffer[0..<got])
        }
    }

    var sentences: Int { bytes.filter { $0 == 0x0A }.count }
}

@Suite(.serialized) struct RuntimeTests {
    /// The demo voyage played at `speed` to `outputs`, the standard kinds computed, no status line.
    func demo(speed: Double, outputs: [OutputConfiguration]) -> GatewayConfiguration {
        var configuration = GatewayConfiguration()
        var input = InputConfiguration(
            name: "demo", endpoint: .file(path: projectFixtures() + "/demo-voyage/voyage.nmea"))
        input.speed = speed
        configuration.inputs = [input]
        configuration.outputs = outputs
        configuration.statusLine = false
        configuration.engine.kinds = configuration.requiredKinds
        return configuration
    }

    @Test("a TCP client that never reads does not delay the others, and its losses are counted")
    func stalledClient() throws {
        var output = OutputConfiguration(name: "tcp", endpoint: .tcp(host: "127.0.0.1", port: 0))
        output.clientBuffer = 64 * 1024
        let runtime = try Runtime(configuration: demo(speed: 100, outputs: [output])) { _ in }
        let port = try #require(runtime.tcpPorts["tcp"])
        let reader = LoopbackClient(port: port)
        // A small receive window for the stalled client, so the server's queue for it fills quickly.
        let stalled = LoopbackClient(port: port, receiveBuffer: 4096)
        let box = RuntimeBox(runtime)
        let readerBox = ClientBox(reader)
        let running = TestThread { box.runtime.run(duration: 3) }
        let reading = TestThread {
            let start = POSIX.monotonic()
            while POSIX.monotonic() - start < 3.3 {
                readerBox.client.drain()
                usleep(2000)
            }
        }
        running.join()
        reading.join()
        _ = stalled
        reader.drain()
        // The stalled client, whose queue filled, lost sentences; the reading one got (nearly) all: on a machine with
        // a core free, all but the handful sent before it was accepted; with every core busy (the whole suite in
        // parallel, a benchmark beside it) its 2 ms reads can fall behind too, but never as far as the stalled one.
        let statistics = try #require(runtime.tcpStatistics["tcp"])
        let sent = runtime.router.counters.sentencesOut
        #expect(sent > 3000)
        let readerLost = max(sent - reader.sentences, 0)
        #expect(readerLost <= max(50, sent / 10), "reader \(reader.sentences) of \(sent)")
        #expect(
            statistics.droppedSentences > 3 * readerLost,
            "dropped \(statistics.droppedSentences), reader lost \(readerLost)")
        #expect(statistics.accepted == 2)
        var framer = SentenceFramer(configuration: .strict)
        framer.feed(reader.bytes) { _ in }
        #expect(framer.statistics.rejects.total == 0)
    }

    @Test("clients writing to an output port without pause do not stall the loop or the other clients")
    func writingClients() throws {
        let output = OutputConfiguration(name: "tcp", endpoint: .tcp(host: "127.0.0.1", port: 0))
        let runtime = try Runtime(configuration: demo(speed: 20, outputs: [output])) { _ in }
        let port = try #require(runtime.tcpPorts["tcp"])
        let reader = ClientBox(LoopbackClient(port: port))
        let writers = (0..<8).map { _ in ClientBox(LoopbackClient(port: port)) }
        let box = RuntimeBox(runtime)
        let running = TestThread { box.runtime.run(duration: 3) }
        // Eight writers, each sending 64 KiB blocks as fast as the socket takes them, for the whole run.
        let writing = writers.map { writer in
            TestThread {
                let block = [UInt8](repeating: UInt8(ascii: "x"), count: 65536)
                let start = POSIX.monotonic()
                while POSIX.monotonic() - start < 3 {
                    _ = block.withUnsafeBytes { send(writer.client.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                }
            }
        }
        let reading = TestThread {
            let start = POSIX.monotonic()
            while POSIX.monotonic() - start < 3.2 {
                reader.client.drain()
                usleep(2000)
            }
        }
        running.join()
        reading.join()
        for thread in writing { thread.join() }
        reader.client.drain()
        let statistics = try #require(runtime.tcpStatistics["tcp"])
        // The writers were being read (and thrown away) all along, never more than the read limit from one of them
        // in one turn of the loop (unbounded, a writer's 64 KiB blocks held the loop for 0.7 s at a time), and the
        // reader, served on every turn between them, lost next to nothing. No clock in the assertions: the bound is
        // counted by the server itself, so a busy machine cannot fail it.
        #expect(statistics.bytesDiscarded > 1_000_000, "discarded \(statistics.bytesDiscarded) bytes")
        #expect(statistics.largestTurnRead > 0)
        #expect(statistics.largestTurnRead <= TCPServer.readLimit, "read \(statistics.largestTurnRead) in one turn")
        let sent = runtime.router.counters.sentencesOut
        #expect(sent > 500)
        let readerLost = max(sent - reader.client.sentences, 0)
        #expect(readerLost <= max(50, sent / 10), "reader \(reader.client.sentences) of \(sent)")
    }

    @Test("a serial output that cannot be opened says why in the log, and is tried again once a second")
    func serialOutputMissing() throws {
        let pilot = OutputConfiguration(
            name: "pilot", endpoint: .serial(path: "/dev/telltale-no-such-port", baud: 4800))
        let messages = MessageBox()
        let runtime = try Runtime(configuration: demo(speed: 20, outputs: [pilot])) { messages.append($0.message) }
        runtime.run(duration: 1.5)
        let failures = messages.items.filter {
            $0.hasPrefix("output pilot: /dev/telltale-no-such-port: no such device")
        }
        #expect(failures.count == 1, "\(messages.items)")
        #expect(runtime.summary().contains("lost while the device was closed"))
    }

    @Test("identical readings an instrument repeats all pass through (not echoes), and a replay ends with its inputs")
    func repeatedReadingsPass() throws {
        var configuration = GatewayConfiguration()
        var input = InputConfiguration(
            name: "log", endpoint: .file(path: projectFixtures() + "/edge-cases/stale-wind.nmea"))
        input.speed = 50
        configuration.inputs = [input]
        var output = OutputConfiguration(name: "tcp", endpoint: .tcp(host: "127.0.0.1", port: 0))
        output.computed = false
        configuration.outputs = [output]
        configuration.statusLine = false
        configuration.engine.kinds = []
        let runtime = try Runtime(configuration: configuration) { _ in }
        let reader = LoopbackClient(port: try #require(runtime.tcpPorts["tcp"]))
        let box = RuntimeBox(runtime)
        let readerBox = ClientBox(reader)
        let start = POSIX.monotonic()
        let running = TestThread { box.runtime.run(duration: 10, untilInputsEnd: true) }
        let reading = TestThread {
            while POSIX.monotonic() - start < 3 {
                readerBox.client.drain()
                usleep(2000)
            }
        }
        running.join()
        let elapsed = POSIX.monotonic() - start
        reading.join()
        // 20 s of log at 50x, then a second: it ended with its inputs, well before the 10 s limit (the margin is wide so
        // that a busy machine cannot fail it; a run that waited for the limit takes 10 s).
        #expect(elapsed < 8)
        // 70 lines, of which the HDT, VHW and MWV lines repeat the same bytes every second.
        #expect(reader.sentences == 70)
        #expect(runtime.router.counters.echoes == 0)
    }
}

/// Hands the runtime to the thread that runs it while the test reads on its own.
final class RuntimeBox: @unchecked Sendable {
    let runtime: Runtime
    init(_ runtime: Runtime) { self.runtime = runtime }
}

final class ClientBox: @unchecked Sendable {
    let client: LoopbackClient
    init(_ client: LoopbackClient) { self.client = client }
}

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

@Suite struct LogLimiterTests {
    @Test("a repeated message is held back by its id and subject, not its text; the summary never is")
    func limiter() {
        var limiter = LogLimiter(interval: 30)
        func event(_ id: String, _ text: String, input: String) -> LogEvent {
            LogEvent(.warning, id, text, [("input", input), ("after", "\(text.count)")])
        }
        #expect(limiter.admit(event("input.lost", "input gps: reset by peer", input: "gps"), at: 0)?.message != nil)
        // Another text of the same id about the same input is a repeat: held back, digits or not.
        #expect(limiter.admit(event("input.lost", "input gps: connection closed", input: "gps"), at: 1) == nil)
        #expect(limiter.admit(event("input.lost", "input gps: reset by peer", input: "gps"), at: 2) == nil)
        // The same id about another input is news.
        #expect(limiter.admit(event("input.lost", "input wind: reset by peer", input: "wind"), at: 3) != nil)
        // A text that differs from a held one only by its digits but is of another id gets through.
        #expect(limiter.admit(event("input.open-failed", "input gps: reset by peer", input: "gps"), at: 4) != nil)
        let summary = LogEvent(.info, "summary", "summary: ...", throttled: false)
        #expect(limiter.admit(summary, at: 5) != nil && limiter.admit(summary, at: 6) != nil)
        let later = limiter.admit(event("input.lost", "input gps: reset by peer", input: "gps"), at: 31)
        // What was held back is said: each text and how often.
        #expect(
            later?.message
                == "input gps: reset by peer (held back in the 31 s before: \"input gps: connection closed\" once, "
                + "\"input gps: reset by peer\" once)")
        #expect(later?.metadata.contains { $0.key == "held_back" && $0.value == "2" } == true)
        // The announcements of defect 6: nine held back, of three kinds, each named with its count.
        var announce = LogLimiter(interval: 30)
        func said(_ text: String, at time: Double) -> LogEvent? {
            announce.admit(LogEvent(.info, "announce", "announce: " + text), at: time)
        }
        #expect(said("attitude lost", at: 0) != nil)
        for second in 1...5 { #expect(said("attitude lost", at: Double(second)) == nil) }
        for second in 6...8 { #expect(said("wind lost", at: Double(second)) == nil) }
        #expect(said("heading lost", at: 9) == nil)
        let next = said("attitude lost", at: 40)?.message
        #expect(
            next
                == "announce: attitude lost (held back in the 40 s before: \"announce: attitude lost\" 5 times, "
                + "\"announce: wind lost\" 3 times, \"announce: heading lost\" once)")
        // Past three texts, the others are counted.
        var many = LogLimiter(interval: 30)
        _ = many.admit(LogEvent(.info, "x", "a"), at: 0)
        for (index, text) in ["b", "c", "d", "e", "f", "f"].enumerated() {
            _ = many.admit(LogEvent(.info, "x", text), at: Double(index + 1))
        }
        #expect(many.admit(LogEvent(.info, "x", "a"), at: 31)?.message.hasSuffix(", and 3 of 2 other texts)") == true)
    }

    @Test("journald reads the level from the line's prefix; a terminal gets the level in words")
    func standardErrorFormat() {
        let event = LogEvent(.warning, "input.lost", "input gps: gone", [("input", "gps"), ("errno", "104")])
        #expect(StandardErrorLog.format(event, journal: true) == "<4>input gps: gone errno=104\n")
        #expect(StandardErrorLog.format(event, journal: false) == "telltale: warning: input gps: gone errno=104\n")
        let info = LogEvent(.info, "route.loaded", "route: following Demo")
        #expect(StandardErrorLog.format(info, journal: true) == "<6>route: following Demo\n")
        // Each fact once: the URL the message already says is not said again after it.
        let serving = LogEvent(
            .notice, "output.serving", "output plotter: serving on tcp://0.0.0.0:10110",
            [("output", "plotter"), ("url", "tcp://0.0.0.0:10110"), ("clients", "8")])
        #expect(serving.line == "output plotter: serving on tcp://0.0.0.0:10110 clients=8")
    }

    @Test("a log line clears the terminal's status line first and draws it again after")
    func statusLineAndLog() {
        var written = ""
        let status = StatusLine { written += $0 }
        status.interrupt { written += "before any status\n" }
        #expect(written == "before any status\n")
        written = ""
        status.show("telltale 3s | in 10")
        status.interrupt { written += "input gps: gone\n" }
        #expect(
            written == "\rtelltale 3s | in 10\u{1B}[K" + "\r\u{1B}[K" + "input gps: gone\n"
                + "\rtelltale 3s | in 10\u{1B}[K")
        written = ""
        status.finish()
        status.interrupt { written += "stopped\n" }
        #expect(written == "\nstopped\n")
    }

    @Test("rate limits per address pattern are read from the output")
    func rateLimits() throws {
        let configuration = try ConfigurationFile.parse(
            "[[output]]\nurl = \"stdout:\"\nrate_limits = { \"*MWV\" = 1, \"GPGSV\" = 5.5 }\n")
        let limits = try #require(configuration.outputs.first?.rateLimits)
        #expect(limits.map(\.pattern) == ["*MWV", "GPGSV"] && limits.map(\.interval) == [1, 5.5])
    }
}
