import Fleet
import Gateway
import SignalK

/// The owner's boat from home: one boat's values as the panel's own layouts read them, and the charts ashore.
extension ShoreWeb {
    /// `boats/<id>/values`: the boat's latest values, its link and alarms (``FleetModel/boatJSON(_:at:)``);
    /// `boats/<id>/history/values?paths=&from=&to=&resolution=`: its history from the store, as the History API
    /// (``FleetHistory``). For those who see the boat; read-only: nothing here reaches the boat.
    func boat(_ asked: SignalKServer.FleetRequest, _ fleet: FleetModel, request: Int, at unix: Double)
        -> SignalKServer.ShellReply?
    {
        let parts = asked.path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3 || (parts.count == 4 && parts[2] == "history"), FleetModel.isValidBoat(parts[1]) else {
            return .message(status: 404, "boats/<id>/values, boats/<id>/history/values")
        }
        let id = parts[1]
        guard asked.boats?.contains(id) ?? true else { return .message(status: 403, "not a boat of yours") }
        if parts.count == 3 {
            guard let json = fleet.boatJSON(id, at: unix) else {
                return .message(status: 404, "\(id) has not been heard")
            }
            return .json(status: 200, json)
        }
        let query: HistoryQuery
        switch FleetHistory.query(asked.parameters.map { ($0.key, $0.value) }, now: fleet.clock(id, at: unix) ?? unix) {
        case .failure(let error): return .message(status: 400, error.message)
        case .success(let asked): query = asked
        }
        // Read a page at a time between the other requests, answered when done (nil: no answer now).
        guard histories.add(request, boat: id, query) else {
            return .message(status: 503, "too many history queries at once: ask again in a moment")
        }
        return nil
    }

    /// The charts ashore: the offline base map (`--basemap`, else the package's), MBTiles files only from a folder
    /// `--charts` names; the online layers a phone at home may switch on, as on board.
    static func charts(_ options: FleetOptions, log: Log) -> ChartLibrary {
        var configuration = ChartConfiguration()
        configuration.folder = options.charts
        configuration.baseMap = options.baseMap
        let charts = ChartLibrary(configuration) { text in
            log.warning("fleet.basemap", "fleet: \(text)", [("device", "fleet")])
        }
        if let (folder, resolutions) = charts.baseMapFound {
            log.info(
                "fleet.basemap", "fleet: the base map from \(folder) (\(resolutions) resolutions)",
                [("device", "fleet")])
        }
        return charts
    }
}
