import Testing

@testable import SignalK

/// Device access (#27): a request, its approval, the token, and what a device without one may not do; as
/// signalk-server's `src/tokensecurity.ts` and `src/interfaces/ws.ts` answer them.
@Suite struct AccessTests {
    typealias Harness = StreamTests.Harness
    static let phone: [UInt8] = [192, 168, 4, 20]
    static let loopback: [UInt8] = [127, 0, 0, 1]

    static func request(_ method: String, _ path: String, _ body: String = "", headers: String = "") -> String {
        "\(method) \(path) HTTP/1.1\r\n\(headers)Content-Length: \(body.utf8.count)\r\n\r\n" + body
    }

    static func body(_ text: String) -> JSONValue? {
        guard let start = text.firstRange(of: "\r\n\r\n") else { return nil }
        return JSONValue.parse(Array(text[start.upperBound...].utf8))
    }

    @Test("the registry: one request a client while it waits, a token on approval, denial, revocation, kept and read")
    func registry() throws {
        var access = AccessRegistry(secret: Array("a secret of sixteen+".utf8))
        let first = access.request(
            clientId: "kip-1", description: "KIP on Anna's phone", permission: .readwrite, address: "192.168.4.20",
            at: 100)
        let again = access.request(
            clientId: "kip-1", description: "KIP on Anna's phone", permission: .readwrite, address: "192.168.4.20",
            at: 101)
        #expect(first.requestId == again.requestId && access.requests.count == 1)
        #expect(first.requestId.count == 36 && first.requestId.split(separator: "-").count == 5)
        let approved = access.approve(first.requestId, at: 102)
        let device = try #require(approved)
        #expect(device.token.count == 80 && access.device(token: device.token)?.clientId == "kip-1")
        #expect(access.approve(first.requestId, at: 103) == nil, "answered already")
        let other = access.request(
            clientId: "script", description: "a script", permission: .readonly, address: "10.0.0.2", at: 104)
        #expect(access.deny(other.requestId) && access.request(other.requestId)?.state == .denied)
        // Kept and read back: the devices and their tokens survive; a new secret makes new tokens from now.
        let kept = AccessRegistry(json: Array(access.json(tokens: true).utf8), secret: Array("another secret!!".utf8))
        #expect(kept.device(token: device.token)?.description == "KIP on Anna's phone")
        #expect(kept.requests.count == 2)
        #expect(!access.json(tokens: false).contains(device.token))
        #expect(access.revoke("kip-1") && access.device(token: device.token) == nil)
        #expect(AccessRegistry(json: Array("not json".utf8), secret: []).devices.isEmpty)
        // Bounded: a flood of requests keeps the newest.
        for index in 0..<100 {
            _ = access.request(
                clientId: "flood-\(index)", description: "", permission: .readwrite, address: "", at: 200)
        }
        #expect(access.requests.count == AccessRegistry.maximumRequests)
    }

    @Test("HTTP: refused 401 without a token, asked, approved from the Pi, then the token changes things")
    func http() throws {
        var h = Harness { $0.access = AccessRegistry(secret: Array("sixteen bytes or more".utf8)) }
        h.server.opened(1, peer: Self.phone, at: 0)
        let put = StreamTests.put("telltale/route/command", "advance")
        h.send(1, put)
        #expect(h.text(1).hasPrefix("HTTP/1.1 401") && h.commands.isEmpty)
        // What the panel asks first: may this device change things?
        h.sent[1] = []
        h.send(1, Self.request("GET", "/telltale/v1/access/self"))
        #expect(h.text(1).contains(#"{"changes":false,"admin":false,"by":"none","tokenRefused":false"#))
        h.sent[1] = []
        h.send(
            1,
            Self.request(
                "POST", "/signalk/v1/access/requests",
                #"{"clientId":"kip-1","description":"KIP","permissions":"readwrite"}"#))
        #expect(h.text(1).hasPrefix("HTTP/1.1 202"))
        let pending = try #require(Self.body(h.text(1)))
        #expect(pending["state"]?.string == "PENDING")
        let requestId = try #require(pending["requestId"]?.string)
        #expect(pending["href"]?.string == "/signalk/v1/requests/" + requestId)
        // The phone may not approve itself.
        h.sent[1] = []
        h.send(1, Self.request("PUT", "/telltale/v1/access/requests/" + requestId, #"{"value":"approve"}"#))
        #expect(h.text(1).hasPrefix("HTTP/1.1 401"))
        // The Pi's own shell (loopback) approves.
        h.server.opened(2, peer: Self.loopback, at: 0)
        h.send(2, Self.request("GET", "/telltale/v1/access"))
        #expect(h.text(2).contains("\"kip-1\"") && h.text(2).contains("\"pending\""))
        h.send(2, Self.request("PUT", "/telltale/v1/access/requests/" + requestId, #"{"value":"approve"}"#))
        #expect(h.text(2).contains("KIP approved"))
        h.sent[1] = []
        h.send(1, Self.request("GET", "/signalk/v1/requests/" + requestId))
        let approved = try #require(Self.body(h.text(1)))
        #expect(approved["state"]?.string == "COMPLETED")
        #expect(approved["accessRequest"]?["permission"]?.string == "APPROVED")
        let token = try #require(approved["accessRequest"]?["token"]?.string)
        h.sent[1] = []
        let body = #"{"value":"advance"}"#
        h.send(
            1,
            Self.request(
                "PUT", "/signalk/v1/api/vessels/self/telltale/route/command", body,
                headers: "Authorization: Bearer \(token)\r\n"))
        #expect(h.text(1).hasPrefix("HTTP/1.1 200") && h.commands == [.route(.advance)])
        h.sent[1] = []
        h.send(1, Self.request("GET", "/telltale/v1/access/self", headers: "Authorization: Bearer \(token)\r\n"))
        #expect(
            h.text(1).contains(
                #"{"changes":true,"admin":false,"by":"device","device":{"clientId":"kip-1","description":"KIP","permissions":"readwrite"},"tokenRefused":false"#
            ))
        // A readwrite device may not read the settings (admin only); a wrong token is 401.
        h.sent[1] = []
        h.send(1, Self.request("GET", "/telltale/v1/settings", headers: "Authorization: Bearer \(token)\r\n"))
        #expect(h.text(1).hasPrefix("HTTP/1.1 403"))
        h.sent[1] = []
        h.send(
            1,
            Self.request(
                "PUT", "/signalk/v1/api/vessels/self/telltale/route/command", body,
                headers: "Authorization: Bearer 0123456789abcdef0123456789abcdef\r\n"))
        #expect(h.text(1).hasPrefix("HTTP/1.1 401") && h.commands.count == 1)
        // Revoked from the Pi: refused again.
        h.send(2, Self.request("DELETE", "/telltale/v1/access/devices/kip-1"))
        h.sent[1] = []
        h.send(
            1,
            Self.request(
                "PUT", "/signalk/v1/api/vessels/self/telltale/route/command", body,
                headers: "Authorization: Bearer \(token)\r\n"))
        #expect(h.text(1).hasPrefix("HTTP/1.1 401") && h.commands.count == 1)
        h.sent[1] = []
        h.send(1, Self.request("GET", "/telltale/v1/access/self", headers: "Authorization: Bearer \(token)\r\n"))
        #expect(h.text(1).contains(#""by":"none","tokenRefused":true"#))
    }

    @Test("a device approved as admin approves another from its panel; a readwrite device may not")
    func approvedFromAPanel() throws {
        var h = Harness { $0.access = AccessRegistry(secret: Array("sixteen bytes or more".utf8)) }
        h.server.opened(1, peer: Self.phone, at: 0)
        h.server.opened(2, peer: Self.loopback, at: 0)
        func ask(_ client: String, _ permissions: String) throws -> String {
            h.sent[1] = []
            h.send(
                1,
                Self.request(
                    "POST", "/signalk/v1/access/requests",
                    #"{"clientId":"\#(client)","description":"\#(client)","permissions":"\#(permissions)"}"#))
            return try #require(Self.body(h.text(1))?["requestId"]?.string)
        }
        func token(_ requestId: String) throws -> String {
            h.sent[1] = []
            h.send(1, Self.request("GET", "/signalk/v1/requests/" + requestId))
            return try #require(Self.body(h.text(1))?["accessRequest"]?["token"]?.string)
        }
        // The skipper's phone, approved as admin on the Pi.
        let skipper = try ask("skipper", "admin")
        h.send(2, Self.request("PUT", "/telltale/v1/access/requests/" + skipper, #"{"value":"approve"}"#))
        let admin = try token(skipper)
        // The crew's tablet asks; the skipper's panel lists it and approves it.
        let crew = try ask("crew", "readwrite")
        h.sent[1] = []
        h.send(1, Self.request("GET", "/telltale/v1/access", headers: "Authorization: Bearer \(admin)\r\n"))
        #expect(h.text(1).hasPrefix("HTTP/1.1 200") && h.text(1).contains(#""clientId":"crew""#))
        #expect(!h.text(1).contains(admin), "the list never carries a token")
        h.sent[1] = []
        h.send(
            1,
            Self.request(
                "PUT", "/telltale/v1/access/requests/" + crew, #"{"value":"approve"}"#,
                headers: "Authorization: Bearer \(admin)\r\n"))
        #expect(h.text(1).hasPrefix("HTTP/1.1 200"))
        let readwrite = try token(crew)
        // The crew's tablet may change things, but not approve a third device or read the settings.
        let third = try ask("third", "admin")
        h.sent[1] = []
        h.send(
            1,
            Self.request(
                "PUT", "/telltale/v1/access/requests/" + third, #"{"value":"approve"}"#,
                headers: "Authorization: Bearer \(readwrite)\r\n"))
        #expect(h.text(1).hasPrefix("HTTP/1.1 403"))
        h.sent[1] = []
        h.send(1, Self.request("GET", "/telltale/v1/access/self", headers: "Authorization: Bearer \(admin)\r\n"))
        #expect(h.text(1).contains(#"{"changes":true,"admin":true,"by":"device""#))
        h.sent[2] = []
        h.send(2, Self.request("GET", "/telltale/v1/access/self"))
        #expect(h.text(2).contains(#"{"changes":true,"admin":true,"by":"network""#))
    }

    @Test("the stream: accessRequest answered PENDING, then COMPLETED with the token, and the stream may PUT")
    func stream() throws {
        var h = Harness { $0.access = AccessRegistry(secret: Array("sixteen bytes or more".utf8)) }
        h.server.opened(1, peer: Self.phone, at: 0)
        h.send(1, AppsTests.upgrade)
        h.send(1, AppsTests.frame(#"{"requestId":"p1","put":{"path":"telltale.route.command","value":"stop"}}"#))
        #expect(h.text(1).contains(#""statusCode":401"#) && h.commands.isEmpty)
        h.sent[1] = []
        h.send(
            1,
            AppsTests.frame(
                #"{"requestId":"a1","accessRequest":{"clientId":"wilhelm","description":"WilhelmSK","permissions":"readwrite"}}"#
            ))
        #expect(h.text(1).contains(#""requestId":"a1","state":"PENDING""#))
        let id = try #require(h.server.configuration.access.requests.first?.requestId)
        h.server.opened(2, peer: Self.loopback, at: 0)
        h.sent[1] = []
        h.send(2, Self.request("PUT", "/telltale/v1/access/requests/" + id, #"{"value":"approve"}"#))
        #expect(h.text(1).contains(#""requestId":"a1","state":"COMPLETED","statusCode":200"#))
        #expect(h.text(1).contains(#""permission":"APPROVED","token":""#))
        h.send(1, AppsTests.frame(#"{"requestId":"p2","put":{"path":"telltale.route.command","value":"stop"}}"#))
        #expect(h.commands == [.route(.stop)])
    }

    @Test("the weather router on board: its plan read by anyone; planning and stopping only from the Pi or a device")
    func routing() {
        var h = Harness { $0.access = AccessRegistry(secret: Array("sixteen bytes or more".utf8)) }
        h.server.opened(1, peer: Self.phone, at: 0)
        h.send(1, Self.request("GET", "/telltale/v1/routing"))
        #expect(h.text(1).contains(#"{"routing":"GET"}"#))
        h.sent[1] = []
        let passage = #"{"to":{"latitude":47.58,"longitude":-3.4}}"#
        h.send(1, Self.request("POST", "/telltale/v1/routing", passage))
        #expect(h.text(1).hasPrefix("HTTP/1.1 401") && h.routings.count == 1)
        h.sent[1] = []
        h.send(1, Self.request("PUT", "/telltale/v1/routing", passage))
        #expect(h.text(1).hasPrefix("HTTP/1.1 405"))
        h.server.opened(2, peer: Self.loopback, at: 0)
        h.send(2, Self.request("POST", "/telltale/v1/routing", passage))
        h.send(2, Self.request("DELETE", "/telltale/v1/routing"))
        #expect(h.routings.map(\.method) == ["GET", "POST", "DELETE"])
        #expect(h.routings[1].body == Array(passage.utf8))
    }

    @Test("the calibration on board: read by anyone; learning, applying and undoing only from the Pi or a device")
    func calibration() {
        var h = Harness { $0.access = AccessRegistry(secret: Array("sixteen bytes or more".utf8)) }
        h.server.opened(1, peer: Self.phone, at: 0)
        h.send(1, Self.request("GET", "/telltale/v1/calibration"))
        #expect(h.text(1).contains(#"{"calibration":"GET"}"#))
        for method in ["POST", "PUT", "DELETE"] {
            h.sent[1] = []
            h.send(1, Self.request(method, "/telltale/v1/calibration"))
            #expect(h.text(1).hasPrefix("HTTP/1.1 401"), "\(method)")
        }
        h.sent[1] = []
        h.send(1, Self.request("PATCH", "/telltale/v1/calibration"))
        #expect(h.text(1).hasPrefix("HTTP/1.1 405"))
        h.server.opened(2, peer: Self.loopback, at: 0)
        for method in ["POST", "PUT", "DELETE"] { h.send(2, Self.request(method, "/telltale/v1/calibration")) }
        #expect(h.calibrations.map(\.method) == ["GET", "POST", "PUT", "DELETE"])
    }
}
