/// The History API v2 (`/signalk/v2/api/history/{values,contexts,paths,_providers}`, signalk-server's
/// `docs/develop/rest-api/history_api.md`): the query checked here, answered by the shell from the history on the card.
extension SignalKServer {
    static let historyPath = "/signalk/v2/api/history"

    /// What the shell is asked about the history kept.
    public enum HistoryRequest: Hashable, Sendable {
        case values(HistoryQuery)
        /// The paths kept for a context (nil: this boat).
        case paths(from: Double, to: Double, context: String?)
        case contexts(from: Double, to: Double)
        /// The blocks of the minutes in a range as they lie on the card, for a playback
        /// (``ShellReply/file(status:contentType:body:)``; 404 when nothing is kept from `from` on).
        case playback(from: Double, to: Double)
    }

    /// Whether `context` names a vessel the history may keep (one heard on AIS: `vessels.urn:mrn:imo:mmsi:` or
    /// `sar.urn:mrn:imo:mmsi:` and nine digits).
    static func isVesselContext(_ context: String) -> Bool {
        for prefix in ["vessels.urn:mrn:imo:mmsi:", "sar.urn:mrn:imo:mmsi:"] where context.hasPrefix(prefix) {
            let digits = context.utf8.dropFirst(prefix.utf8.count)
            return digits.count == 9 && digits.allSatisfy { $0 >= 48 && $0 <= 57 }
        }
        return false
    }

    mutating func historyAPI(
        _ request: HTTPRequest, _ id: Int, _ connection: inout Connection, model: SignalKModel, unixTime: Double,
        keepAlive: Bool, _ act: (Action) -> Void
    ) {
        func refuse(_ status: Int, _ message: String) {
            respond(id, &connection, status, Resources.result(status, message: message), keepAlive: keepAlive, act)
        }
        guard request.method == "GET" || request.method == "HEAD" else { return refuse(405, "GET only") }
        let path = request.path.hasSuffix("/") ? String(request.path.dropLast()) : request.path
        let action = String(path.dropFirst(Self.historyPath.count))
        if action == "/_providers" {
            return respond(id, &connection, 200, #"{"telltale":{"isDefault":true}}"#, keepAlive: keepAlive, act)
        }
        if action == "/_providers/_default" {
            return respond(id, &connection, 200, #"{"id":"telltale"}"#, keepAlive: keepAlive, act)
        }
        // This boat's history, or a vessel's heard on AIS.
        var vessel: String?
        if let context = request.parameter("context"), context != "vessels.self", context != model.context {
            guard Self.isVesselContext(context) else {
                return refuse(404, "the history kept here is this boat's (vessels.self) and the AIS vessels'")
            }
            vessel = context
        }
        switch action {
        case "/values":
            let kept = vessel == nil ? configuration.historyPaths : HistoryBlock.vesselPaths
            switch HistoryQuery.parse(request.query, now: historyClock ?? unixTime, kept: kept) {
            case .success(var query):
                query.context = vessel
                ask(
                    .history(.values(query)), id, &connection, keepAlive: keepAlive, headOnly: request.method == "HEAD",
                    act)
            case .failure(let error): refuse(400, error.message)
            }
        case "/paths", "/contexts":
            // The range alone: any path will do for the parser.
            var query = request.query.filter { $0.0 != "paths" && $0.0 != "resolution" }
            query.append(("paths", "navigation.speedOverGround"))
            if !query.contains(where: { $0.0 == "from" || $0.0 == "duration" }) { query.append(("duration", "P1D")) }
            switch HistoryQuery.parse(query + [("resolution", "86400")], now: historyClock ?? unixTime) {
            case .success(let range):
                let kind: HistoryRequest =
                    action == "/paths"
                    ? .paths(from: range.from, to: range.to, context: vessel)
                    : .contexts(from: range.from, to: range.to)
                ask(.history(kind), id, &connection, keepAlive: keepAlive, headOnly: request.method == "HEAD", act)
            case .failure(let error): refuse(400, error.message)
            }
        default:
            refuse(404, "not found")
        }
    }
}
