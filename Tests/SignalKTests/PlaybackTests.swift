import TestSupport
import Testing

@testable import SignalK

/// Playback of the history (#40): `/signalk/v1/playback` as signalk-server serves it, driven with bytes and times as
/// the shell drives it, the history's minutes answered as the store answers them.
@Suite struct PlaybackTests {
    typealias Harness = StreamTests.Harness

    /// The text messages in a server's unmasked frames (a close frame ends the list).
    static func messages(_ bytes: [UInt8]) -> (texts: [String], closed: Bool) {
        var texts: [String] = []
        var at = 0
        // Past the HTTP head.
        let end: [UInt8] = [13, 10, 13, 10]
        if let head = (0..<max(0, bytes.count - 3)).first(where: { Array(bytes[$0..<($0 + 4)]) == end }) {
            at = head + 4
        }
        while at + 2 <= bytes.count {
            let opcode = bytes[at] & 0x0F
            var length = Int(bytes[at + 1] & 0x7F)
            var start = at + 2
            if length == 126 {
                length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
                start = at + 4
            } else if length == 127 {
                length = (0..<8).reduce(0) { $0 << 8 | Int(bytes[at + 2 + $1]) }
                start = at + 10
            }
            guard start + length <= bytes.count else { break }
            if opcode == 8 { return (texts, true) }
            if opcode == 1 { texts.append(String(decoding: bytes[start..<(start + length)], as: UTF8.self)) }
            at = start + length
        }
        return (texts, false)
    }

    /// A minute of history: the position moving north a step a second, boat speed = the second, heel; an AIS
    /// vessel's minute beside it with two samples.
    static func minutes(_ first: Int64, count: Int) -> [HistoryBlock.Minute] {
        var out: [HistoryBlock.Minute] = []
        for number in first..<(first + Int64(count)) {
            var own = HistoryBlock.Minute(minute: number)
            var other = HistoryBlock.Minute(minute: number, context: "vessels.urn:mrn:imo:mmsi:235000001")
            for second in 0..<60 {
                let t = Double((number - first) * 60) + Double(second)
                own.record(0, second: second, 50.7 + t * 1e-5)
                own.record(1, second: second, -1.3)
                own.record(5, second: second, Double(second) / 10)
                own.record(12, second: second, 0.1)
            }
            for second in [10, 40] {
                other.record(0, second: second, 50.8)
                other.record(1, second: second, -1.2)
                other.record(3, second: second, 4.5)
            }
            out += [own, other]
        }
        return out
    }

    static func upgrade(_ query: String) -> String {
        "GET /signalk/v1/playback?\(query) HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    }

    mutating func tick(_ h: inout Harness, at now: Double) {
        h.drive(at: now) { server, model, act in server.tick(model: model, at: now, act) }
    }

    @Test("a hello with startTime and playbackRate, then the deltas from the start on, each stamped, at the rate")
    mutating func paced() throws {
        var h = Harness()
        let first: Int64 = 29_200_000
        h.kept = Self.minutes(first, count: 5)
        h.server.opened(1, peer: [10, 0, 0, 5], at: 0)
        let start = SignalKTime.text(unixTime: Double(first) * 60 + 30)
        h.send(1, Self.upgrade("startTime=\(start)&playbackRate=10"))
        #expect(h.text(1).hasPrefix("HTTP/1.1 101"))
        var (texts, closed) = Self.messages(h.sent[1] ?? [])
        let hello = try #require(texts.first.flatMap { JSONValue.parse(Array($0.utf8)) })
        #expect(hello["startTime"]?.string == start && hello["playbackRate"]?.number == 10)
        #expect(hello["self"]?.string == h.model.context)
        #expect(texts.count == 1 && !closed, "nothing before the first tick")
        // The first tick begins the clock and asks for the first chunk; a second later (10 s of history at 10×)
        // eleven seconds have come due: 30 to 40 of the first minute.
        tick(&h, at: 100)
        tick(&h, at: 101)
        (texts, closed) = Self.messages(h.sent[1] ?? [])
        let deltas = texts.dropFirst().compactMap { JSONValue.parse(Array($0.utf8)) }
        let stamps = deltas.compactMap { $0["updates"]?.array?.first?["timestamp"]?.string }
        #expect(stamps.count == 11, "\(stamps)")
        #expect(stamps.first == start)
        #expect(stamps == stamps.sorted(), "in order")
        #expect(deltas.allSatisfy { $0["context"]?.string == h.model.context }, "subscribe=self: the boat alone")
        let speed = deltas[1]["updates"]?.array?.first?["values"]?.array?.first {
            $0["path"]?.string == "navigation.speedThroughWater"
        }
        #expect(abs((speed?["value"]?.number ?? 0) - 3.1) < 0.006, "second 31's boat speed")
        #expect(texts[1].contains(#""navigation.attitude","value":{"roll":0.1"#))
        #expect(texts[1].contains(#""$source":"telltale.history""#))
        // Past the end of what is kept: the rest goes out, then a close 1000.
        for step in 1...40 { tick(&h, at: 101 + Double(step)) }
        (texts, closed) = Self.messages(h.sent[1] ?? [])
        #expect(closed && h.closed.contains(1))
        #expect(texts.count - 1 == 5 * 60 - 30, "every second from the start to the end, once")
        #expect(h.playbackAsks.count >= 2 && h.playbackAsks.count <= 8, "a chunk at a time: \(h.playbackAsks.count)")
    }

    @Test("subscribe=all adds the AIS vessels' tracks, in time order with the boat's")
    mutating func vessels() throws {
        var h = Harness()
        let first: Int64 = 29_200_000
        h.kept = Self.minutes(first, count: 2)
        h.server.opened(1, peer: [10, 0, 0, 5], at: 0)
        h.send(
            1,
            Self.upgrade("startTime=\(SignalKTime.text(unixTime: Double(first) * 60))&playbackRate=100&subscribe=all"))
        for step in 0...10 { tick(&h, at: Double(step)) }
        let texts = Self.messages(h.sent[1] ?? []).texts.dropFirst()
        let others = texts.filter { $0.contains("vessels.urn:mrn:imo:mmsi:235000001") }
        #expect(others.count == 4)
        #expect(others.allSatisfy { $0.contains(#""navigation.speedOverGround","value":4.5"#) })
        let stamps = texts.compactMap {
            JSONValue.parse(Array($0.utf8))?["updates"]?.array?.first?["timestamp"]?.string
        }
        #expect(stamps == stamps.sorted())
        #expect(texts.count == 120 + 4)
    }

    @Test("refused: no startTime, a bad rate; nothing kept from then on says No data found and closes")
    mutating func refusals() {
        var h = Harness()
        h.server.opened(1, peer: [10, 0, 0, 5], at: 0)
        h.send(1, Self.upgrade("playbackRate=2"))
        #expect(h.text(1).hasPrefix("HTTP/1.1 400") && h.closed.contains(1))
        h.server.opened(2, peer: [10, 0, 0, 5], at: 0)
        h.send(2, Self.upgrade("startTime=2026-06-21T10:00:00Z&playbackRate=-3"))
        #expect(h.text(2).hasPrefix("HTTP/1.1 400"))
        h.server.opened(3, peer: [10, 0, 0, 5], at: 0)
        h.send(3, Self.upgrade("startTime=2026-06-21T10:00:00Z&playbackRate=1e308"))
        #expect(h.text(3).hasPrefix("HTTP/1.1 400"))
        h.server.opened(4, peer: [10, 0, 0, 5], at: 0)
        h.send(4, Self.upgrade("startTime=2026-06-21T10:00:00Z"))
        tick(&h, at: 1)
        tick(&h, at: 2)
        let (texts, closed) = Self.messages(h.sent[4] ?? [])
        #expect(texts.last == "\"No data found\"" && closed)
        // A fifth playback past the bound is refused.
        for id in 10..<15 {
            h.server.opened(id, peer: [10, 0, 0, UInt8(id)], at: 0)
            h.kept = Self.minutes(29_200_000, count: 1)
            h.send(id, Self.upgrade("startTime=\(SignalKTime.text(unixTime: 29_200_000 * 60))"))
        }
        #expect(h.text(14).hasPrefix("HTTP/1.1 503"))
    }
}

extension PlaybackTests {
    @Test(
        "a playback client sending anything (text, binary, a flood) is counted and dropped or ignored, never served live"
    )
    mutating func hostileClient() {
        var h = Harness()
        h.kept = Self.minutes(29_200_000, count: 2)
        h.server.opened(1, peer: [10, 0, 0, 5], at: 0)
        h.send(1, Self.upgrade("startTime=\(SignalKTime.text(unixTime: 29_200_000 * 60))&playbackRate=5"))
        let mask: [UInt8] = [9, 8, 7, 6]
        let subscribe = Array(#"{"subscribe":[{"path":"*"}]}"#.utf8)
        var frame: [UInt8] = [0x81, 0x80 | UInt8(subscribe.count)] + mask
        frame += subscribe.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        let refused = h.server.counters.refused
        h.send(1, frame, at: 0.1)
        #expect(h.server.counters.refused > refused, "a subscribe to a playback is refused")
        // Live values are not the playback's: a publish reaches no playback client.
        h.sent[1] = []
        h.drive(at: 0.2) { server, model, act in
            server.publish(
                [
                    SignalKModel.Update(
                        path: "navigation.speedOverGround", source: "gps", timestamp: "t", value: .number(9))
                ],
                model: model, at: 0.2, act)
        }
        #expect(h.sent[1, default: []].isEmpty)
        // A binary frame ends it (1003), as on the live stream.
        h.send(1, [0x82, 0x80] + mask, at: 0.3)
        #expect(h.closed.contains(1))
    }
}
