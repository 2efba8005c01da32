/// Playback of the history kept on the card, as signalk-server serves it to Freeboard-SK and WilhelmSK: a WebSocket at
/// `/signalk/v1/playback?startTime=<ISO 8601>&playbackRate=<n>` (`subscribe=self|all|none`), a hello that repeats the
/// start time and rate, then the history's deltas from the start time on, each stamped with its own time, paced at
/// `playbackRate` seconds of history a second. Without anything kept from the start time on it says `No data found`
/// and closes (as the reference does); at the end of what is kept it closes with 1000.
///
/// Sans-I/O like the rest of the server: the history is asked of the shell a chunk at a time
/// (``HistoryRequest/playback(from:to:)``, the blocks as they lie on the card), held as bytes, and decoded a minute
/// at a time as the ticks reach it, so a playback holds at most a chunk (ten minutes of history at the most).
extension SignalKServer {
    static let playbackPath = "/signalk/v1/playback"
    /// The fastest playback: an hour of history in 3.6 seconds.
    static let fastestPlayback = 1000.0
    /// The most seconds of history sent in one tick to one client: past it the playback goes on at the next tick.
    static let playbackSecondsPerTick = 300

    struct Playback: Sendable {
        /// Where the playback began, on the history's clock (UNIX seconds), and how fast it goes.
        var start: Double
        var rate: Double
        /// When it began, on the server's monotonic clock; nil until the first tick.
        var begun: Double?
        /// `subscribe=all`: the AIS vessels kept too; `none`: nothing.
        var vessels: Bool
        var silent: Bool
        /// The history asked of the shell up to here (UNIX seconds, exclusive), and whether an ask is out.
        var fetched: Double
        var asking = false
        /// Blocks received and not yet sent, and where the next one begins.
        var blocks: [UInt8] = []
        var offset = 0
        /// The minute being sent (this boat's block and the vessels'), and its next second.
        var minute: [HistoryBlock.Decoded] = []
        var second = 0
        /// The shell said nothing is kept from `fetched` on.
        var ended = false
        var sentAny = false

        /// The history's time the playback has reached at `now`.
        func position(at now: Double) -> Double { start + ((begun.map { now - $0 }) ?? 0) * rate }
        /// How much history is asked for at once.
        var chunk: Double { min(600, max(60, rate * 30)) }
    }

    /// The upgrade of `/signalk/v1/playback`.
    mutating func upgradePlayback(
        _ request: HTTPRequest, _ id: Int, _ connection: inout Connection, model: SignalKModel, unixTime: Double,
        _ act: (Action) -> Void
    ) {
        func refuse(_ status: Int, _ message: String) {
            counters.refused += 1
            act(.send(connection: id, bytes: HTTPResponse.error(status, message)))
            close(id, &connection, act)
        }
        guard request.tokens("upgrade").contains("websocket"), let key = request.header("sec-websocket-key"),
            request.header("sec-websocket-version") == "13"
        else { return refuse(426, "a WebSocket upgrade is required") }
        guard let text = request.parameter("startTime"), let start = SignalKTime.unixTime(text) else {
            return refuse(400, "startTime is a required query parameter for playback connections (ISO 8601)")
        }
        var rate = 1.0
        if let text = request.parameter("playbackRate") {
            guard let value = Double(text), value.isFinite, value > 0, value <= Self.fastestPlayback else {
                return refuse(400, "playbackRate: a number above 0, at most \(Int(Self.fastestPlayback))")
            }
            rate = value
        }
        let playing = connections.values.filter { $0.playback != nil && !$0.closing }.count
        guard streamAllowed(for: connection.peer), playing < configuration.maximumPlaybacks else {
            return refuse(503, "too many streams")
        }
        var head = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        head += "Sec-WebSocket-Accept: \(WebSocket.acceptKey(for: key))\r\n\r\n"
        act(.send(connection: id, bytes: Array(head.utf8)))
        connection.socket = WebSocket.Decoder(maximumMessage: configuration.maximumMessage)
        counters.streams += 1
        var json = JSONWriter()
        json.beginObject()
        json.value("name", "telltale")
        json.value("version", configuration.serverVersion)
        json.value("self", model.context)
        json.beginArray("roles")
        json.value(nil, "master")
        json.value(nil, "main")
        json.endArray()
        json.value("timestamp", SignalKTime.text(unixTime: unixTime))
        json.value("startTime", SignalKTime.text(unixTime: start))
        json.value("playbackRate", rate)
        json.endObject()
        act(.send(connection: id, bytes: WebSocket.frame(.text, Array(json.text.utf8))))
        let subscribe = request.parameter("subscribe")
        connection.playback = Playback(
            start: start, rate: rate, vessels: subscribe == "all", silent: subscribe == "none",
            fetched: (start / 60).rounded(.down) * 60)
    }

    /// The series the playback reads blocks with: the defaults and those `[history] paths` adds.
    var playbackCatalog: [HistoryBlock.Series] {
        HistoryBlock.catalog(
            adding: configuration.historyPaths.filter { !HistoryBlock.paths.contains($0) }.map {
                HistoryBlock.named($0, isAngle: false)
            })
    }

    /// Each playback's history that has come due at `now`, and the next chunk asked for when it runs short.
    mutating func tickPlaybacks(model: SignalKModel, at now: Double, _ act: (Action) -> Void) {
        let playing = connections.filter { $0.value.playback != nil && !$0.value.closing }.map { $0.key }.sorted()
        guard !playing.isEmpty else { return }
        let catalog = playbackCatalog
        for id in playing {
            guard var connection = connections[id], var playback = connection.playback else { continue }
            if playback.begun == nil { playback.begun = now }
            let until = playback.position(at: now)
            var seconds = 0
            sending: while seconds < Self.playbackSecondsPerTick {
                if playback.minute.isEmpty && !nextMinute(&playback, catalog: catalog) { break }
                while playback.second < 60 {
                    let first = playback.minute[0]
                    let time = Double(first.minute) * 60 + Double(playback.second)
                    if time > until { break sending }
                    if time >= playback.start && !playback.silent {
                        for decoded in playback.minute where decoded.context == nil || playback.vessels {
                            if let text = Self.playbackDelta(
                                decoded, second: playback.second, catalog: catalog, own: model.context)
                            {
                                act(.send(connection: id, bytes: WebSocket.frame(.text, Array(text.utf8))))
                                playback.sentAny = true
                            }
                        }
                    }
                    playback.second += 1
                    seconds += 1
                    if seconds >= Self.playbackSecondsPerTick { break }
                }
                if playback.second >= 60 {
                    playback.minute = []
                    playback.second = 0
                }
            }
            let buffered = playback.offset < playback.blocks.count || !playback.minute.isEmpty
            if !playback.asking && !playback.ended && (!buffered || playback.fetched < until + playback.chunk / 2)
                && playback.fetched < until + playback.chunk
            {
                playback.asking = true
                let from = playback.fetched
                playback.fetched += playback.chunk
                ask(
                    .history(.playback(from: from, to: from + playback.chunk)), id, &connection, keepAlive: true,
                    playback: true, act)
            } else if playback.ended && !buffered {
                if !playback.sentAny {
                    act(.send(connection: id, bytes: WebSocket.frame(.text, Array("\"No data found\"".utf8))))
                }
                act(.send(connection: id, bytes: WebSocket.closeFrame(1000)))
                close(id, &connection, act)
            }
            connection.playback = playback
            connections[id] = connection
        }
    }

    /// The next minute's blocks (this boat's and the vessels' of the same minute) decoded from what was received;
    /// false when none is left.
    private func nextMinute(_ playback: inout Playback, catalog: [HistoryBlock.Series]) -> Bool {
        var group: [HistoryBlock.Decoded] = []
        playback.blocks.withUnsafeBytes { raw in
            while playback.offset < raw.count {
                guard let (decoded, next) = HistoryBlock.decode(raw, at: playback.offset, catalog: catalog) else {
                    playback.offset = raw.count
                    break
                }
                if let first = group.first, first.minute != decoded.minute { break }
                group.append(decoded)
                playback.offset = next
            }
        }
        if playback.offset >= playback.blocks.count {
            playback.blocks = []
            playback.offset = 0
        }
        // The boat's block first: its deltas go out before the vessels' of the same second.
        group.sort { ($0.context == nil ? 0 : 1) < ($1.context == nil ? 0 : 1) }
        playback.minute = group
        playback.second = 0
        return !group.isEmpty
    }

    /// The shell's chunk of history for a playback.
    mutating func playbackAnswer(_ id: Int, _ reply: ShellReply, at now: Double) {
        guard var connection = connections[id], var playback = connection.playback, !connection.closing else { return }
        playback.asking = false
        if case .file(let status, _, let body) = reply, status == 200 {
            let rest = playback.offset < playback.blocks.count ? Array(playback.blocks[playback.offset...]) : []
            playback.blocks = rest + body
            playback.offset = 0
        } else {
            playback.ended = true
        }
        connection.playback = playback
        connections[id] = connection
    }

    /// One second of a decoded minute as a delta (its context, `telltale.history`, the second's time), or nil when
    /// the minute has nothing at that second.
    static func playbackDelta(
        _ decoded: HistoryBlock.Decoded, second: Int, catalog: [HistoryBlock.Series], own: String
    ) -> String? {
        func at(_ index: Int) -> Double? {
            index < decoded.values.count ? decoded.values[index][second] : nil
        }
        var values: [(path: String, value: SignalKValue)] = []
        if let latitude = at(0), let longitude = at(1) {
            values.append(("navigation.position", .position(latitude: latitude, longitude: longitude)))
        }
        let count = decoded.context == nil ? min(catalog.count, decoded.values.count) : HistoryBlock.vesselSeries
        for index in 2..<max(2, count) where index != 12 && index != 13 {
            if let value = at(index) { values.append((catalog[index].path, .number(value))) }
        }
        if decoded.context == nil, at(12) != nil || at(13) != nil {
            values.append(("navigation.attitude", .attitude(roll: at(12), pitch: at(13), yaw: nil)))
        }
        guard !values.isEmpty else { return nil }
        return SignalKModel.delta(
            context: decoded.context ?? own, source: "telltale.history",
            timestamp: SignalKTime.text(unixTime: Double(decoded.minute) * 60 + Double(second)), values: values)
    }
}
