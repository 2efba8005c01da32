import Engine
import Marine

/// The Signal K server's protocol, sans-I/O: connections' bytes in, bytes for connections out. HTTP/1.1 requests
/// (discovery, the full model and its branches, PUT, static files) and the WebSocket stream (hello, deltas,
/// subscriptions). The shell owns the sockets and their bounded queues; the model is handed in. A PUT that asks the
/// engine for something comes out as a ``Action/command(_:)``: the shell carries it out through the router and hands
/// the outcome back with ``answer(_:_:model:at:unixTime:_:)``; nothing here calls into the shell.
///
/// Everything a client sends is bounded: a request head, a body, a WebSocket message, the messages a second, the
/// subscriptions. A client that breaks a bound is answered with an error (or a close frame) and dropped.
public struct SignalKServer: Sendable {
    public struct Configuration: Sendable {
        public var serverVersion = "0"
        /// Who may PUT.
        public var putRule = NetworkRule(networks: NetworkRule.loopback)
        /// Files served by path (`/` is `/index.html`).
        public var files: [String: StaticFile] = [:]
        public var maximumMessage = 65_536
        /// WebSocket messages a client may send per second, on average; a second's worth more and it is dropped.
        public var messagesPerSecond = 50.0
        /// Messages taken at once (the bucket's depth): a burst past it is skipped unread, so one turn of the loop
        /// never parses more than this many of a client's messages (a flood of 50 cost 0.4 ms of one turn).
        public var messageBurst = 10.0
        /// Connections at once, HTTP and stream together (each holds a descriptor and up to a queue's worth).
        public var maximumConnections = 32
        /// Connections from one address: one device (a phone with a socket leak, a script) cannot take every slot.
        public var maximumPerAddress = 16
        /// Streams at once, and from one address: there are always slots for plain HTTP (discovery, the panel).
        public var maximumStreams = 24
        public var maximumStreamsPerAddress = 12
        /// Seconds a request (head and body) may take from its first byte: a slow-loris client is answered 408.
        public var requestTimeout = 10.0
        /// Seconds an HTTP connection may sit with no request before it is closed (a keep-alive the client forgot,
        /// a socket a phone opened and never used).
        public var idleTimeout = 15.0
        /// Seconds of silence after which a stream is pinged, and after the ping before it is dropped (the
        /// reference server pings every 30 s too).
        public var pingInterval = 30.0
        /// The devices approved and the requests waiting (the shell loads it from the state folder and keeps it
        /// there when ``Action/saveAccess(_:)`` says it changed).
        public var access = AccessRegistry(secret: [])

        public init() {}
    }

    public struct StaticFile: Sendable {
        public var contentType: String
        public var bytes: [UInt8]
        /// The bytes are gzip-compressed (sent with `Content-Encoding: gzip`).
        public var gzipped: Bool

        public init(contentType: String, bytes: [UInt8], gzipped: Bool = false) {
            self.contentType = contentType
            self.bytes = bytes
            self.gzipped = gzipped
        }
    }

    public enum Action: Sendable {
        case send(connection: Int, bytes: [UInt8])
        /// Close once what is queued has gone.
        case close(connection: Int)
        /// A client asks the engine for something: carry it out and hand the outcome to ``answer(_:_:model:at:unixTime:_:)``.
        /// An HTTP connection reads nothing more until then (its answers keep their order).
        case command(CommandRequest)
        /// A client asks for the gateway's settings, or to check or save a configuration: the shell answers with
        /// ``answer(_:status:json:model:at:unixTime:_:)``. The connection reads nothing more until then.
        case settings(SettingsRequest)
        /// The access registry changed: the shell keeps this text (``AccessRegistry/json(tokens:)``) in the state
        /// folder, for ``AccessRegistry/init(json:secret:)`` at the next start.
        case saveAccess(String)
        /// A phone's chart page asks for the list of charts or a tile: the shell answers with
        /// ``answer(_:status:contentType:body:model:at:unixTime:_:)``. The connection reads nothing more until then.
        case chart(ChartRequest)
        /// A piece of a GRIB file a phone sends: the shell writes it and answers with
        /// ``answer(_:status:message:model:at:unixTime:_:)``.
        case upload(UploadRequest)
    }

    /// A command a client sent, and where its answer goes.
    public struct CommandRequest: Hashable, Sendable {
        public var connection: Int
        public var command: EngineCommand
        /// The WebSocket PUT's `requestId`, or nil for an HTTP PUT.
        var requestId: String?
        var overStream: Bool
        var keepAlive: Bool
    }

    public struct Counters: Hashable, Sendable {
        public var requests = 0
        public var streams = 0
        /// Requests and messages refused: malformed, too large, too many, not allowed.
        public var refused = 0
        public var messages = 0
        public var puts = 0
        /// Connections closed by a timeout: a request not finished, an idle keep-alive, a stream that stopped answering.
        public var timedOut = 0
        /// Connections closed to make room for a newcomer (idle HTTP connections of the same address first).
        public var evicted = 0
    }

    struct Connection: Sendable {
        var peer: [UInt8]
        var reader = HTTPRequestReader()
        var socket: WebSocket.Decoder?
        var stream: StreamSubscription?
        var closing = false
        /// A subscription changed: the values it now covers are owed at the next tick.
        var needsCurrent = false
        /// Token bucket for messages.
        var allowance: Double
        var lastMessage: Double
        /// An HTTP PUT's command is out with the shell: the next request waits for its answer.
        var awaiting = false
        /// When the client last sent anything.
        var lastHeard: Double
        /// When the request being read began (its first byte); nil between requests.
        var requestStarted: Double?
        /// When a stream was pinged and has not answered since.
        var pingSent: Double?
        /// The stream's client wants the values held when it subscribes (not `sendCachedValues=false`).
        var sendsCachedValues = true
        /// The token the client presented (its upgrade request's), or the one its access request was given.
        var token: String?
        /// Access requests this stream made and waits on: the registry's id, and the client's own requestId.
        var waitingAccess: [(id: String, clientRequestId: String?)] = []
        /// The last answers to this stream's requests, for its `query` messages.
        var results: [(requestId: String, reply: String)] = []

        mutating func remember(_ requestId: String?, _ reply: String) {
            guard let requestId else { return }
            if results.count >= 16 { results.removeFirst() }
            results.append((requestId, reply))
        }
    }

    public internal(set) var configuration: Configuration
    public internal(set) var counters = Counters()
    /// The forecasts on board (the shell maps them), for the weather API and the chart's wind.
    public var forecast = Forecast()
    /// `telltale fleet`'s boats as the panel's Fleet layout reads them (`GET /telltale/v1/fleet`); nil on a boat, which
    /// answers `{"fleet":false}` there.
    public var fleet: String?
    /// How often it was read: `telltale fleet` makes it every second while someone reads it, seldom while no one does.
    public private(set) var fleetReads = 0
    var connections: [Int: Connection] = [:]
    /// Stream work begun and not yet done, oldest first (see `resume`).
    var rounds: [StreamRound] = []

    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// Who may change things from now on (the shell's `local` networks change as the boat's network comes up).
    public mutating func admit(_ rule: NetworkRule) { configuration.putRule = rule }

    public var connectionCount: Int { connections.count }
    public var streamCount: Int { connections.values.filter { $0.stream != nil }.count }

    /// A client connected from `peer` (4 or 16 address bytes).
    public mutating func opened(_ id: Int, peer: [UInt8], at now: Double) {
        connections[id] = Connection(
            peer: peer, allowance: configuration.messageBurst, lastMessage: now, lastHeard: now)
    }

    public mutating func closed(_ id: Int) { connections[id] = nil }

    /// Bytes from connection `id`.
    public mutating func received(
        _ id: Int, _ bytes: some Collection<UInt8>, model: SignalKModel, at now: Double, unixTime: Double,
        _ act: (Action) -> Void
    ) {
        guard var connection = connections[id], !connection.closing else { return }
        defer { connections[id] = connection }
        connection.lastHeard = now
        connection.pingSent = nil
        if connection.socket != nil {
            socketBytes(id, &connection, Array(bytes), model: model, at: now, unixTime: unixTime, act)
            return
        }
        if connection.reader.buffered == 0 && connection.requestStarted == nil { connection.requestStarted = now }
        connection.reader.feed(bytes)
        process(id, &connection, model: model, at: now, unixTime: unixTime, act)
    }

    /// Handles the requests read so far, until one waits for a command's answer or the connection becomes a stream.
    mutating func process(
        _ id: Int, _ connection: inout Connection, model: SignalKModel, at now: Double, unixTime: Double,
        _ act: (Action) -> Void
    ) {
        while !connection.closing && connection.socket == nil && !connection.awaiting {
            switch connection.reader.next() {
            case .incomplete:
                return
            case .failure(let status):
                counters.refused += 1
                act(.send(connection: id, bytes: HTTPResponse.error(status, "the request was refused")))
                close(id, &connection, act)
            case .request(let request):
                counters.requests += 1
                // The next request's clock starts with its first byte (or now, if some of it came already).
                connection.requestStarted = connection.reader.buffered == 0 ? nil : now
                handle(request, id, &connection, model: model, at: now, unixTime: unixTime, act)
            }
        }
        if connection.socket != nil && !connection.closing {
            let rest = connection.reader.takeRemainder()
            if !rest.isEmpty { socketBytes(id, &connection, rest, model: model, at: now, unixTime: unixTime, act) }
        }
    }

    mutating func close(_ id: Int, _ connection: inout Connection, _ act: (Action) -> Void) {
        connection.closing = true
        act(.close(connection: id))
    }

    // MARK: HTTP

    private mutating func handle(
        _ request: HTTPRequest, _ id: Int, _ connection: inout Connection, model: SignalKModel, at now: Double,
        unixTime: Double, _ act: (Action) -> Void
    ) {
        let keepAlive = request.keepsAlive
        func reply(_ bytes: [UInt8]) {
            act(.send(connection: id, bytes: bytes))
            if !keepAlive { close(id, &connection, act) }
        }
        let path = request.path
        let isRead = request.method == "GET" || request.method == "HEAD"
        if request.method == "OPTIONS" {
            // A browser's CORS preflight, before a PUT from an app served from another origin (the reference server
            // answers it for every origin unless told otherwise: `src/cors.ts`).
            return reply(HTTPResponse.preflight(request, keepAlive: keepAlive))
        }
        if path == "/signalk/v1/stream" || path == "/signalk/v1/stream/" {
            guard request.method == "GET" else {
                return reply(HTTPResponse.error(405, "GET only", keepAlive: keepAlive))
            }
            return upgrade(request, id, &connection, model: model, at: now, unixTime: unixTime, act)
        }
        if path == "/signalk" || path == "/signalk/" {
            guard isRead else { return reply(HTTPResponse.error(405, "GET only", keepAlive: keepAlive)) }
            let host = request.header("host") ?? "localhost"
            let body = SignalKModel.discovery(host: host, serverVersion: configuration.serverVersion)
            return reply(
                HTTPResponse.make(
                    status: 200, body: Array(body.utf8), keepAlive: keepAlive, headOnly: request.method == "HEAD"))
        }
        if path == SignalKModel.trackPath && isRead {
            return reply(
                HTTPResponse.make(
                    status: 200, body: Array(model.trackJSON(since: request.parameter("since")).utf8),
                    keepAlive: keepAlive,
                    headOnly: request.method == "HEAD"))
        }
        if path == "/signalk/v1/api" || path.hasPrefix("/signalk/v1/api/") {
            let components = path.dropFirst("/signalk/v1/api".count).split(separator: "/").map(String.init)
            if request.method == "PUT" {
                return put(
                    components, request, id, &connection, model: model, keepAlive: keepAlive, act)
            }
            guard isRead else { return reply(HTTPResponse.error(405, "GET and PUT only", keepAlive: keepAlive)) }
            guard let body = model.branch(components) else {
                return reply(HTTPResponse.error(404, "no such path", keepAlive: keepAlive))
            }
            return reply(
                HTTPResponse.make(
                    status: 200, body: Array(body.utf8), keepAlive: keepAlive, headOnly: request.method == "HEAD"))
        }
        if path.hasPrefix(Self.accessRequestsPath) || path.hasPrefix(Self.requestsPath) || path == Self.accessAdminPath
            || path.hasPrefix(Self.accessAdminPath + "/")
        {
            return accessRoute(request, id, &connection, keepAlive: keepAlive, unixTime: unixTime, act)
        }
        if path == Self.weatherAPIPath || path.hasPrefix(Self.weatherAPIPath + "/") {
            return weatherAPI(request, id, &connection, unixTime: unixTime, keepAlive: keepAlive, act)
        }
        if path == Self.weatherPagePath || path.hasPrefix(Self.weatherPagePath + "/") {
            return weatherPage(request, id, &connection, model: model, unixTime: unixTime, keepAlive: keepAlive, act)
        }
        if path == "/signalk/v2" || path.hasPrefix("/signalk/v2/") {
            return version2(request, id, &connection, model: model, keepAlive: keepAlive, act)
        }
        if path == Self.settingsPath || path.hasPrefix(Self.settingsPath + "/") {
            return settings(request, id, &connection, keepAlive: keepAlive, act)
        }
        if path == Self.chartsPath || path.hasPrefix(Self.chartsPath + "/") {
            return charts(request, id, &connection, keepAlive: keepAlive, act)
        }
        guard isRead else { return reply(HTTPResponse.error(405, "GET only", keepAlive: keepAlive)) }
        if path == "/telltale/v1/fleet" {
            // A boat says it is none (every panel asks once at start, and a 404 there is an error in its console).
            let body = fleet ?? #"{"fleet":false}"#
            if fleet != nil { fleetReads += 1 }
            return reply(
                HTTPResponse.make(
                    status: 200, body: Array(body.utf8), keepAlive: keepAlive, headOnly: request.method == "HEAD"))
        }
        if path == "/telltale/v1/history" {
            return reply(
                HTTPResponse.make(
                    status: 200, body: Array(model.history.json().utf8), keepAlive: keepAlive,
                    headOnly: request.method == "HEAD"))
        }
        let name = path == "/" ? "/index.html" : path
        guard let file = configuration.files[name] else {
            return reply(HTTPResponse.error(404, "not found", keepAlive: keepAlive))
        }
        let accepts = request.tokens("accept-encoding").contains { $0 == "gzip" || $0.hasPrefix("gzip;") }
        guard !file.gzipped || accepts else {
            return reply(HTTPResponse.error(406, "this file is served gzip-compressed only", keepAlive: keepAlive))
        }
        reply(
            HTTPResponse.make(
                status: 200, contentType: file.contentType, body: file.bytes, keepAlive: keepAlive,
                headers: file.gzipped ? [("Content-Encoding", "gzip")] : [], headOnly: request.method == "HEAD"))
    }
}
