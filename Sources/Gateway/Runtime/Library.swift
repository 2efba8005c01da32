import Engine
import Platform
import SignalK

/// The crew's files on the card and what the panel asks of them: the charts folder's MBTiles and the base map, the
/// forecasts a phone sends, the Resources API's routes, waypoints, notes and regions (one file a resource), the
/// boat's history. Each answers its own requests; nothing of them is the engine's.
struct Library {
    let charts: ChartLibrary
    let uploads: GRIBUploads
    let resources: ResourceFolder
    /// The history on the card, when kept (`[history]`, a state file, and the model of `[web]` or `[uplink]`).
    let history: HistoryStore?

    /// The History API from the history on the card; `own` is the boat's own context (`vessels.<urn>`).
    func answerHistory(_ asked: SignalKServer.HistoryRequest, own: String?) -> SignalKServer.ShellReply {
        guard let history, let own else {
            return .message(status: 404, "no history is kept: [history] needs state_file and [web]")
        }
        switch asked {
        case .values(let query):
            return .json(status: 200, history.answer(query, context: own))
        case .paths(let from, let to, let context):
            let paths = history.paths(from: from, to: to, context: context)
            return .json(status: 200, "[" + paths.map(JSONWriter.quoted).joined(separator: ",") + "]")
        case .contexts(let from, let to):
            let contexts = history.contexts(from: from, to: to).map { $0 ?? own }
            return .json(status: 200, "[" + contexts.map(JSONWriter.quoted).joined(separator: ",") + "]")
        case .playback(let from, let to):
            guard let bytes = history.blocks(from: from, to: to) else {
                return .message(status: 404, "nothing is kept from then on")
            }
            return .file(status: 200, contentType: "application/octet-stream", body: bytes)
        }
    }

    /// A chart, a resource, or a forecast sent from a phone: answered from the card. `id` makes a new resource's id.
    func answer(_ kind: SignalKServer.ShellRequest.Kind, now: Double, unixTime: Double) -> SignalKServer.ShellReply? {
        switch kind {
        case .chart(let kind):
            let (status, contentType, body) = charts.answer(kind, now: now)
            return .file(status: status, contentType: contentType, body: body)
        case .upload(let piece):
            let (status, message) = uploads.receive(piece)
            return .message(status: status, message)
        case .resource(let asked):
            if asked.kind == .charts {
                let (status, json) = charts.resources(asked.operation, now: now)
                return .json(status: status, json)
            }
            let (status, json) = resources.answer(asked, unixTime: unixTime) {
                (try? POSIX.randomBytes(16)) ?? Array(String(unixTime).utf8)
            }
            return .json(status: status, json)
        default:
            return nil
        }
    }
}
