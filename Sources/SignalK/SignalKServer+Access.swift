/// Who may change things, and device access requests (``AccessRegistry``), as signalk-server's `src/tokensecurity.ts`
/// and `src/interfaces/ws.ts` answer them: reading is open to the boat's network; a change (PUT over HTTP or the
/// stream, the Course API, alarms, the settings) comes from `put_networks` or carries an approved device's token
/// (`Authorization: Bearer <token>`, the `JAUTHENTICATION` cookie, `?token=` on the stream URL, or the token an
/// `accessRequest` on that stream was given).
extension SignalKServer {
    static let accessRequestsPath = "/signalk/v1/access/requests"
    static let requestsPath = "/signalk/v1/requests/"
    static let accessAdminPath = "/telltale/v1/access"

    /// The token a request carries, if any.
    static func token(of request: HTTPRequest) -> String? {
        if let authorization = request.header("authorization") {
            for scheme in ["Bearer ", "bearer ", "JWT "] where authorization.hasPrefix(scheme) {
                return String(authorization.dropFirst(scheme.count))
            }
        }
        for cookie in (request.header("cookie") ?? "").split(separator: ";") {
            let pair = cookie.split(separator: "=", maxSplits: 1)
            if pair.count == 2 && HTTPRequestReader.trimmed(String(pair[0])) == "JAUTHENTICATION" {
                return String(pair[1])
            }
        }
        return request.parameter("token")
    }

    /// Nil when the connection may change things (`admin`: the settings and approvals, which only `put_networks`
    /// and admin devices may); else the status and why: 401 without a token (or with one not known), 403 with one
    /// that may not.
    func refusal(_ connection: Connection, token: String?, admin: Bool = false) -> (status: Int, message: String)? {
        if configuration.putRule.admits(connection.peer) { return nil }
        guard let token = token ?? connection.token else {
            return (
                401,
                "changes need an approved device: ask with POST \(Self.accessRequestsPath) (or an accessRequest), "
                    + "then approve it aboard with telltale access approve"
            )
        }
        guard let device = configuration.access.device(token: token) else {
            return (401, "the token is not known here (revoked?): ask for access again")
        }
        if admin ? device.permission != .admin : !device.permission.writes {
            return (403, "this device may not \(admin ? "administer the gateway" : "change things")")
        }
        return nil
    }

    /// What this connection may do, for the panel (`GET /telltale/v1/access/self`): `changes` and `admin`, `by`
    /// `network` (`put_networks`), `device` (an approved token) or `none`; the device; `tokenRefused` when the token
    /// sent is not known here (revoked), so the panel forgets it.
    func standing(_ connection: Connection, token: String?) -> String {
        let byNetwork = configuration.putRule.admits(connection.peer)
        let sent = token ?? connection.token
        let device = sent.flatMap { configuration.access.device(token: $0) }
        var json = JSONWriter()
        json.beginObject()
        json.value("changes", byNetwork || device?.permission.writes == true)
        json.value("admin", byNetwork || device?.permission == .admin)
        json.value("by", byNetwork ? "network" : device != nil ? "device" : "none")
        if let device {
            json.beginObject("device")
            json.value("clientId", device.clientId)
            json.value("description", device.description)
            json.value("permissions", device.permission.rawValue)
            json.endObject()
        }
        json.value("tokenRefused", sent != nil && device == nil)
        json.value("address", NetworkRule.Network.text(connection.peer))
        json.endObject()
        return json.text
    }

    /// `POST /signalk/v1/access/requests`, `GET /signalk/v1/requests/<id>`, and Telltale's own list, approve, deny
    /// and revoke below `/telltale/v1/access` (from `put_networks` or an admin device).
    mutating func accessRoute(
        _ request: HTTPRequest, _ id: Int, _ connection: inout Connection, keepAlive: Bool, unixTime: Double,
        _ act: (Action) -> Void
    ) {
        func reply(_ status: Int, _ json: String) { respond(id, &connection, status, json, keepAlive: keepAlive, act) }
        func refuse(_ status: Int, _ message: String) {
            counters.refused += 1
            self.reply(id, &connection, status, message, keepAlive: keepAlive, act)
        }
        let path = request.path
        if path == Self.accessRequestsPath || path == Self.accessRequestsPath + "/" {
            guard request.method == "POST" else { return refuse(405, "POST only") }
            guard let body = JSONValue.parse(request.body), let clientId = body["clientId"]?.string, !clientId.isEmpty
            else { return refuse(400, "the body must be {\"clientId\": ..., \"description\": ...}") }
            let made = ask(body, clientId: clientId, connection, unixTime: unixTime, act)
            return reply(202, Self.pending(made.requestId, requestId: nil))
        }
        if path.hasPrefix(Self.requestsPath) {
            guard request.method == "GET" || request.method == "HEAD" else { return refuse(405, "GET only") }
            let requestId = String(path.dropFirst(Self.requestsPath.count))
            guard let known = configuration.access.request(requestId) else { return refuse(404, "no such request") }
            return reply(200, state(of: known, requestId: nil))
        }
        if path == Self.accessAdminPath + "/self" {
            guard request.method == "GET" || request.method == "HEAD" else { return refuse(405, "GET only") }
            return reply(200, standing(connection, token: Self.token(of: request)))
        }
        if let why = refusal(connection, token: Self.token(of: request), admin: true) {
            return refuse(why.status, why.message)
        }
        let rest = path.dropFirst(Self.accessAdminPath.count).split(separator: "/").map(String.init)
        // Plain comparisons, not a switch over a tuple with an optional String: the Embedded build (Swift 6.3)
        // matched no case of that switch and answered every administrator's request 404.
        let method = request.method
        let kind = rest.first ?? ""
        if method == "GET" && rest.isEmpty { return reply(200, configuration.access.json(tokens: false)) }
        if method == "PUT" && rest.count == 2 && kind == "requests" {
            let word = JSONValue.parse(request.body)?["value"]?.string
            if word == "approve", let device = configuration.access.approve(rest[1], at: unixTime) {
                saved(act)
                notify(rest[1], act)
                return reply(200, Self.putResult(200, "\(device.description) approved", requestId: nil))
            }
            if word == "deny", configuration.access.deny(rest[1]) {
                saved(act)
                notify(rest[1], act)
                return reply(200, Self.putResult(200, "denied", requestId: nil))
            }
            if word != "approve" && word != "deny" { return refuse(400, "{\"value\": \"approve\"} or \"deny\"") }
            return refuse(404, "no such request waiting")
        }
        if method == "DELETE" && rest.count == 2 && kind == "devices" {
            guard configuration.access.revoke(rest[1]) else { return refuse(404, "no such device") }
            saved(act)
            return reply(200, Self.putResult(200, "revoked", requestId: nil))
        }
        return refuse(404, "not found")
    }

    /// The stream's `{"requestId": ..., "accessRequest": {...}}`: answered PENDING now, and on this stream again
    /// when it is approved or denied (an approval then admits the stream itself).
    mutating func streamAccessRequest(
        _ message: JSONValue, _ id: Int, _ connection: inout Connection, unixTime: Double, _ act: (Action) -> Void
    ) {
        let requestId = message["requestId"]?.string
        guard let body = message["accessRequest"], let clientId = body["clientId"]?.string, !clientId.isEmpty else {
            let reply = Self.putResult(400, "accessRequest needs a clientId", requestId: requestId)
            return act(.send(connection: id, bytes: WebSocket.frame(.text, Array(reply.utf8))))
        }
        let made = ask(body, clientId: clientId, connection, unixTime: unixTime, act)
        if !connection.waitingAccess.contains(where: { $0.id == made.requestId }) {
            connection.waitingAccess.append((made.requestId, requestId))
            if connection.waitingAccess.count > 4 { connection.waitingAccess.removeFirst() }
        }
        act(
            .send(
                connection: id,
                bytes: WebSocket.frame(.text, Array(Self.pending(made.requestId, requestId: requestId).utf8))))
    }

    private mutating func ask(
        _ body: JSONValue, clientId: String, _ connection: Connection, unixTime: Double, _ act: (Action) -> Void
    ) -> AccessRegistry.Request {
        let permission = body["permissions"]?.string.flatMap(AccessRegistry.Permission.init(rawValue:)) ?? .readwrite
        let made = configuration.access.request(
            clientId: clientId, description: body["description"]?.string ?? clientId, permission: permission,
            address: NetworkRule.Network.text(connection.peer), at: unixTime)
        saved(act)
        return made
    }

    /// Tells the streams waiting for a request how it was answered; an approved one may change things from now.
    private mutating func notify(_ requestId: String, _ act: (Action) -> Void) {
        guard let answered = configuration.access.request(requestId) else { return }
        for id in connections.keys.sorted() {
            guard var connection = connections[id],
                let waiting = connection.waitingAccess.first(where: { $0.id == requestId })
            else { continue }
            connection.waitingAccess.removeAll { $0.id == requestId }
            if let device = configuration.access.device(for: answered) { connection.token = device.token }
            let text = state(of: answered, requestId: waiting.clientRequestId)
            act(.send(connection: id, bytes: WebSocket.frame(.text, Array(text.utf8))))
            connections[id] = connection
        }
    }

    private mutating func saved(_ act: (Action) -> Void) {
        let request = nextRequest
        nextRequest &+= 1
        act(.request(ShellRequest(id: request, kind: .keepAccess(configuration.access.json(tokens: true)))))
    }

    static func pending(_ id: String, requestId: String?) -> String {
        var json = JSONWriter()
        json.beginObject()
        json.value("requestId", requestId ?? id)
        json.value("state", "PENDING")
        json.value("href", requestsPath + id)
        json.endObject()
        return json.text
    }

    /// A request's state as `GET /signalk/v1/requests/<id>` answers it.
    func state(of request: AccessRegistry.Request, requestId: String?) -> String {
        guard request.state != .pending else { return Self.pending(request.requestId, requestId: requestId) }
        var json = JSONWriter()
        json.beginObject()
        json.value("requestId", requestId ?? request.requestId)
        json.value("state", "COMPLETED")
        json.value("statusCode", 200)
        json.beginObject("accessRequest")
        if let device = configuration.access.device(for: request) {
            json.value("permission", "APPROVED")
            json.value("token", device.token)
        } else {
            json.value("permission", "DENIED")
        }
        json.endObject()
        json.endObject()
        return json.text
    }
}
