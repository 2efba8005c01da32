/// The stream side of the server: the WebSocket upgrade, the hello and current values, client messages
/// (subscribe, unsubscribe, PUT), pings, closes, and the bounds on what a client may send.
extension SignalKServer {
    mutating func upgrade(
        _ request: HTTPRequest, _ id: Int, _ connection: inout Connection, model: SignalKModel, at now: Double,
        unixTime: Double, _ act: (Action) -> Void
    ) {
        guard request.tokens("upgrade").contains("websocket"), let key = request.header("sec-websocket-key"),
            request.header("sec-websocket-version") == "13"
        else {
            counters.refused += 1
            act(.send(connection: id, bytes: HTTPResponse.error(426, "a WebSocket upgrade is required")))
            return close(id, &connection, act)
        }
        guard streamAllowed(for: connection.peer) else {
            counters.refused += 1
            act(.send(connection: id, bytes: HTTPResponse.error(503, "too many streams")))
            return close(id, &connection, act)
        }
        var head = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        head += "Sec-WebSocket-Accept: \(WebSocket.acceptKey(for: key))\r\n\r\n"
        act(.send(connection: id, bytes: Array(head.utf8)))
        connection.socket = WebSocket.Decoder(maximumMessage: configuration.maximumMessage)
        var stream = StreamSubscription(
            query: request.parameter("subscribe"), sendMeta: request.parameter("sendMeta") == "all")
        stream.allSources = request.parameter("sourcePolicy") == "all"
        counters.streams += 1
        let hello = model.hello(name: "telltale", version: configuration.serverVersion, unixTime: unixTime)
        act(.send(connection: id, bytes: WebSocket.frame(.text, Array(hello.utf8))))
        connection.sendsCachedValues = request.parameter("sendCachedValues") != "false"
        connection.token = Self.token(of: request)
        // The values held now go out at the next tick, with those of every other client that joined meanwhile:
        // the whole model as JSON is the costliest thing a client can ask for, and 200 clients connecting at once
        // would otherwise each cost it inside a turn of the loop that a sentence may be waiting behind.
        connection.needsCurrent = connection.sendsCachedValues
        connection.stream = stream
    }

    /// The values the model holds now, to a client that has just subscribed.
    func sendCurrent(
        _ id: Int, _ stream: inout StreamSubscription, model: SignalKModel, at now: Double, _ act: (Action) -> Void
    ) {
        var current: [SignalKModel.Update] = []
        for path in model.entries.keys.sorted() {
            let preferred = stream.allSources ? nil : model.preferredSource(path)
            for entry in model.entries[path] ?? [] where preferred == nil || entry.source == preferred {
                current.append(
                    SignalKModel.Update(
                        path: path, source: entry.source, timestamp: entry.timestamp, value: entry.value))
            }
        }
        let out = stream.offer(current, at: now)
        guard !out.isEmpty else { return }
        let meta = stream.newMeta(out)
        act(.send(connection: id, bytes: WebSocket.frame(.text, Array(model.delta(out, meta: meta).utf8))))
    }

    mutating func socketBytes(
        _ id: Int, _ connection: inout Connection, _ bytes: [UInt8], model: SignalKModel, at now: Double,
        unixTime: Double, _ act: (Action) -> Void
    ) {
        guard var decoder = connection.socket else { return }
        let messages = decoder.feed(bytes)
        connection.socket = decoder
        for message in messages {
            guard !connection.closing else { return }
            // A token bucket: a burst of messages is fine, a flood is not.
            connection.allowance = min(
                configuration.messageBurst,
                connection.allowance + (now - connection.lastMessage) * configuration.messagesPerSecond)
            connection.lastMessage = now
            connection.allowance -= 1
            counters.messages += 1
            if connection.allowance < -configuration.messagesPerSecond {
                counters.refused += 1
                act(.send(connection: id, bytes: WebSocket.closeFrame(1008)))
                return close(id, &connection, act)
            }
            switch message {
            case .text(let payload):
                guard connection.allowance >= 0 else {
                    counters.refused += 1
                    continue
                }
                streamMessage(payload, id, &connection, model: model, at: now, unixTime: unixTime, act)
            case .ping(let payload):
                act(.send(connection: id, bytes: WebSocket.frame(.pong, payload)))
            case .pong:
                break
            case .binary:
                counters.refused += 1
                act(.send(connection: id, bytes: WebSocket.closeFrame(1003)))
                return close(id, &connection, act)
            case .close:
                act(.send(connection: id, bytes: WebSocket.closeFrame(1000)))
                return close(id, &connection, act)
            case .violation(let code):
                counters.refused += 1
                act(.send(connection: id, bytes: WebSocket.closeFrame(code)))
                return close(id, &connection, act)
            }
        }
    }

    /// Whether a message's `context` names this vessel (or names none).
    static func isSelf(_ context: String?, _ model: SignalKModel) -> Bool {
        guard let context else { return true }
        return context == "vessels.self" || context == "self" || context == model.context
    }

    private mutating func streamMessage(
        _ payload: [UInt8], _ id: Int, _ connection: inout Connection, model: SignalKModel, at now: Double,
        unixTime: Double, _ act: (Action) -> Void
    ) {
        guard let message = JSONValue.parse(payload, maximumLength: configuration.maximumMessage),
            var stream = connection.stream
        else {
            counters.refused += 1
            return
        }
        if let put = message["put"] {
            guard Self.isSelf(message["context"]?.string, model) else {
                let reply = Self.putResult(
                    405, "only this vessel's values can be changed", requestId: message["requestId"]?.string)
                return act(.send(connection: id, bytes: WebSocket.frame(.text, Array(reply.utf8))))
            }
            return streamPut(message, put, id, &connection, act)
        }
        if message["accessRequest"] != nil {
            return streamAccessRequest(message, id, &connection, unixTime: unixTime, act)
        }
        if message["query"]?.bool == true, let requestId = message["requestId"]?.string {
            // The state of a request this client made (`src/requestResponse.ts`: what it was answered, or 404).
            let reply =
                connection.results.last { $0.requestId == requestId }?.reply
                ?? #"{"requestId":"# + JSONWriter.quoted(requestId) + #","statusCode":404}"#
            return act(.send(connection: id, bytes: WebSocket.frame(.text, Array(reply.utf8))))
        }
        let before = stream.subscriptions
        guard stream.apply(message, selfContext: model.context) else {
            counters.refused += 1
            return
        }
        // What a new subscription covers goes out at the next tick, once however many subscribe messages came in
        // between (matching every value against every pattern for each message of a flood held the loop for
        // milliseconds); a repeated subscribe changes nothing and sends nothing.
        if stream.subscriptions != before { connection.needsCurrent = connection.sendsCachedValues }
        connection.stream = stream
    }
}

extension SignalKServer {
    /// One pass over the stream clients: a batch of new updates offered to each, or a tick's check of what each is
    /// owed. Done client by client, so that it can stop between two clients and go on later (`resume`).
    struct StreamRound {
        var updates: [SignalKModel.Update]
        /// `updates` but those of sources not preferred (``SignalKModel/isPreferred(_:)``), for most clients.
        var preferred: [SignalKModel.Update] = []
        var isTick: Bool
        var at: Double
        var clients: [Int]
        var next = 0
        var frames = FrameCache()
    }

    /// The most rounds left waiting: past it, the oldest are finished at once rather than held without end.
    static let waitingRounds = 4

    /// New updates from the model: to every stream client, as its subscriptions say.
    ///
    /// `budget` is how many clients this call serves at most (one at least): the caller with more urgent work (a
    /// sentence waiting on an input) gives a small one and serves the rest with `resume`, in order, before anything
    /// newer. With the default every client is served before the call returns.
    public mutating func publish(
        _ updates: [SignalKModel.Update], model: SignalKModel, at now: Double, budget: Int = .max,
        _ act: (Action) -> Void
    ) {
        guard !updates.isEmpty else { return }
        begin(StreamRound(updates: updates, isTick: false, at: now, clients: connections.keys.sorted()), model, act)
        resume(model: model, budget: budget, act)
    }

    /// AIS stations' deltas (``SignalKModel/takeTrafficDeltas()``), each to the streams that follow its context and
    /// one of its paths (`subscribe=all`, or a subscribe for `*`, `vessels.*` or the station's own context): sent as
    /// they are, once a second at most per station, without periods.
    public mutating func publishTraffic(_ deltas: [SignalKTraffic.Delta], _ act: (Action) -> Void) {
        guard !deltas.isEmpty else { return }
        let followers = connections.keys.sorted().filter { connections[$0]?.stream?.traffic.isEmpty == false }
        guard !followers.isEmpty else { return }
        for delta in deltas {
            var frame: [UInt8]?
            for id in followers
            where connections[id]?.stream?.follows(context: delta.context, paths: delta.paths) == true {
                if frame == nil { frame = WebSocket.frame(.text, Array(delta.text.utf8)) }
                act(.send(connection: id, bytes: frame!))
            }
        }
    }

    /// What subscriptions owe at `now` (held values, periods), and the current values to streams opened since the
    /// last tick. `budget` as for `publish`.
    public mutating func tick(model: SignalKModel, at now: Double, budget: Int = .max, _ act: (Action) -> Void) {
        tickPlaybacks(model: model, at: now, act)
        begin(StreamRound(updates: [], isTick: true, at: now, clients: connections.keys.sorted()), model, act)
        resume(model: model, budget: budget, act)
    }

    /// Whether stream work is waiting for `resume`.
    public var hasUnfinishedRounds: Bool { !rounds.isEmpty }

    /// Goes on with the stream work earlier calls left, oldest first, serving `budget` clients at most (one at
    /// least, so each call gets somewhere).
    public mutating func resume(model: SignalKModel, budget: Int, _ act: (Action) -> Void) {
        var served = 0
        while !rounds.isEmpty {
            var round = rounds.removeFirst()
            let finished = advance(&round, model: model, act) {
                served += 1
                return served > max(1, budget)
            }
            if !finished {
                rounds.insert(round, at: 0)
                return
            }
        }
    }

    private mutating func begin(_ round: StreamRound, _ model: SignalKModel, _ act: (Action) -> Void) {
        var round = round
        round.preferred = round.updates.filter { model.isPreferred($0) }
        while rounds.count >= Self.waitingRounds {
            var oldest = rounds.removeFirst()
            _ = advance(&oldest, model: model, act, stop: { false })
        }
        rounds.append(round)
    }

    /// Serves the round's clients in turn, asking `stop` before each; true when every client has been served.
    private mutating func advance(
        _ round: inout StreamRound, model: SignalKModel, _ act: (Action) -> Void, stop: () -> Bool
    ) -> Bool {
        while round.next < round.clients.count {
            if stop() { return false }
            let id = round.clients[round.next]
            round.next += 1
            serve(id, &round, model: model, act)
        }
        return true
    }

    private mutating func serve(_ id: Int, _ round: inout StreamRound, model: SignalKModel, _ act: (Action) -> Void) {
        // Taken out of the table while worked on: a copy left in it shared the subscription's storage, so its first
        // change copied every path it tracked (each client, each tick).
        guard var stream = connections[id]?.stream else { return }
        connections[id]?.stream = nil
        if round.isTick && connections[id]?.needsCurrent == true {
            connections[id]?.needsCurrent = false
            sendCurrent(id, &stream, model: model, at: round.at, act)
        }
        var out =
            round.isTick
            ? stream.due(at: round.at) : stream.offer(stream.allSources ? round.updates : round.preferred, at: round.at)
        // A held or periodic value of a source no longer preferred (the engine's value came meanwhile) stays held.
        if round.isTick && !stream.allSources { out.removeAll { !model.isPreferred($0) } }
        if !out.isEmpty {
            let meta = stream.newMeta(out)
            act(.send(connection: id, bytes: round.frames.frame(out, meta, model)))
        }
        connections[id]?.stream = stream
    }

    /// One delta frame per distinct content in a round: clients subscribed alike (most of them) share its bytes,
    /// instead of each costing the JSON again (10 streaming clients made that most of a tick's work).
    struct FrameCache {
        private var last: (updates: [SignalKModel.Update], meta: [String], bytes: [UInt8])?

        mutating func frame(_ updates: [SignalKModel.Update], _ meta: [String], _ model: SignalKModel) -> [UInt8] {
            if let last, last.meta == meta, last.updates == updates { return last.bytes }
            let bytes = WebSocket.frame(.text, Array(model.delta(updates, meta: meta).utf8))
            last = (updates, meta, bytes)
            return bytes
        }
    }
}
