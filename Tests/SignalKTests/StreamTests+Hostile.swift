import Engine
import NMEA
import TestSupport
import Testing

@testable import SignalK

/// The server against what a hostile or broken client sends.
extension StreamTests {

    @Test("random and damaged bytes into HTTP, WebSocket frames and JSON never crash the server, which answers after")
    func damagedBytes() throws {
        var state: UInt64 = 0x5EED_1234
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33) % bound
        }
        let upgrade = Array(
            "GET /signalk/v1/stream?subscribe=self HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
                .utf8)
        let requests = [
            "GET /signalk/v1/api/vessels/self/navigation HTTP/1.1\r\nHost: x\r\n\r\n",
            "PUT /signalk/v1/api/vessels/self/navigation/racing/timer HTTP/1.1\r\nContent-Length: 17\r\n\r\n{\"value\":\"start\"}",
            "GET /%zz/..%2f HTTP/1.1\r\nContent-Length: -5\r\n\r\n",
        ].map { Array($0.utf8) }
        let messages = [
            #"{"context":"vessels.self","subscribe":[{"path":"navigation.*","period":100,"policy":"fixed"}]}"#,
            #"{"unsubscribe":[{"path":"*"}]}"#, #"{"subscribe":[{"path":"a","minPeriod":-1e308,"period":1e308}]}"#,
        ].map { Array($0.utf8) }
        func frame(_ payload: [UInt8]) -> [UInt8] {
            let mask: [UInt8] = [9, 8, 7, 6]
            var bytes: [UInt8] = [0x81]
            if payload.count < 126 {
                bytes.append(0x80 | UInt8(payload.count))
            } else {
                bytes += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
            }
            return bytes + mask + payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        }
        func damaged(_ bytes: [UInt8]) -> [UInt8] {
            var bytes = bytes
            for _ in 0..<next(4) where !bytes.isEmpty {
                switch next(3) {
                case 0: bytes[next(bytes.count)] = UInt8(truncatingIfNeeded: next(256))
                case 1: bytes.remove(at: next(bytes.count))
                default: bytes.insert(UInt8(truncatingIfNeeded: next(256)), at: next(bytes.count))
                }
            }
            return bytes
        }
        var h = Harness()
        h.model.observe(try Sentence(parsing: checksummed("SDDPT,12.1,0.4")), input: "depth", at: 0, unixTime: 0)
        for id in 1...2000 {
            h.server.opened(id, peer: [127, 0, 0, 1], at: Double(id) * 0.01)
            let now = Double(id) * 0.01
            switch next(4) {
            case 0: h.send(id, (0..<next(2000)).map { _ in UInt8(truncatingIfNeeded: next(256)) }, at: now)
            case 1: h.send(id, damaged(requests[next(requests.count)]), at: now)
            case 2:
                h.send(id, upgrade, at: now)
                for _ in 0..<next(6) {
                    let payload = damaged(messages[next(messages.count)])
                    h.send(id, next(3) == 0 ? damaged(frame(payload)) : frame(payload), at: now)
                }
            default:
                h.send(id, damaged(upgrade), at: now)
                h.send(id, damaged(frame(damaged(messages[next(messages.count)]))), at: now)
            }
            if id % 10 == 0 {
                h.server.publish(h.model.takeUpdates(), model: h.model, at: now) { _ in }
                h.server.tick(model: h.model, at: now) { _ in }
            }
            if next(2) == 0 { h.server.closed(id) }
        }
        #expect(h.server.counters.requests > 50)
        #expect(h.closed.count > 10, "damaged requests and frames close their connections")
        // And then a good request is answered as ever.
        h.server.opened(5000, peer: [127, 0, 0, 1], at: 30)
        h.send(5000, "GET /signalk/v1/api/vessels/self/environment/depth HTTP/1.1\r\nHost: x\r\n\r\n", at: 30)
        #expect(h.text(5000).hasPrefix("HTTP/1.1 200") && h.text(5000).contains("belowTransducer"))
    }
}

extension StreamTests {
    @Test(
        "a GRIB upload's offset and total past any file (Int.max) are refused, not added: one PUT stopped the gateway")
    func uploadOffsets() {
        var h = Harness()
        let asks = [
            ("9223372036854775807", "100"), ("9223372036854775807", "9223372036854775807"), ("2147483647", "100"),
            ("101", "100"), ("-1", "100"), ("0", "0"), ("0", "2"),
        ]
        for (index, (offset, total)) in asks.enumerated() {
            let id = index + 1
            h.server.opened(id, peer: [127, 0, 0, 1], at: 0)
            h.send(
                id,
                "PUT /telltale/v1/weather/grib?name=a.grb&offset=\(offset)&total=\(total) HTTP/1.1\r\nHost: x\r\n"
                    + "Content-Length: 3\r\n\r\nabc")
            #expect(h.text(id).hasPrefix("HTTP/1.1 400"), "offset \(offset) of \(total): \(h.text(id).prefix(40))")
        }
        #expect(h.uploads.isEmpty)
        // A piece that fits is handed over as ever.
        h.server.opened(99, peer: [127, 0, 0, 1], at: 0)
        h.send(
            99, "PUT /telltale/v1/weather/grib?name=a.grb&offset=97&total=100 HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc")
        #expect(h.uploads.map(\.offset) == [97] && h.text(99).hasPrefix("HTTP/1.1 201"))
    }
}
