import Engine

/// What the protocol cannot answer itself goes to the shell as one ``Action/request(_:)``, and comes back as one
/// ``answer(_:_:model:at:unixTime:_:)``: a command for the engine, the gateway's settings, a chart's tile, a piece of
/// an upload, the access registry to keep. The server remembers where each answer goes (its connection, whether it
/// came over the stream, what the HTTP answer must say); an HTTP connection reads nothing more until its request is
/// answered, so answers keep their order. Adding a request the shell answers is a case here and a case in the shell's
/// one dispatcher.
extension SignalKServer {
    /// A request for the shell, with the id its answer is given under.
    public struct ShellRequest: Hashable, Sendable {
        public enum Kind: Hashable, Sendable {
            /// A crew's command for the engine (a PUT, over HTTP or the stream, or the Course API): answered with
            /// ``ShellReply/outcome(_:)``.
            case command(EngineCommand)
            /// The gateway's settings read, a configuration checked or saved: ``ShellReply/json(status:_:)``.
            case settings(SettingsRequest.Kind)
            /// The chart list or a tile: ``ShellReply/file(status:contentType:body:)``.
            case chart(ChartRequest.Kind)
            /// A piece of a GRIB file a phone sends: ``ShellReply/message(status:_:)``.
            case upload(UploadPiece)
            /// The NMEA 2000 bus's devices, what each sends and how often (`GET /telltale/v1/n2k`, read by
            /// `telltale n2k`): ``ShellReply/json(status:_:)``.
            case bus
            /// The resources kept (the Resources API): ``ShellReply/json(status:_:)``.
            case resource(ResourceRequest)
            /// Go to a waypoint or follow a route kept, by its href (the Course API): ``ShellReply/outcome(_:)``.
            case course(CourseTarget)
            /// The history kept on the card (the History API): ``ShellReply/json(status:_:)``.
            case history(HistoryRequest)
            /// A command for the autopilot named by its device id (the Autopilot API): ``ShellReply/message(status:_:)``.
            case autopilot(String, AutopilotCommand)
            /// What `telltale fleet` keeps, under `/telltale/v1/fleet/...` (tracks over a span, a boat's track as
            /// GPX): ``ShellReply/file(status:contentType:body:)``.
            case fleet(FleetRequest)
            /// The tide on board (`GET /telltale/v1/tides`: the curve, the events, the streams) or the current stations
            /// of an area at a time (`/telltale/v1/tides/currents`): ``ShellReply/json(status:_:)``.
            case tides(FleetRequest)
            /// The weather router on board (`/telltale/v1/routing`): its state and last plan (GET), a passage to plan
            /// (POST, JSON), the planning stopped (DELETE): ``ShellReply/json(status:_:)``.
            case routing(JobAsk)
            /// The calibration learnt from sailing on board (`/telltale/v1/calibration`): the applied one and the last
            /// report (GET), learn now (POST), apply what was learnt (PUT), take the applied one off (DELETE):
            /// ``ShellReply/json(status:_:)``. Its `/polar` (the learnt polar against the configured one; PUT chooses
            /// which the engine sails by), `/polar.csv` and `/polar.pol` (the learnt polar to download).
            case calibration(JobAsk)
            /// A login or a logout at the shore's door (``Gate``): ``ShellReply/session(status:_:cookie:)``.
            case login(LoginAsk)
            /// The access registry changed: keep this text in the state folder (``AccessRegistry/json(tokens:)``).
            /// No answer is awaited.
            case keepAccess(String)
        }

        public var id: Int
        public var kind: Kind
    }

    /// A read of what the shell keeps under a path (the fleet's store under `/telltale/v1/fleet/`, the tides under
    /// `/telltale/v1/tides`): the path below it and the query's parameters.
    public struct FleetRequest: Hashable, Sendable {
        public var path: String
        public var parameters: [String: String]
        /// Behind the shore's door: the boats the asker may see (nil: every boat, or no door), and its role.
        public var boats: Set<String>?
        public var role: String?
        /// Behind the door, the asker's account; a POST's body (a phone's push subscription).
        public var name: String?
        public var body: [UInt8] = []

        public init(path: String, parameters: [String: String]) {
            self.path = path
            self.parameters = parameters
        }
    }

    /// A request to a job the gateway runs in a child process (the weather router, the calibration learner): its
    /// method and body.
    public struct JobAsk: Hashable, Sendable {
        public var method: String
        public var body: [UInt8]
        /// What follows the job's own path (`/polar.csv` after `/telltale/v1/calibration`), empty for the job itself.
        public var rest: String

        public init(method: String, body: [UInt8], rest: String = "") {
            self.method = method
            self.body = body
            self.rest = rest
        }
    }

    /// A piece of a GRIB file a phone is sending, for the shell to write into the weather folder's uploads.
    public struct UploadPiece: Hashable, Sendable {
        /// The file's name (letters, digits, `.`, `_`, `-`), where this piece goes in it, and its whole length.
        public var name: String
        public var offset: Int
        public var total: Int
        public var bytes: [UInt8]

        public init(name: String, offset: Int, total: Int, bytes: [UInt8]) {
            self.name = name
            self.offset = offset
            self.total = total
            self.bytes = bytes
        }
    }

    /// The shell's answer to a ``ShellRequest``.
    public enum ShellReply: Hashable, Sendable {
        /// The engine's outcome: 200 with what was done, 409 with why not.
        case outcome(CommandOutcome)
        /// A JSON body.
        case json(status: Int, String)
        /// A file's bytes (a chart's tile or its list).
        case file(status: Int, contentType: String, body: [UInt8])
        /// A status and its words, as Signal K's request result.
        case message(status: Int, String)
        /// A JSON body and a `Set-Cookie` header (a session begun or ended).
        case session(status: Int, String, cookie: String)
    }

    /// Where a request's answer goes.
    struct Pending: Sendable {
        var connection: Int
        var keepAlive: Bool
        /// The WebSocket PUT's `requestId` when it came over the stream (its answer is a message, not a response).
        var overStream: Bool
        var requestId: String?
        var headOnly: Bool
        /// A tile's answer may be cached by the phone; anything else is not.
        var cacheable: Bool
        /// A playback's chunk of history: kept by the playback, not sent.
        var playback = false
    }

    /// Hands `kind` to the shell; an HTTP connection waits for the answer before its next request.
    mutating func ask(
        _ kind: ShellRequest.Kind, _ id: Int, _ connection: inout Connection, keepAlive: Bool,
        overStream: Bool = false, requestId: String? = nil, headOnly: Bool = false, cacheable: Bool = false,
        playback: Bool = false, _ act: (Action) -> Void
    ) {
        let request = nextRequest
        nextRequest &+= 1
        pending[request] = Pending(
            connection: id, keepAlive: keepAlive, overStream: overStream, requestId: requestId, headOnly: headOnly,
            cacheable: cacheable, playback: playback)
        if !overStream && !playback { connection.awaiting = true }
        act(.request(ShellRequest(id: request, kind: kind)))
    }

    /// Whether requests are out with the shell.
    public var pendingRequests: Int { pending.count }

    /// The shell's answer to request `id`: to whoever asked, then the requests that waited behind it. An answer to a
    /// connection gone meanwhile, or to a request never made, is dropped.
    public mutating func answer(
        _ id: Int, _ reply: ShellReply, model: SignalKModel, at now: Double, unixTime: Double, _ act: (Action) -> Void
    ) {
        guard let waiting = pending.removeValue(forKey: id) else { return }
        if waiting.playback { return playbackAnswer(waiting.connection, reply, at: now) }
        guard var connection = connections[waiting.connection], !connection.closing else { return }
        defer { connections[waiting.connection] = connection }
        let (status, body, contentType) = Self.response(reply)
        if waiting.overStream {
            let text = Self.putResult(status, Self.message(reply), requestId: waiting.requestId)
            connection.remember(waiting.requestId, text)
            act(.send(connection: waiting.connection, bytes: WebSocket.frame(.text, Array(text.utf8))))
            return
        }
        connection.awaiting = false
        var cache: [(String, String)] =
            if case .file = reply {
                [("Cache-Control", waiting.cacheable && status == 200 ? "max-age=86400" : "no-store")]
            } else { [] }
        if case .session(_, _, let cookie) = reply { cache += [("Set-Cookie", cookie), ("Cache-Control", "no-store")] }
        act(
            .send(
                connection: waiting.connection,
                bytes: HTTPResponse.make(
                    status: status, contentType: contentType, body: body, keepAlive: waiting.keepAlive,
                    headers: cache, headOnly: waiting.headOnly)))
        if !waiting.keepAlive { return close(waiting.connection, &connection, act) }
        process(waiting.connection, &connection, model: model, at: now, unixTime: unixTime, act)
    }

    /// The HTTP status, body and content type a reply is sent with.
    static func response(_ reply: ShellReply) -> (Int, [UInt8], String) {
        let json = "application/json"
        switch reply {
        case .outcome(let outcome):
            let status = outcome.isDone ? 200 : 409
            return (status, Array(putResult(status, outcome.message, requestId: nil).utf8), json)
        case .json(let status, let text), .session(let status, let text, _): return (status, Array(text.utf8), json)
        case .file(let status, let type, let body): return (status, body, type)
        case .message(let status, let text): return (status, Array(putResult(status, text, requestId: nil).utf8), json)
        }
    }

    /// A reply's words, for a request result sent over the stream.
    static func message(_ reply: ShellReply) -> String {
        switch reply {
        case .outcome(let outcome): outcome.message
        case .message(_, let text), .json(_, let text), .session(_, let text, _): text
        case .file(let status, _, _): "\(status)"
        }
    }
}
