import Testing

@testable import SignalK

/// The shore's door (``SignalKServer/Gate``): nothing without a session but the login page; a session sees its own
/// boats' view of the fleet, and the store's reads carry the boats it may see.
@Suite struct GateTests {
    static let token = String(repeating: "ab", count: 32)

    func shore() -> StreamTests.Harness {
        var shore = StreamTests.Harness {
            $0.gate = SignalKServer.Gate(open: ["/login.html"], loginPage: "/login.html")
        }
        shore.server.configuration.files["/login.html"] = .init(contentType: "text/html", bytes: Array("login".utf8))
        shore.server.fleet = #"{"fleet":true,"boats":[{"id":"a"},{"id":"b"}]}"#
        shore.server.fleetScoped = ["a": #"{"fleet":true,"boats":[{"id":"a"}]}"#]
        shore.server.viewers = [
            SHA256.hex(Array(Self.token.utf8)): SignalKServer.Viewer(name: "owner", role: "owner", boats: ["a"])
        ]
        return shore
    }

    func get(_ shore: inout StreamTests.Harness, _ id: Int, _ path: String, cookie: String? = nil) -> String {
        shore.server.opened(id, peer: [192, 168, 1, 7], at: 0)
        shore.send(id, "GET \(path) HTTP/1.1\r\nHost: s\r\n" + (cookie.map { "Cookie: \($0)\r\n" } ?? "") + "\r\n")
        return shore.text(id)
    }

    @Test("no session: the login page alone; a page sent there (303), anything else 401; a forged cookie the same")
    func shut() {
        var shore = shore()
        #expect(get(&shore, 1, "/login.html").hasPrefix("HTTP/1.1 200"))
        let page = get(&shore, 2, "/")
        #expect(page.hasPrefix("HTTP/1.1 303") && page.contains("Location: /login.html"))
        #expect(get(&shore, 3, "/telltale/v1/fleet").hasPrefix("HTTP/1.1 401"))
        #expect(get(&shore, 4, "/signalk/v1/api/").hasPrefix("HTTP/1.1 401"))
        #expect(get(&shore, 5, "/telltale/v1/fleet/boats/a/track.gpx").hasPrefix("HTTP/1.1 401"))
        let forged = "telltale_session=" + String(repeating: "cd", count: 32)
        #expect(get(&shore, 6, "/telltale/v1/fleet", cookie: forged).hasPrefix("HTTP/1.1 401"))
        #expect(
            get(&shore, 7, "/telltale/v1/fleet", cookie: "telltale_session=" + Self.token + "x").hasPrefix(
                "HTTP/1.1 401"))
        #expect(shore.fleetAsks.isEmpty)
    }

    @Test("a session: its own view of the fleet, the panel, and the store's reads carrying the boats it sees")
    func open() {
        var shore = shore()
        let cookie = "theme=night; telltale_session=\(Self.token)"
        let fleet = get(&shore, 1, "/telltale/v1/fleet", cookie: cookie)
        #expect(fleet.hasPrefix("HTTP/1.1 200") && fleet.hasSuffix(#"{"fleet":true,"boats":[{"id":"a"}]}"#))
        #expect(get(&shore, 2, "/", cookie: cookie).hasPrefix("HTTP/1.1 200"))
        _ = get(&shore, 3, "/telltale/v1/fleet/boats/b/track.gpx", cookie: cookie)
        #expect(shore.fleetAsks.map(\.boats) == [["a"]])
    }

    @Test("login and logout are POSTs handed to the shell with the address and the cookie's digest; the answer sets it")
    func login() {
        var shore = shore()
        shore.server.opened(1, peer: [192, 168, 1, 7], at: 0)
        let body = #"{"name":"owner","password":"secret123"}"#
        shore.send(
            1, "POST /telltale/v1/login HTTP/1.1\r\nHost: s\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        #expect(shore.text(1).hasPrefix("HTTP/1.1 200") && shore.text(1).contains("Set-Cookie: telltale_session=t"))
        #expect(
            shore.logins.first
                == SignalKServer.LoginAsk(
                    logout: false, body: Array(body.utf8), address: "192.168.1.7", session: nil))
        shore.server.opened(2, peer: [192, 168, 1, 7], at: 0)
        shore.send(
            2,
            "POST /telltale/v1/logout HTTP/1.1\r\nHost: s\r\nCookie: telltale_session=\(Self.token)\r\n"
                + "Content-Length: 0\r\n\r\n")
        #expect(shore.logins.last?.logout == true)
        #expect(shore.logins.last?.session == SHA256.hex(Array(Self.token.utf8)))
        #expect(get(&shore, 3, "/telltale/v1/login").hasPrefix("HTTP/1.1 405"))
    }

    @Test("a boat's server has no door: everything as before")
    func boat() {
        var boat = StreamTests.Harness()
        boat.server.opened(1, peer: [127, 0, 0, 1], at: 0)
        boat.send(1, "GET /telltale/v1/fleet HTTP/1.1\r\nHost: b\r\n\r\n")
        #expect(boat.text(1).hasSuffix(#"{"fleet":false}"#))
    }
}
