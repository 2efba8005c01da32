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
        var head = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        head += "Sec-WebSocket-Accept: \(WebSocket.acceptKey(for: key))\r\n\r\n"
        act(.send(connection: id, bytes: Array(head.utf8)))
        connection.socket = WebSocket.Decoder(maximumMessage: configuration.maximumMessage)
        let stream = StreamSubscription(query: request.parameter("subscribe"))
        counters.streams += 1
        act(
            .send(
                connection: id,
                bytes: WebSocket.frame(.text, Array(model.hello(name: "telltale", unixTime: unixTime).utf8))))
        // The values held now go out at the next tick, with those of every other client that joined meanwhile:
        // the whole model as JSON is the costliest thing a client can ask for, and 200 clients connecting at once
        // would otherwise each cost it inside a turn of the loop that a sentence may be waiting behind.
        connection.needsCurrent = true
        connection.stream = stream
    }

    /// The values the model holds now, to a client that has just subscribed.
    func sendCurrent(
        _ id: Int, _ stream: inout StreamSubscription, model: SignalKModel, at now: Double, _ act: (Action) -> Void
    ) {
        var current: [SignalKModel.Update] = []
        for path in model.entries.keys.sorted() {
            for entry in model.entries[path] ?? [] {
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
        command: (Command) -> Bool, _ act: (Action) -> Void
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
                streamMessage(payload, id, &connection, model: model, at: now, command: command, act)
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

    private mutating func streamMessage(
        _ payload: [UInt8], _ id: Int, _ connection: inout Connection, model: SignalKModel, at now: Double,
        command: (Command) -> Bool, _ act: (Action) -> Void
    ) {
        guard let message = JSONValue.parse(payload, maximumLength: configuration.maximumMessage),
            var stream = connection.stream
        else {
            counters.refused += 1
            return
        }
        if let put = message["put"] {
            let requestId = message["requestId"]?.string
            guard let path = put["path"]?.string else {
                counters.refused += 1
                return
            }
            let (status, text) = apply(path, value: put["value"], peer: connection.peer, command: command)
            let reply = Self.putResult(status, text, requestId: requestId)
            act(.send(connection: id, bytes: WebSocket.frame(.text, Array(reply.utf8))))
            return
        }
        let before = stream.subscriptions
        guard stream.apply(message, selfContext: model.context) else {
            counters.refused += 1
            return
        }
        // What a new subscription covers goes out at the next tick, once however many subscribe messages came in
        // between (matching every value against every pattern for each message of a flood held the loop for
        // milliseconds); a repeated subscribe changes nothing and sends nothing.
        if stream.subscriptions != before { connection.needsCurrent = true }
        connection.stream = stream
    }
}
