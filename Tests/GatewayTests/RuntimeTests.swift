import Engine
import NMEA
import Platform
import TestSupport
import Testing

@testable import Gateway

#if canImport(Glibc)
    import Glibc
#endif

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
        // A 16 KiB queue, and a kernel send buffer the same (the listener sets it): the stalled client takes some
        // 32 KB, about 900 sentences, whatever the load, and loses the rest. With 64 KiB it could take more than a loop
        // slowed by a busy machine sent in the 3 s, and lost nothing.
        output.clientBuffer = 16 * 1024
        let runtime = try Runtime(configuration: demo(speed: 100, outputs: [output])) { _ in }
        let port = try #require(runtime.tcpPorts["tcp"])
        // The reading client's kernel buffer holds more than the whole run sends (some 350 KB in 3 s), so what it
        // gets does not hang on its thread being scheduled: with every core busy (the whole suite in parallel, the
        // Pi's build beside it) its 2 ms reads fell behind and its own 64 KiB queue overflowed (952 of 6,684 lost
        // in CI on 2026-12-02), which said nothing about the stalled client. A small receive window for the stalled
        // client, so the server's queue for it fills quickly.
        let reader = LoopbackClient(port: port, receiveBuffer: 1 << 20)
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
        reader.drain()
        stalled.drain()
        // The stalled client, whose queue filled, lost sentences; the reading one got all but the handful sent before
        // it was accepted. Had the server waited on the stalled client, the reader would have got about what the
        // stalled one took (some 900 sentences); had it dropped for every client when one was full, the reader would
        // have lost as many as the stalled one. How many went out in all is the machine's speed (7,888 idle, 6,000
        // with three busy loops on two cores): more than 3,000 says the loop was not held up.
        let statistics = try #require(runtime.tcpStatistics["tcp"])
        let sent = runtime.router.counters.sentencesOut
        #expect(sent > 3000)
        #expect(stalled.sentences > 0)
        #expect(reader.sentences > 2 * stalled.sentences, "reader \(reader.sentences), stalled \(stalled.sentences)")
        let readerLost = max(sent - reader.sentences, 0)
        #expect(readerLost <= max(50, sent / 10), "reader \(reader.sentences) of \(sent)")
        #expect(
            statistics.droppedSentences > 3 * readerLost,
            "dropped \(statistics.droppedSentences) of \(sent), reader lost \(readerLost)")
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
        // The reader's kernel buffer holds the whole run (as in stalledClient), so its count is the server's doing.
        let reader = ClientBox(LoopbackClient(port: port, receiveBuffer: 1 << 20))
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
        // counted by the server itself. How much it threw away in 3 s is the machine's speed: 917,504 bytes once
        // with CI building beside the tests, several megabytes idle; four blocks read and dropped is the proof.
        #expect(statistics.bytesDiscarded >= 4 * 65_536, "discarded \(statistics.bytesDiscarded) bytes")
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
