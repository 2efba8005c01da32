import Engine
import Marine

/// PUT, over HTTP and in the stream: who may, what a path and value ask of the engine (the words parsed by the
/// engine's own command types), and the answer once the shell has carried it out.
extension SignalKServer {
    /// What a PUT comes to: an answer now (refused, or nothing to do), or a command for the engine.
    enum PutRequest {
        case answer(status: Int, message: String)
        case command(EngineCommand)
    }

    /// What a PUT of `value` to `path` (below `vessels.self`) asks for, from a connection that may (`refusal` nil)
    /// or may not change things.
    mutating func request(_ path: String, value: JSONValue?, refusal: (status: Int, message: String)?) -> PutRequest {
        if let refusal {
            counters.refused += 1
            return .answer(status: refusal.status, message: refusal.message)
        }
        guard let value else { return .answer(status: 400, message: "the body must be {\"value\": ...}") }
        let command: EngineCommand
        if path == "telltale.route.command" {
            guard let word = value.string, let route = RouteCommand(rawValue: word) else {
                return .answer(status: 400, message: "route commands: " + RouteCommand.words)
            }
            command = .route(route)
        } else if path == "telltale.race.command" {
            guard let word = value.string, let race = RaceCommand(rawValue: word) else {
                return .answer(status: 400, message: "race commands: " + RaceCommand.words)
            }
            command = .race(race)
        } else if path == "telltale.anchor.command" {
            guard let words = value.string, let anchor = AnchorCommand.parse(words) else {
                return .answer(status: 400, message: "anchor commands: " + AnchorCommand.words)
            }
            command = .anchor(anchor)
        } else if path == "telltale.track.command" {
            guard value.string == "clear" else { return .answer(status: 400, message: "track commands: clear") }
            command = .clearTrack
        } else if path.hasPrefix("navigation.anchor.") {
            switch Self.anchorRequest(path, value) {
            case .command(let anchor): command = anchor
            case let answer: return answer
            }
        } else if path.hasPrefix("notifications.") {
            switch Self.alarmRequest(path, value) {
            case .command(let alarm): command = alarm
            case let answer: return answer
            }
        } else {
            return .answer(status: 405, message: "\(path) cannot be changed")
        }
        counters.puts += 1
        return .command(command)
    }

    /// A PUT below `navigation.anchor.`, as signalk-anchoralarm-plugin takes it (so WilhelmSK and KIP work the
    /// watch): `position` (null raises the anchor, a position sets it there), `maxRadius` (metres), `rodeLength`
    /// (metres of chain let out: the circle from it).
    static func anchorRequest(_ path: String, _ value: JSONValue) -> PutRequest {
        switch path {
        case "navigation.anchor.position":
            if value.isNull { return .command(.anchor(.raise)) }
            guard let latitude = value["latitude"]?.number, let longitude = value["longitude"]?.number else {
                return .answer(
                    status: 400,
                    message: "the anchor's position is {\"latitude\": ..., \"longitude\": ...}, or null to raise it")
            }
            return .command(.anchor(.position(GeoPoint(latitude: latitude, longitude: longitude))))
        case "navigation.anchor.maxRadius":
            guard let metres = value.number else { return .answer(status: 400, message: "maxRadius is metres") }
            return .command(.anchor(.radius(metres)))
        case "navigation.anchor.rodeLength":
            guard let metres = value.number else { return .answer(status: 400, message: "rodeLength is metres") }
            return .command(.anchor(.rode(metres)))
        default:
            return .answer(status: 405, message: "\(path) cannot be changed")
        }
    }

    /// A PUT below `notifications.`, as the reference server takes it (`src/put.ts`, `putNotification`): to the
    /// notification's `method` (a list without "sound" silences it) or its `state` ("normal" clears it), or to the
    /// notification itself with "acknowledge" (or a value whose state is normal or whose method is empty).
    static func alarmRequest(_ path: String, _ value: JSONValue) -> PutRequest {
        var name = path
        var key: String?
        if let dot = path.lastIndex(of: "."), ["method", "state"].contains(path[path.index(after: dot)...]) {
            key = String(path[path.index(after: dot)...])
            name = String(path[..<dot])
        }
        guard let kind = AlarmKind.parse(name) else {
            return .answer(status: 404, message: "no such alarm: \(name.dropFirst("notifications.".count))")
        }
        switch key {
        case "method":
            let methods = value.array?.compactMap { $0.string }
            guard let methods, methods.count == value.array?.count else {
                return .answer(status: 400, message: "method is a list, such as [\"visual\"]")
            }
            guard !methods.contains("sound") else {
                return .answer(status: 409, message: "an alarm sounds again only when it is raised again")
            }
            return .command(.silence(kind))
        case "state":
            guard let state = value.string, ["normal", "nominal"].contains(state) else {
                return .answer(
                    status: 400, message: "an alarm's state follows its condition: \"normal\" clears it")
            }
            return .command(.clear(kind))
        default:
            let acknowledges =
                value.string == "acknowledge" || value["state"]?.string == "normal"
                || value["method"]?.array?.isEmpty == true
            guard acknowledges else {
                return .answer(
                    status: 400,
                    message:
                        "an alarm is acknowledged with \"acknowledge\", silenced through its method, cleared through its state"
                )
            }
            return .command(.acknowledge(kind))
        }
    }

    /// PUT `/signalk/v1/api/vessels/self/<path>` with `{"value": ...}`: answered now, or handed to the shell as a
    /// command, the connection waiting for its answer.
    mutating func put(
        _ components: [String], _ http: HTTPRequest, _ id: Int, _ connection: inout Connection, model: SignalKModel,
        keepAlive: Bool, _ act: (Action) -> Void
    ) {
        guard components.count > 2, components[0] == "vessels", Self.isSelf("vessels." + components[1], model) else {
            return reply(id, &connection, 404, "PUT goes to vessels/self/<path>", keepAlive: keepAlive, act)
        }
        let path = components.dropFirst(2).joined(separator: ".")
        let refused = refusal(connection, token: Self.token(of: http))
        switch request(path, value: JSONValue.parse(http.body)?["value"], refusal: refused) {
        case .answer(let status, let message):
            reply(id, &connection, status, message, keepAlive: keepAlive, act)
        case .command(let command):
            awaitCommand(command, id, &connection, keepAlive: keepAlive, act)
        }
    }

    /// Hands an HTTP request's command to the shell; the connection reads nothing more until it is answered.
    mutating func awaitCommand(
        _ command: EngineCommand, _ id: Int, _ connection: inout Connection, keepAlive: Bool, _ act: (Action) -> Void
    ) {
        ask(.command(command), id, &connection, keepAlive: keepAlive, act)
    }

    /// A PUT message on the stream (`{"requestId": ..., "put": {"path": ..., "value": ...}}`).
    mutating func streamPut(
        _ message: JSONValue, _ put: JSONValue, _ id: Int, _ connection: inout Connection, _ act: (Action) -> Void
    ) {
        let requestId = message["requestId"]?.string
        guard let path = put["path"]?.string else {
            counters.refused += 1
            return
        }
        switch request(path, value: put["value"], refusal: refusal(connection, token: nil)) {
        case .answer(let status, let text):
            let reply = Self.putResult(status, text, requestId: requestId)
            connection.remember(requestId, reply)
            act(.send(connection: id, bytes: WebSocket.frame(.text, Array(reply.utf8))))
        case .command(let command):
            ask(.command(command), id, &connection, keepAlive: true, overStream: true, requestId: requestId, act)
        }
    }

    /// An HTTP answer with Signal K's request result (`state`, `statusCode`, `message`).
    mutating func reply(
        _ id: Int, _ connection: inout Connection, _ status: Int, _ message: String, keepAlive: Bool,
        _ act: (Action) -> Void
    ) {
        respond(id, &connection, status, Self.putResult(status, message, requestId: nil), keepAlive: keepAlive, act)
    }

    /// An HTTP answer with a JSON body; the connection closed after it unless kept alive.
    mutating func respond(
        _ id: Int, _ connection: inout Connection, _ status: Int, _ json: String, keepAlive: Bool,
        _ act: (Action) -> Void
    ) {
        act(.send(connection: id, bytes: HTTPResponse.json(status: status, json, keepAlive: keepAlive)))
        if !keepAlive { close(id, &connection, act) }
    }

    static func putResult(_ status: Int, _ message: String, requestId: String?) -> String {
        var json = JSONWriter()
        json.beginObject()
        if let requestId { json.value("requestId", requestId) }
        json.value("state", "COMPLETED")
        json.value("statusCode", status)
        json.value("message", message)
        json.endObject()
        return json.text
    }
}

extension EngineCommand {
    /// The PUT that asks a running gateway for this command over Signal K: the path below `vessels/self` and the
    /// value, a JSON string (the other way round from ``SignalKServer/request(_:value:refusal:)``). Nil for the race
    /// button, which only the gateway's own GPIO line presses, and for what only an app sends.
    public var signalKPut: (path: String, value: String)? {
        func text(_ word: String) -> String { "\"" + word + "\"" }
        switch self {
        case .race(let race): return ("telltale/race/command", text(race.rawValue))
        case .route(let route): return ("telltale/route/command", text(route.rawValue))
        case .acknowledge(let kind), .silence(let kind):
            return ("notifications/" + kind.path.split(separator: ".").joined(separator: "/"), text("acknowledge"))
        case .clear(let kind):
            return (
                "notifications/" + kind.path.split(separator: ".").joined(separator: "/") + "/state", text("normal")
            )
        case .anchor(let anchor): return anchor.words.map { ("telltale/anchor/command", text($0)) }
        case .clearTrack: return ("telltale/track/command", text("clear"))
        case .destination, .arrivalCircle, .routePoint, .button, .follow: return nil
        }
    }
}
