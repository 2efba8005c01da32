import SignalK

/// A boat's history ashore, as the History API gives it on board (`/telltale/v1/fleet/boats/<id>/history/values`,
/// the same query and answer as `/signalk/v2/api/history/values`): read from the uplink's batches the store keeps,
/// each batch's samples put into the minutes ``HistoryAggregator`` reads. The panel's history tiles and the chart's
/// passage then draw the boat's past from home as they do on board.
public enum FleetHistory {
    /// The longest span asked at once ashore: a day and an hour (every batch of it is read).
    public static let longestRange = 25 * 3_600.0

    /// The query, with the boat's own clock as `now` (a replay's year, a boat whose clock is not the shore's), or the
    /// words of a 400.
    public static func query(_ parameters: [(String, String)], now: Double) -> Result<HistoryQuery, ResourceError> {
        switch HistoryQuery.parse(parameters, now: now) {
        case .failure(let error): return .failure(error)
        case .success(let query):
            guard query.context == nil else { return .failure(ResourceError("the boat's own history only")) }
            guard query.to - query.from <= longestRange else {
                return .failure(ResourceError("from and to: a day at most ashore"))
            }
            return .success(query)
        }
    }

    /// The minutes of some samples (one batch's), in time order, by the catalog's series: numbers by their path, the
    /// position as its latitude and longitude, the attitude as its roll and pitch. A sample whose time cannot be read,
    /// or that no series keeps, is passed over; the newest of a second wins.
    public static func minutes(
        of samples: [UplinkSample], catalog: [HistoryBlock.Series] = HistoryBlock.series
    ) -> [HistoryBlock.Decoded] {
        var byMinute: [Int64: [[Double?]]] = [:]
        func keep(_ path: String, _ value: Double?, _ minute: Int64, _ second: Int) {
            guard let value, value.isFinite, let index = catalog.firstIndex(where: { $0.path == path }) else { return }
            var values = byMinute[minute] ?? Array(repeating: Array(repeating: nil, count: 60), count: catalog.count)
            values[index][second] = value
            byMinute[minute] = values
        }
        for sample in samples {
            guard let time = SignalKTime.unixTime(sample.timestamp), time.isFinite, abs(time) < 1e11 else { continue }
            let minute = Int64((time / 60).rounded(.down))
            let second = min(59, max(0, Int(time - Double(minute) * 60)))
            switch sample.value {
            case .number(let value):
                keep(sample.path, value, minute, second)
            case .position(let latitude, let longitude) where sample.path == "navigation.position":
                guard abs(latitude) <= 90, abs(longitude) <= 180 else { continue }
                keep("navigation.position.latitude", latitude, minute, second)
                keep("navigation.position.longitude", longitude, minute, second)
            case .attitude(let roll, let pitch, _) where sample.path == "navigation.attitude":
                keep("navigation.attitude.roll", roll, minute, second)
                keep("navigation.attitude.pitch", pitch, minute, second)
            default:
                continue
            }
        }
        return byMinute.keys.sorted().map { HistoryBlock.Decoded(minute: $0, values: byMinute[$0] ?? []) }
    }
}
