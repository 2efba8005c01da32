import Fleet
import SignalK

/// One boat's history read back from its batches, for the owner's panel ashore (``FleetHistory``, ``HistoryReadings``).
extension FleetStore {
    /// One boat's batches whose samples reach into a span (by their first and last sample's time), numbered above
    /// `after`, in number order, at most `limit`: (number, the batch's JSON).
    func batches(boat: String, from: Double, to: Double, after: Int64, limit: Int) throws(StoreError)
        -> [(Int64, String)]
    {
        try connection.run(
            "SELECT seq, batch FROM fleet_batches WHERE boat = $1 AND last_time >= \(sql.time(2)) "
                + "AND first_time <= \(sql.time(3)) AND seq > $4 ORDER BY seq LIMIT $5",
            [.text(boat), .real(from), .real(to), .integer(after), .integer(Int64(limit))]
        ).compactMap { row in
            guard let seq = row[0].flatMap({ Int64($0) }), let batch = row[1] else { return nil }
            return (seq, batch)
        }
    }
}
