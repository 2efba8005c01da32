import CPosix
import Marine
import Platform
import Testing

@testable import Gateway

/// The one network client (#49), as a pure life (``TCPLink``: time an argument) and on real loopback sockets: a server
/// not there yet, one that comes, one that closes, one that never answers (its accept queue full), lines cut across
/// reads and too long. Every TCP client of the gateway (a network input, a Yacht Devices gateway, pypilot) is one.
@Suite struct TCPClientTests {
    @Test("the link: failures push the next attempt out, the first of a run said; a loss then connected is 'again'")
    func link() {
        var link = TCPLink(backoff: Backoff(first: 1, limit: 4), connectLimit: 10)
        #expect(link.isDue(0))
        link.connecting(at: 0)
        #expect(!link.isDue(0) && !link.hasTimedOut(at: 10) && link.hasTimedOut(at: 10.5))
        let first = link.failed(at: 10.5)
        #expect(first, "the first failure of a run is said")
        #expect(!link.isDue(11) && link.isDue(11.5))
        let second = link.failed(at: 11.5)
        #expect(!second, "the next is not")
        #expect(link.retryAt == 13.5)
        _ = link.failed(at: 13.5)
        _ = link.failed(at: 17.5)
        #expect(link.retryAt == 21.5, "doubling up to its limit")
        let again = link.connected(at: 21.5)
        #expect(again && link.connects == 1, "connected after failures: again")
        link.lost(at: 30)
        #expect(link.losses == 1 && link.retryAt == 31, "a loss: the next attempt after the first delay")
        let afterLoss = link.connected(at: 31)
        #expect(afterLoss, "connected after a loss: again")
        var fresh = TCPLink(backoff: Backoff(first: 1, limit: 4))
        fresh.connecting(at: 0)
        fresh.lost(at: 1)
        #expect(fresh.losses == 0 && fresh.retryAt == 2, "closed before it was open: a failed attempt, not a loss")
    }

    /// A listener on loopback (port chosen by the kernel), with the given backlog.
    final class Server {
        let fd: Int32
        let port: Int
        var accepted: [Int32] = []

        init(backlog: Int32 = 16, port: Int = 0) throws {
            let address = try #require(POSIX.SocketAddress(host: "127.0.0.1", port: port))
            fd = try POSIX.socket(.stream, for: address, naming: "test")
            try POSIX.bind(fd, to: address, listen: false, naming: "test")
            #expect(CPosix.listen(fd, backlog) == 0)
            self.port = POSIX.localPort(fd)
        }

        func accept() {
            while let client = POSIX.accept(fd) { accepted.append(client) }
        }

        func write(_ text: String, to index: Int = 0) {
            _ = Array(text.utf8).withUnsafeBytes { POSIX.send(accepted[index], $0) }
        }

        func close() {
            for client in accepted { POSIX.close(client) }
            accepted.removeAll()
            POSIX.close(fd)
        }
    }

    /// Turns of a loop: prepare, a short poll, service; the events collected. `now` is the test's own clock.
    struct Driver {
        let client: TCPClient
        var events: [String] = []
        var lines: [String] = []

        mutating func turn(at now: Double, server: Server? = nil) {
            var set = PollSet(capacity: 4)
            client.prepare(now: now, into: &set)
            set.wait(seconds: 0.02)
            server?.accept()
            var said: [String] = []
            var got: [String] = []
            client.service(now: now) { event in
                switch event {
                case .connected(let again): said.append(again ? "connected again" : "connected")
                case .failed(_, let code, let first):
                    said.append("failed \(code == ECONNREFUSED ? "refused" : "\(code)") \(first)")
                case .lost(let why): said.append("lost " + why)
                case .line(let line): got.append(String(decoding: line, as: UTF8.self))
                case .bytes, .datagramEnd: break
                }
            }
            events += said
            lines += got
        }
    }

    @Test("a server not there yet: refused, retried on the backoff and said once; then it comes and it connects")
    func refusedThenThere() throws {
        // A port that was free a moment ago, nothing listening on it.
        let probe = try Server()
        let port = probe.port
        probe.close()
        var d = Driver(client: TCPClient(host: "127.0.0.1", port: port, backoff: Backoff(first: 1, limit: 8)))
        for t in [0.0, 0.5, 1.0, 2.0, 3.0, 5.0] { d.turn(at: t) }
        #expect(d.events == ["failed refused true", "failed refused false", "failed refused false"])
        let server = try Server(port: port)
        defer { server.close() }
        for t in [7.0, 7.1, 7.2] { d.turn(at: t, server: server) }
        #expect(d.events.last == "connected again" && d.client.isOpen)
    }

    @Test("lines across reads, CR kept, a long one cut at the limit; the server closing is a loss, then again")
    func linesAndLoss() throws {
        let server = try Server()
        defer { server.close() }
        var d = Driver(
            client: TCPClient(host: "127.0.0.1", port: server.port, backoff: Backoff(first: 1, limit: 8), lineLimit: 8))
        for t in [0.0, 0.1, 0.2] { d.turn(at: t, server: server) }
        #expect(d.events == ["connected"])
        server.write("ab")
        d.turn(at: 0.3, server: server)
        server.write("c\r\nline two\n0123456789ABC\n")
        for t in [0.4, 0.5] { d.turn(at: t, server: server) }
        #expect(d.lines == ["abc\r", "line two", "01234567"])
        POSIX.close(server.accepted.removeFirst())
        for t in [0.6, 0.7] { d.turn(at: t, server: server) }
        #expect(d.events == ["connected", "lost connection closed"] && !d.client.isOpen)
        for t in [1.7, 1.8, 1.9] { d.turn(at: t, server: server) }
        #expect(d.events.last == "connected again")
    }

    @Test("a server that never answers (its accept queue full, the SYN dropped) is given up past the limit")
    func hangingConnect() throws {
        // Backlog 0: one connection waits unaccepted, the next one's SYN is dropped by the kernel.
        let server = try Server(backlog: 0)
        defer { server.close() }
        let first = TCPClient(host: "127.0.0.1", port: server.port, backoff: Backoff())
        var set = PollSet(capacity: 1)
        first.prepare(now: 0, into: &set)
        set.wait(seconds: 0.05)
        first.service(now: 0) { _ in }
        var d = Driver(
            client: TCPClient(
                host: "127.0.0.1", port: server.port, backoff: Backoff(first: 5, limit: 5), connectLimit: 2))
        d.turn(at: 0)
        d.turn(at: 1)
        #expect(d.events.isEmpty, "still connecting")
        d.turn(at: 2.5)
        #expect(d.events == ["failed \(ETIMEDOUT) true"] && !d.client.isOpen)
        #expect(d.client.nextDue(now: 2.5) == 7.5)
        first.close()
    }

    @Test("bytes for the peer are queued up to the limit, written as the socket takes them; none while closed")
    func sending() throws {
        let server = try Server()
        defer { server.close() }
        let client = TCPClient(host: "127.0.0.1", port: server.port, backoff: Backoff(), outgoingLimit: 8)
        #expect(!client.send(Array("early".utf8), now: 0), "not connected: refused, not kept")
        var d = Driver(client: client)
        for t in [0.0, 0.1, 0.2] { d.turn(at: t, server: server) }
        #expect(client.send(Array("hello\n".utf8), now: 0.3))
        #expect(!client.send(Array("more".utf8), now: 0.3), "over the limit")
        client.flush(0.3) { _ in }
        var buffer = [UInt8](repeating: 0, count: 64)
        var waited = PollSet(capacity: 1)
        waited.add(server.accepted[0], read: true, write: false)
        waited.wait(seconds: 1)
        let got = buffer.withUnsafeMutableBytes { POSIX.receive(server.accepted[0], into: $0) }
        guard case .bytes(let count) = got else {
            Issue.record("nothing came")
            return
        }
        #expect(String(decoding: buffer[0..<count], as: UTF8.self) == "hello\n")
    }
}
