/// The shore's door (#53): with a ``Gate`` configured, nothing is served without a session but the login page and
/// what it loads. A session is a cookie holding 32 random bytes the shell made at login; the server knows a session
/// by the token's SHA-256 (``viewers``, which the shell keeps: the store holds only digests too), so a stolen store
/// opens nothing. What a session sees of the fleet is its ``Viewer/boats``: the Fleet layout's JSON of its own scope
/// (``fleetScoped``), and the store's answers checked by the shell against the boats the request carries.
extension SignalKServer {
    public static let loginPath = "/telltale/v1/login"
    public static let logoutPath = "/telltale/v1/logout"
    public static let sessionCookie = "telltale_session"

    /// Who a session is: the account's name and role, and the boats it sees (nil: every boat).
    public struct Viewer: Hashable, Sendable {
        public var name: String
        public var role: String
        public var boats: Set<String>?

        public init(name: String, role: String, boats: Set<String>?) {
            self.name = name
            self.role = role
            self.boats = boats
        }

        /// The key of its view of the fleet: the boats, sorted, or `*` for every boat.
        public var scope: String { boats.map { $0.sorted().joined(separator: ",") } ?? "*" }

        public func sees(_ boat: String) -> Bool { boats?.contains(boat) ?? true }
    }

    /// The door: what anyone may load (the login page and its script), and the page anyone else is sent to.
    public struct Gate: Hashable, Sendable {
        public var open: Set<String>
        public var loginPage: String

        public init(open: Set<String>, loginPage: String) {
            self.open = open
            self.loginPage = loginPage
        }
    }

    /// A login (`{"name", "password"}`) or a logout for the shell: the body, the client's address, and the digest of
    /// the session the request came with.
    public struct LoginAsk: Hashable, Sendable {
        public var logout: Bool
        public var body: [UInt8]
        public var address: String
        public var session: String?

        public init(logout: Bool, body: [UInt8], address: String, session: String?) {
            self.logout = logout
            self.body = body
            self.address = address
            self.session = session
        }
    }

    /// The door closed (`gate`) or opened (nil): a shore closes it once it has an account.
    public mutating func setGate(_ gate: Gate?) { configuration.gate = gate }

    /// The digest of the session token the request's cookie carries (64 hex digits of 32 bytes), nil without one.
    static func sessionDigest(_ request: HTTPRequest) -> String? {
        guard let cookies = request.header("cookie") else { return nil }
        for pair in cookies.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingSpaces == sessionCookie else { continue }
            let token = parts[1].trimmingSpaces
            guard token.utf8.count == 64, token.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) })
            else { return nil }
            return SHA256.hex(Array(token.utf8))
        }
        return nil
    }

    /// The address a connection came from, as text (dotted for IPv4, hex groups for IPv6).
    static func addressText(_ peer: [UInt8]) -> String {
        if peer.count == 4 { return peer.map { String($0) }.joined(separator: ".") }
        return stride(from: 0, to: peer.count, by: 2).map { i in
            String(UInt16(peer[i]) << 8 | UInt16(i + 1 < peer.count ? peer[i + 1] : 0), radix: 16)
        }.joined(separator: ":")
    }

    /// The viewer of a request, when the door is closed and its session known.
    func viewer(_ request: HTTPRequest) -> Viewer? {
        Self.sessionDigest(request).flatMap { viewers[$0] }
    }

    /// The door's part of a request: login and logout handed to the shell, anyone without a session refused (a page
    /// sent to the login page, anything else 401); true when it answered.
    mutating func gated(_ x: Exchange, _ connection: inout Connection, _ act: (Action) -> Void) -> Bool {
        guard let gate = configuration.gate else { return false }
        let path = x.request.path
        if path == Self.loginPath || path == Self.logoutPath {
            guard x.request.method == "POST" else {
                refuse(x, &connection, 405, "POST only", act)
                return true
            }
            let login = LoginAsk(
                logout: path == Self.logoutPath, body: x.request.body, address: Self.addressText(connection.peer),
                session: Self.sessionDigest(x.request))
            ask(.login(login), x.id, &connection, keepAlive: x.keepAlive, act)
            return true
        }
        if gate.open.contains(path) || viewer(x.request) != nil { return false }
        return shut(x, &connection, gate, act)
    }

    /// Anyone without a session: a page sent to the login page, anything else 401.
    private mutating func shut(_ x: Exchange, _ connection: inout Connection, _ gate: Gate, _ act: (Action) -> Void)
        -> Bool
    {
        let path = x.request.path
        counters.refused += 1
        if x.isRead && (path == "/" || path.hasSuffix(".html")) {
            reply(
                x, &connection,
                HTTPResponse.make(
                    status: 303, contentType: "text/plain", body: Array("log in\n".utf8), keepAlive: x.keepAlive,
                    headers: [("Location", gate.loginPage)], headOnly: x.headOnly), act)
        } else {
            refuse(x, &connection, 401, "log in first (POST \(Self.loginPath))", act)
        }
        return true
    }
}

extension Substring {
    var trimmingSpaces: String {
        var text = self
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return String(text)
    }
}
