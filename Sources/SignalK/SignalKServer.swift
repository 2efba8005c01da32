import Engine
import Marine

/// The Signal K server's protocol, sans-I/O: connections' bytes in, bytes for connections out. HTTP/1.1 requests
/// (discovery, the full model and its branches, PUT, static files) and the WebSocket stream (hello, deltas,
/// subscriptions). The shell owns the sockets and their bounded queues; the model is handed in. A PUT that asks the
/// engine for something comes out as a ``Action/request(_:)``: the shell carries it out through the router and hands
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
        /// The shore's door: nothing without a session but what it lets through (nil on a boat).
        public var gate: Gate?
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
        /// Whether the shell keeps the history (`[history]`, a state file): the features list the History API then.
        public var keepsHistory = true
        /// Whether the shell can send commands to pilots (an NMEA 2000 bus it may write to): the features list the
        /// Autopilot API then, and commands are taken; else they are answered 501.
        public var commandsPilots = false
        /// The paths the history keeps for this boat (the defaults and `[history] paths`).
        public var historyPaths = HistoryBlock.paths
        /// Playbacks at once: each holds up to a chunk of the history read from the card.
        public var maximumPlaybacks = 4

        public init() {}
    }

    /// A file the server serves as it is: its bytes in memory, or mapped by the shell from a file (the panel's), whose
    /// pages the kernel reads when a phone first asks and may drop again.
    public struct StaticFile: @unchecked Sendable {
        public enum Body {
            case bytes([UInt8])
            /// Mapped read-only by the shell, for the server's whole life.
            case mapped(UnsafeRawBufferPointer)
        }

        public var contentType: String
        public var body: Body
        /// The bytes are gzip-compressed (sent with `Content-Encoding: gzip`).
        public var gzipped: Bool

        public init(contentType: String, bytes: [UInt8], gzipped: Bool = false) {
            self.contentType = contentType
            self.body = .bytes(bytes)
            self.gzipped = gzipped
        }

        public init(contentType: String, mapped: UnsafeRawBufferPointer, gzipped: Bool = false) {
            self.contentType = contentType
            self.body = .mapped(mapped)
            self.gzipped = gzipped
        }

        /// The file's bytes (a mapped file's copied out).
        public var bytes: [UInt8] {
            switch body {
            case .bytes(let bytes): bytes
            case .mapped(let buffer): Array(buffer)
            }
        }
    }

    public enum Action: Sendable {
        case send(connection: Int, bytes: [UInt8])
        /// Close once what is queued has gone.
        case close(connection: Int)
        /// Something only the shell can answer (a command for the engine, the settings, a chart's tile, an upload, the
        /// access registry to keep): carried out there and answered with ``answer(_:_:model:at:unixTime:_:)``.
        case request(ShellRequest)
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
        /// A playback of the history (`/signalk/v1/playback`) instead of the live values.
        var playback: Playback?

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
    /// Behind a ``Gate``: each scope's Fleet layout JSON (``Viewer/scope``), and the sessions by their token's digest.
    public var fleetScoped: [String: String] = [:]
    public var viewers: [String: Viewer] = [:]
    /// The clock the history is kept on (the fixes' time, a replay's), for a History API query that says no `to`: "the
    /// last hour" is the last hour of the history's timeline, not of this machine's clock. Nil: the system clock.
    public var historyClock: Double?
    /// The autopilots the shell reads from the bus, the default first (the Autopilot API's devices).
    public var autopilots: [AutopilotStatus] = []
    /// How often it was read: `telltale fleet` makes it every second while someone reads it, seldom while no one does.
    public internal(set) var fleetReads = 0
    var connections: [Int: Connection] = [:]
    /// Stream work begun and not yet done, oldest first (see `resume`).
    var rounds: [StreamRound] = []
    /// Requests out with the shell, by their id, and the next id.
    var pending: [Int: Pending] = [:]
    var nextRequest = 1

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

    public mutating func closed(_ id: Int) {
        connections[id] = nil
        if !pending.isEmpty { pending = pending.filter { $0.value.connection != id } }
    }

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
}
