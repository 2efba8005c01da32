import Engine

/// PUT, over HTTP and in the stream: who may, what a path and value ask of the engine (the words parsed by the
/// engine's own command types), and the answer once the shell has carried it out.
extension SignalKServer {
    /// What a PUT comes to: an answer now (refused, or nothing to do), or a command for the engine.
    enum PutRequest {
        case answer(status: Int, message: String)
        case command(EngineCommand)
    }

    /// What a PUT of `value` to `path` (below `vessels.self`) from `peer` asks for.
    mutating func request(_ path: String, value: JSONValue?, peer: [UInt8]) -> PutRequest {
        guard configuration.putRule.admits(peer) else {
            counters.refused += 1
            return .answer(status: 403, message: "changes are accepted only from the networks in [web] put_networks")
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
        } else if path.hasPrefix("notifications.") {
            guard let kind = AlarmKind.parse(path) else {
                return .answer(status: 404, message: "no such alarm: \(path.dropFirst("notifications.".count))")
            }
            let acknowledges =
                value.string == "acknowledge" || value["state"]?.string == "normal"
                || value["method"]?.array?.isEmpty == true
            guard acknowledges else {
                return .answer(status: 400, message: "an alarm is acknowledged with \"acknowledge\"")
            }
            command = .acknowledge(kind)
        } else {
            return .answer(status: 405, message: "\(path) cannot be changed")
        }
        counters.puts += 1
        return .command(command)
    }

    /// PUT `/signalk/v1/api/vessels/self/<path>` with `{"value": ...}`: answered now, or handed to the shell as a
    /// command, the connection waiting for its answer.
    mutating func put(
        _ components: [String], _ body: [UInt8], _ id: Int, _ connection: inout Connection, keepAlive: Bool,
        _ act: (Action) -> Void
    ) {
        guard components.count > 2, components[0] == "vessels", components[1] == "self" else {
            return reply(id, &connection, 404, "PUT goes to vessels/self/<path>", keepAlive: keepAlive, act)
        }
        let path = components.dropFirst(2).joined(separator: ".")
        switch request(path, value: JSONValue.parse(body)?["value"], peer: connection.peer) {
        case .answer(let status, let message):
            reply(id, &connection, status, message, keepAlive: keepAlive, act)
        case .command(let command):
            connection.awaiting = true
            act(
                .command(
                    CommandRequest(
                        connection: id, command: command, requestId: nil, overStream: false, keepAlive: keepAlive)))
        }
    }

    /// A PUT message on the stream (`{"requestId": ..., "put": {"path": ..., "value": ...}}`).
    mutating func streamPut(
        _ message: JSONValue, _ put: JSONValue, _ id: Int, _ connection: Connection, _ act: (Action) -> Void
    ) {
        let requestId = message["requestId"]?.string
        guard let path = put["path"]?.string else {
            counters.refused += 1
            return
        }
        switch request(path, value: put["value"], peer: connection.peer) {
        case .answer(let status, let text):
            let reply = Self.putResult(status, text, requestId: requestId)
            act(.send(connection: id, bytes: WebSocket.frame(.text, Array(reply.utf8))))
        case .command(let command):
            act(
                .command(
                    CommandRequest(
                        connection: id, command: command, requestId: requestId, overStream: true, keepAlive: true)))
        }
    }

    /// The outcome of a command the shell carried out: the answer to whoever asked (200 with what was done, 409 with
    /// why not), then the requests that waited behind it.
    public mutating func answer(
        _ request: CommandRequest, _ outcome: CommandOutcome, model: SignalKModel, at now: Double, unixTime: Double,
        _ act: (Action) -> Void
    ) {
        guard var connection = connections[request.connection], !connection.closing else { return }
        defer { connections[request.connection] = connection }
        let status = outcome.isDone ? 200 : 409
        if request.overStream {
            let reply = Self.putResult(status, outcome.message, requestId: request.requestId)
            act(.send(connection: request.connection, bytes: WebSocket.frame(.text, Array(reply.utf8))))
            return
        }
        connection.awaiting = false
        reply(request.connection, &connection, status, outcome.message, keepAlive: request.keepAlive, act)
        process(request.connection, &connection, model: model, at: now, unixTime: unixTime, act)
    }

    private mutating func reply(
        _ id: Int, _ connection: inout Connection, _ status: Int, _ message: String, keepAlive: Bool,
        _ act: (Action) -> Void
    ) {
        act(
            .send(
                connection: id,
                bytes: HTTPResponse.json(
                    status: status, Self.putResult(status, message, requestId: nil), keepAlive: keepAlive)))
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
    /// value (the other way round from ``SignalKServer/request(_:value:peer:)``). Nil for the race button, which
    /// only the gateway's own GPIO line presses.
    public var signalKPut: (path: String, value: String)? {
        switch self {
        case .race(let race): ("telltale/race/command", race.rawValue)
        case .route(let route): ("telltale/route/command", route.rawValue)
        case .acknowledge(let kind):
            ("notifications/" + kind.path.split(separator: ".").joined(separator: "/"), "acknowledge")
        case .button: nil
        }
    }
}
