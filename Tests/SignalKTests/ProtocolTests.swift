import Testing

@testable import SignalK

/// The protocol pieces, against published vectors and hand-made bytes.
@Suite struct ProtocolTests {
    func hex(_ bytes: [UInt8]) -> String {
        bytes.map { byte in
            let digits = Array("0123456789abcdef")
            return String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
        }.joined()
    }

    @Test("SHA-1 gives FIPS 180's example digests")
    func sha1() {
        #expect(hex(SHA1.digest(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(hex(SHA1.digest([])) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        let long = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        #expect(hex(SHA1.digest(long)) == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
    }

    @Test("Base64 gives RFC 4648's examples, padding included")
    func base64() {
        let cases = [
            "": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=",
            "foobar": "Zm9vYmFy",
        ]
        for (plain, encoded) in cases { #expect(Base64.encode(Array(plain.utf8)) == encoded) }
    }

    @Test("the WebSocket accept key is RFC 6455's worked example")
    func acceptKey() {
        #expect(WebSocket.acceptKey(for: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    /// A client frame: masked, as RFC 6455 requires of clients.
    func clientFrame(_ opcode: UInt8, _ payload: [UInt8], fin: Bool = true, mask: [UInt8] = [0x37, 0xFA, 0x21, 0x3D])
        -> [UInt8]
    {
        var frame: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else {
            frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        }
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        return frame
    }

    @Test("masked text frames decode however the bytes are split; RFC 6455's 'Hello' example")
    func frames() {
        // Section 5.7: a masked "Hello".
        var decoder = WebSocket.Decoder()
        #expect(
            decoder.feed([0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]) == [
                .text(Array("Hello".utf8))
            ])
        let bytes =
            clientFrame(1, Array("{\"subscribe\":[]}".utf8)) + clientFrame(9, [1, 2])
            + clientFrame(1, Array(repeating: 65, count: 300))
        var split = WebSocket.Decoder()
        var messages: [WebSocket.Message] = []
        for byte in bytes { messages += split.feed([byte]) }
        #expect(
            messages == [
                .text(Array("{\"subscribe\":[]}".utf8)), .ping([1, 2]), .text(Array(repeating: 65, count: 300)),
            ])
        #expect(split.buffered == 0)
    }

    @Test("a fragmented message is joined; a control frame may come between its fragments")
    func fragments() {
        var decoder = WebSocket.Decoder()
        let bytes =
            clientFrame(1, Array("Hel".utf8), fin: false) + clientFrame(9, []) + clientFrame(0, Array("lo".utf8))
        #expect(decoder.feed(bytes) == [.ping([]), .text(Array("Hello".utf8))])
    }

    @Test("protocol breaches and oversize messages close the connection with the right status")
    func violations() {
        var unmasked = WebSocket.Decoder()
        #expect(unmasked.feed([0x81, 0x02, 0x41, 0x42]) == [.violation(1002)])
        #expect(unmasked.feed(clientFrame(1, [65])) == [], "nothing is decoded after a violation")
        // A header that announces 100 MB: refused from the header alone.
        var huge = WebSocket.Decoder(maximumMessage: 65_536)
        var header: [UInt8] = [0x81, 0xFF]
        for shift in stride(from: 56, through: 0, by: -8) {
            header.append(UInt8(truncatingIfNeeded: 100_000_000 >> shift))
        }
        #expect(huge.feed(header) == [.violation(1009)])
        #expect(huge.buffered == 0)
        var fragmented = WebSocket.Decoder(maximumMessage: 10)
        #expect(
            fragmented.feed(clientFrame(1, Array(repeating: 1, count: 8), fin: false) + clientFrame(0, [1, 2, 3])) == [
                .violation(1009)
            ])
        var badControl = WebSocket.Decoder()
        #expect(badControl.feed(clientFrame(9, [], fin: false)) == [.violation(1002)])
        var reserved = WebSocket.Decoder()
        #expect(reserved.feed([0xC1, 0x80, 0, 0, 0, 0]) == [.violation(1002)])
        var close = WebSocket.Decoder()
        #expect(close.feed(clientFrame(8, [0x03, 0xE8])) == [.close])
    }

    @Test("server frames use the short, 16-bit and 64-bit lengths")
    func serverFrames() {
        #expect(WebSocket.frame(.text, [1, 2, 3]) == [0x81, 3, 1, 2, 3])
        let medium = WebSocket.frame(.text, Array(repeating: 0, count: 300))
        #expect(Array(medium[0..<4]) == [0x81, 126, 1, 44] && medium.count == 304)
        let large = WebSocket.frame(.binary, Array(repeating: 0, count: 70_000))
        #expect(Array(large[0..<10]) == [0x82, 127, 0, 0, 0, 0, 0, 1, 0x11, 0x70] && large.count == 70_010)
        #expect(WebSocket.closeFrame(1009) == [0x88, 2, 0x03, 0xF1])
    }

    @Test("HTTP requests: pipelined, percent-decoded, with query and body; limits answered with their status")
    func http() {
        var reader = HTTPRequestReader(maximumHead: 1024, maximumBody: 64)
        reader.feed(
            Array(
                "GET /signalk/v1/api/vessels/self%2Fx?subscribe=none&a=b+c HTTP/1.1\r\nHost: boat\r\n\r\nPUT /p HTTP/1.1\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhel"
                    .utf8))
        guard case .request(let first) = reader.next() else {
            Issue.record("no first request")
            return
        }
        #expect(first.method == "GET" && first.path == "/signalk/v1/api/vessels/self/x")
        #expect(
            first.parameter("subscribe") == "none" && first.parameter("a") == "b c" && first.header("host") == "boat")
        #expect(first.keepsAlive)
        guard case .incomplete = reader.next() else {
            Issue.record("a body not yet whole must wait")
            return
        }
        reader.feed(Array("lo".utf8))
        guard case .request(let second) = reader.next() else {
            Issue.record("no second request")
            return
        }
        #expect(second.method == "PUT" && second.body == Array("hello".utf8) && !second.keepsAlive)

        func status(_ text: String) -> Int? {
            var reader = HTTPRequestReader(maximumHead: 1024, maximumBody: 64)
            reader.feed(Array(text.utf8))
            if case .failure(let status) = reader.next() { return status }
            return nil
        }
        #expect(status("HELLO\r\n\r\n") == 400)
        #expect(status("GET /\r\n\r\n") == 400)
        #expect(status("GET relative HTTP/1.1\r\n\r\n") == 400)
        #expect(status("GET / HTTP/1.1\r\nno colon here\r\n\r\n") == 400)
        #expect(status("GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: 2000) + "\r\n\r\n") == 431)
        #expect(
            status("GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: 2000)) == 431, "refused before the head ends"
        )
        #expect(status("PUT / HTTP/1.1\r\nContent-Length: 65\r\n\r\n") == 413)
        #expect(status("PUT / HTTP/1.1\r\nContent-Length: -1\r\n\r\n") == 400)
        #expect(status("PUT / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n") == 411)
        #expect(status("GET /%zz HTTP/1.1\r\n\r\n") == 400)
    }

    @Test("JSON: values, escapes and numbers read; nesting, length and garbage refused")
    func json() {
        let value = JSONValue.parse(#"{"a":[1,-2.5,3e2,true,null],"b":"x\"\u00e9\n","c":{}}"#)
        #expect(value?["a"] == .array([.number(1), .number(-2.5), .number(300), .bool(true), .null]))
        #expect(value?["b"]?.string == "x\"é\n")
        #expect(value?["c"] == .object([]))
        #expect(JSONValue.parse(String(repeating: "[", count: 40) + String(repeating: "]", count: 40)) == nil)
        #expect(JSONValue.parse(String(repeating: "[", count: 10) + String(repeating: "]", count: 10)) != nil)
        for bad in ["", "{", "[1,]", "{\"a\"}", "tru", "01x", "\"\u{01}\"", "1 2", "{\"a\":1,}", "-", "1.", "1e"] {
            #expect(JSONValue.parse(bad) == nil, "\(bad)")
        }
        #expect(JSONValue.parse(Array(repeating: UInt8(ascii: " "), count: 70_000)) == nil)
    }

    @Test("networks: IPv4 and IPv6 prefixes, IPv4-mapped peers taken as IPv4")
    func networks() throws {
        let lan = try #require(NetworkRule.Network("192.168.1.0/24"))
        #expect(lan.contains([192, 168, 1, 77]) && !lan.contains([192, 168, 2, 1]))
        let v6 = try #require(NetworkRule.Network("fd00::/8"))
        #expect(
            v6.contains([0xFD] + Array(repeating: 0, count: 14) + [5])
                && !v6.contains([0xFE] + Array(repeating: 0, count: 15)))
        #expect(NetworkRule.Network("::1")?.prefix == 128)
        for bad in ["192.168.1.0/33", "300.1.1.1", "1.2.3", "::1::2", "fd00::/129", "x"] {
            #expect(NetworkRule.Network(bad) == nil, "\(bad)")
        }
        let rule = NetworkRule(networks: NetworkRule.loopback + [lan])
        #expect(rule.admits([127, 0, 0, 1]) && rule.admits(Array(repeating: 0, count: 15) + [1]))
        #expect(rule.admits(Array(repeating: 0, count: 10) + [0xFF, 0xFF, 192, 168, 1, 9]))
        #expect(!rule.admits([10, 0, 0, 1]) && !rule.admits([]))
    }
}
