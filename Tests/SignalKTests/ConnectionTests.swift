import Testing

@testable import SignalK

/// Connections that clean themselves: admission when the slots are full, and the clocks (defect 1 of #27: 32 idle
/// sockets locked every app out).
@Suite struct ConnectionTests {
    typealias Harness = StreamTests.Harness
    static let phone: [UInt8] = [192, 168, 4, 20]
    static let upgrade =
        "GET /signalk/v1/stream?subscribe=none HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"

    @Test("a slow-loris request is answered 408 after the request timeout, however often it sends a byte")
    func slowLoris() {
        var h = Harness()
        h.server.opened(1, peer: Self.phone, at: 0)
        for second in 0..<9 {
            h.send(1, "G", at: Double(second))
            h.housekeep(at: Double(second) + 0.5)
        }
        #expect(!h.closed.contains(1), "within the timeout")
        h.send(1, "E", at: 9.9)
        h.housekeep(at: 10.1)
        #expect(h.closed.contains(1) && h.text(1).hasPrefix("HTTP/1.1 408"))
        #expect(h.server.counters.timedOut == 1)
    }

    @Test("an idle keep-alive, or a socket never used, is closed after the idle timeout; a working one is not")
    func idle() {
        var h = Harness()
        h.server.opened(1, peer: Self.phone, at: 0)
        h.server.opened(2, peer: Self.phone, at: 0)
        h.send(2, "GET /signalk HTTP/1.1\r\nHost: b\r\n\r\n", at: 1)
        h.housekeep(at: 14.5)
        #expect(h.closed.isEmpty)
        h.housekeep(at: 15.5)
        #expect(h.closed == [1], "the unused socket first")
        h.send(2, "GET /signalk HTTP/1.1\r\nHost: b\r\n\r\n", at: 15.6)
        h.housekeep(at: 29)
        #expect(h.closed == [1])
        h.housekeep(at: 31)
        #expect(h.closed == [1, 2])
    }

    @Test("a silent stream is pinged after 30 s, kept when it answers, dropped (1001) when it does not")
    func pings() {
        var h = Harness()
        h.server.opened(1, peer: Self.phone, at: 0)
        h.server.opened(2, peer: Self.phone, at: 0)
        h.send(1, Self.upgrade, at: 0)
        h.send(2, Self.upgrade, at: 0)
        let before = h.sent[1]?.count ?? 0
        h.housekeep(at: 29)
        #expect(h.sent[1]?.count == before, "no ping before the interval")
        h.housekeep(at: 30)
        let ping = Array(h.sent[1]?[before...] ?? [])
        #expect(ping.first == 0x89, "a ping frame")
        // Client 1 answers with a (masked) pong; client 2 says nothing.
        h.send(1, [0x8A, 0x80, 1, 2, 3, 4], at: 31)
        h.housekeep(at: 59)
        #expect(h.closed.isEmpty)
        h.housekeep(at: 60)
        #expect(h.closed == [2])
        #expect(Array(h.sent[2]?.suffix(4) ?? []) == [0x88, 2, 0x03, 0xE9], "close 1001")
        #expect(!h.closed.contains(1))
    }

    @Test("full: an idle HTTP connection makes room, streams and requests being answered never do")
    func admission() {
        var h = Harness {
            $0.maximumConnections = 4
            $0.maximumPerAddress = 3
            $0.maximumStreams = 3
        }
        #expect(h.server.admission(of: Self.phone) == .accept)
        h.server.opened(1, peer: Self.phone, at: 0)
        h.server.opened(2, peer: Self.phone, at: 1)
        h.server.opened(3, peer: Self.phone, at: 2)
        // The same address at its limit: its longest-idle connection goes, however the others stand.
        #expect(h.server.admission(of: Self.phone) == .evict(1))
        #expect(h.server.admission(of: [10, 0, 0, 9]) == .accept)
        h.send(1, Self.upgrade, at: 3)
        h.send(2, Self.upgrade, at: 3)
        h.send(3, Self.upgrade, at: 3)
        #expect(h.server.admission(of: Self.phone) == .refuse, "three streams: none of them is evicted")
        h.server.opened(4, peer: [10, 0, 0, 9], at: 4)
        #expect(h.server.admission(of: [10, 0, 0, 10]) == .evict(4), "full: the one idle connection makes room")
        h.server.evicted(4)
        #expect(h.server.counters.evicted == 1 && h.server.connectionCount == 3)
        // A stream past the streams' limit is answered 503 and closed.
        h.server.opened(5, peer: [10, 0, 0, 9], at: 5)
        h.send(5, Self.upgrade, at: 5)
        #expect(h.text(5).hasPrefix("HTTP/1.1 503") && h.closed.contains(5))
        // An HTTP request waiting for its command's answer is not idle either.
        h.server.closed(5)
        h.server.opened(6, peer: [127, 0, 0, 1], at: 6)
        var asked = 0
        h.server.received(
            6, Array(StreamTests.put("telltale/route/command", "advance").utf8), model: h.model, at: 6, unixTime: 0
        ) {
            if case .request(let request) = $0, case .command = request.kind { asked += 1 }
        }
        #expect(asked == 1, "the command is out with the shell, not answered yet")
        #expect(h.server.admission(of: [10, 0, 0, 10]) == .refuse, "full, and nothing idle")
    }

    @Test("one address may hold only its share of streams")
    func streamsPerAddress() {
        var h = Harness { $0.maximumStreamsPerAddress = 2 }
        for id in 1...3 {
            h.server.opened(id, peer: Self.phone, at: 0)
            h.send(id, Self.upgrade, at: 0)
        }
        #expect(h.text(1).hasPrefix("HTTP/1.1 101") && h.text(2).hasPrefix("HTTP/1.1 101"))
        #expect(h.text(3).hasPrefix("HTTP/1.1 503"))
        h.server.opened(4, peer: [192, 168, 4, 21], at: 0)
        h.send(4, Self.upgrade, at: 0)
        #expect(h.text(4).hasPrefix("HTTP/1.1 101"), "another device still gets its stream")
    }
}
