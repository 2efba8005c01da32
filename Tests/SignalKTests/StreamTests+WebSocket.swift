import Engine
import NMEA
import TestSupport
import Testing

@testable import SignalK

/// The stream over a WebSocket: the upgrade, the hello, subscriptions in masked frames, pings, what falls due, a
/// turn's budget.
extension StreamTests {

    @Test("the stream: upgrade, hello, current values, a subscribe message in masked frames, pings answered")
    func stream() throws {
        var h = Harness()
        h.model.observe(try Sentence(parsing: checksummed("SDDPT,12.1,0.4")), input: "depth", at: 0, unixTime: 0)
        h.model.observe(try Sentence(parsing: checksummed("WIMWV,40.0,R,10.0,N,A")), input: "wind", at: 0, unixTime: 0)
        _ = h.model.takeUpdates()
        h.server.opened(1, peer: [10, 0, 0, 5], at: 0)
        let key = "dGhlIHNhbXBsZSBub25jZQ=="
        h.send(
            1,
            "GET /signalk/v1/stream?subscribe=none&sendMeta=all HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        #expect(h.text(1).hasPrefix("HTTP/1.1 101") && h.text(1).contains("s3pPLMBiTxaQ9kYGzzhZRbK+xOo="))
        #expect(h.text(1).contains(#""roles":["master","main"]"#))
        #expect(!h.text(1).contains("environment"), "subscribe=none: no values")
        let subscribe = Array(
            #"{"context":"vessels.self","subscribe":[{"path":"environment.depth.*","policy":"instant"}]}"#.utf8)
        let mask: [UInt8] = [1, 2, 3, 4]
        var frame: [UInt8] = [0x81, 0x80 | UInt8(subscribe.count)] + mask
        frame += subscribe.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        h.sent[1] = []
        h.send(1, frame + [0x89, 0x80] + mask)
        #expect(!h.text(1).contains("environment"), "what a subscription covers goes out at the next tick")
        #expect(h.sent[1]!.suffix(2) == [0x8A, 0x00], "the ping answered with a pong")
        var ticked: [UInt8] = []
        h.server.tick(model: h.model, at: 0.1) { if case .send(_, let bytes) = $0 { ticked += bytes } }
        h.sent[1, default: []] += ticked
        let after = h.text(1)
        #expect(after.contains("environment.depth.belowTransducer") && !after.contains("environment.wind"))
        #expect(after.contains(#""units":"m""#), "meta with the first value")
        // A burst past the bucket's depth: the first `messageBurst` messages taken, the rest skipped unread, the
        // client kept; a moment later it may send again.
        let refusedBefore = h.server.counters.refused
        let burst = Array(repeating: frame, count: 15).flatMap { $0 }
        h.send(1, burst, at: 1)
        #expect(!h.closed.contains(1))
        #expect(h.server.counters.refused - refusedBefore == 5, "10 taken, 5 skipped")
        h.send(1, frame, at: 1.5)
        #expect(h.server.counters.refused - refusedBefore == 5, "the bucket refilled")
        // A flood: past the per-second allowance, dropped with 1008.
        h.sent[1] = []
        let repeated = Array(repeating: frame, count: 500).flatMap { $0 }
        h.send(1, repeated, at: 1.51)
        #expect(h.closed.contains(1) && h.sent[1]!.suffix(4) == [0x88, 0x02, 0x03, 0xF0])
    }

    @Test("what falls due goes in path order, kept as paths come, go and come back")
    func dueOrder() throws {
        var stream = StreamSubscription(query: "none")
        _ = stream.apply(
            try #require(JSONValue.parse(#"{"subscribe":[{"path":"*","period":1000,"policy":"fixed"}]}"#)),
            selfContext: "")
        _ = stream.offer(
            [update("c.x", 1), update("a.x", 2), update("b.x", 3), update("a.x", 4, source: "s.GP")], at: 0)
        #expect(stream.due(at: 0).map(\.path) == ["a.x", "a.x", "b.x", "c.x"])
        _ = stream.offer(
            [update("c.x", 1), update("a.x", 2), update("b.x", 3), update("a.x", 4, source: "s.GP")], at: 0.1)
        // By path, then source: "a.x|s.GP" before "a.x|s.II".
        #expect(stream.due(at: 0.1).isEmpty, "fixed: not before its period")
        #expect(stream.due(at: 0.99).isEmpty)
        let withdrawn = SignalKModel.Update(path: "b.x", source: "s.II", timestamp: "t", value: .null)
        #expect(stream.offer([withdrawn], at: 0.5).count == 1)
        let second = stream.due(at: 1)
        #expect(second.map(\.path) == ["a.x", "a.x", "c.x"])
        #expect(second.map(\.value) == [.number(4), .number(2), .number(1)])
        _ = stream.offer([update("b.x", 5), update("0.x", 6)], at: 1.2)
        #expect(stream.due(at: 2).map(\.path) == ["0.x", "a.x", "a.x", "b.x", "c.x"])
    }

    @Test("a publish and a tick with a budget of one client are finished by resume, with the same bytes")
    func yieldingRounds() throws {
        func run(yielding: Bool) throws -> [Int: [UInt8]] {
            var h = Harness()
            for id in 1...4 {
                h.server.opened(id, peer: [10, 0, 0, 5], at: 0)
                h.send(
                    id,
                    "GET /signalk/v1/stream?subscribe=self HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
                )
            }
            var sent = h.sent
            let act = { (action: SignalKServer.Action) in
                if case .send(let id, let bytes) = action { sent[id, default: []] += bytes }
            }
            // How many clients a call sent to: those whose bytes grew.
            func served(since before: [Int: [UInt8]], _ after: [Int: [UInt8]]) -> Int {
                after.filter { $0.value.count != before[$0.key]?.count }.count
            }
            var mostInOneCall = 0
            var before = sent
            let budget = yielding ? 1 : Int.max
            // Both batches taken from the model first: a round finished later reads the model as it then is (the
            // current values to a new stream), so the model stays as it is while the rounds run.
            h.model.observe(try Sentence(parsing: checksummed("SDDPT,12.1,0.4")), input: "depth", at: 0, unixTime: 0)
            let depth = h.model.takeUpdates()
            h.model.observe(
                try Sentence(parsing: checksummed("WIMWV,40.0,R,10.0,N,A")), input: "wind", at: 0.2, unixTime: 0)
            let wind = h.model.takeUpdates()
            h.server.publish(depth, model: h.model, at: 0, budget: budget, act)
            mostInOneCall = max(mostInOneCall, served(since: before, sent))
            if yielding {
                #expect(h.server.hasUnfinishedRounds)
                #expect(
                    sent.values.filter { String(decoding: $0, as: UTF8.self).contains("belowTransducer") }.count == 1)
            }
            before = sent
            h.server.tick(model: h.model, at: 0.1, budget: budget, act)
            mostInOneCall = max(mostInOneCall, served(since: before, sent))
            before = sent
            h.server.publish(wind, model: h.model, at: 0.2, budget: budget, act)
            mostInOneCall = max(mostInOneCall, served(since: before, sent))
            var resumed = 0
            while h.server.hasUnfinishedRounds {
                before = sent
                h.server.resume(model: h.model, budget: budget, act)
                mostInOneCall = max(mostInOneCall, served(since: before, sent))
                resumed += 1
            }
            #expect(yielding ? resumed >= 8 : resumed == 0, "one client a call while yielding")
            #expect(!yielding || mostInOneCall <= 1, "a budget of one: one client a call at most")
            return sent
        }
        let whole = try run(yielding: false)
        let yielded = try run(yielding: true)
        let same = whole == yielded
        #expect(same, "the same bytes to each client")
        #expect(whole.count == 4)
        for bytes in whole.values {
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.contains("belowTransducer") && text.contains("angleApparent"))
        }
    }
}
