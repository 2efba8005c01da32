import Fleet
import SignalK

/// What the web sides and the race office read: batches since a time, spans and days kept, tracks, a boat's batch
/// numbers, the boats' links and alarms.
extension FleetStore {
    /// Batches stored since `received` (UNIX seconds), oldest first, at most `limit`: (received, boat, number, the
    /// batch's JSON).
    func batches(since received: Double, limit: Int) throws(StoreError) -> [(Double, String, Int64, String)] {
        try connection.run(
            "SELECT \(sql.epoch("received")), boat, seq, batch FROM fleet_batches WHERE received > \(sql.time(1)) "
                + "ORDER BY received LIMIT $2", [.real(received), .integer(Int64(limit))]
        ).compactMap { row in
            guard let received = row[0].flatMap({ Double($0) }), let boat = row[1],
                let seq = row[2].flatMap({ Int64($0) }), let batch = row[3]
            else { return nil }
            return (received, boat, seq, batch)
        }
    }

    /// The first and last time of a position kept (UNIX seconds), on one UTC day (days since 1970) or on any; nil
    /// when there is none.
    /// Of these boats alone (nil: every boat; a viewer behind the shore's door sees its own boats' days).
    func span(day: Int? = nil, boats: Set<String>? = nil) throws(StoreError) -> (Double, Double)? {
        var query = "SELECT \(sql.epoch("min(time)")), \(sql.epoch("max(time)")) FROM fleet_track WHERE true"
        var parameters: [SQLValue] = []
        if let day {
            query += " AND minute >= $1 AND minute < $2"
            parameters = [.integer(Int64(day) * 1440), .integer(Int64(day + 1) * 1440)]
        }
        query += Self.among(boats, from: parameters.count + 1, into: &parameters)
        let row = try connection.run(query, parameters).first
        guard let first = row?[0].flatMap({ Double($0) }), let last = row?[1].flatMap({ Double($0) }) else {
            return nil
        }
        // The last position may be up to a minute after the minute track's last point.
        var tail: [SQLValue] = [.real(last), .real(last + 60)]
        let among = Self.among(boats, from: 3, into: &tail)
        let end = try connection.run(
            "SELECT \(sql.epoch("max(time)")) FROM fleet_positions WHERE time >= \(sql.time(1)) AND time < \(sql.time(2))"
                + among, tail
        ).first?[0].flatMap { Double($0) }
        return (first, max(last, end ?? last))
    }

    /// ` AND boat IN ($n, ...)` for a set of boats (none: a condition nothing meets), their names appended to the
    /// parameters; "" for every boat.
    static func among(_ boats: Set<String>?, from first: Int, into parameters: inout [SQLValue]) -> String {
        guard let boats else { return "" }
        guard !boats.isEmpty else { return " AND false" }
        let sorted = boats.sorted()
        parameters += sorted.map { .text($0) }
        return " AND boat IN (" + (0..<sorted.count).map { "$\(first + $0)" }.joined(separator: ", ") + ")"
    }

    /// The UTC days (days since 1970) with positions kept, newest first; of these boats alone when given.
    func daysKept(boats: Set<String>? = nil) throws(StoreError) -> [Int] {
        guard boats != nil else { return try connection.run(sql.daysKept).compactMap { sql.day(of: $0) }.sorted(by: >) }
        var parameters: [SQLValue] = []
        let among = Self.among(boats, from: 1, into: &parameters)
        return try connection.run(
            "SELECT DISTINCT minute / 1440 AS day FROM fleet_track WHERE true\(among) ORDER BY day DESC LIMIT 1000",
            parameters
        ).compactMap { $0.first.flatMap { $0 }.flatMap { Int($0) } }
    }

    /// A boat's batch numbers kept: how many, the lowest, the highest.
    func batchNumbers(boat: String) throws(StoreError) -> (count: Int, first: Int64?, last: Int64?) {
        let row = try connection.run(
            "SELECT count(*), min(seq), max(seq) FROM fleet_batches WHERE boat = $1", [.text(boat)]
        ).first
        return (row?[0].flatMap { Int($0) } ?? 0, row?[1].flatMap { Int64($0) }, row?[2].flatMap { Int64($0) })
    }

    /// Every boat's link state and alarms: (boat, online, alarms JSON).
    func boats() throws(StoreError) -> [(String, Bool?, String?)] {
        try connection.run("SELECT boat, online, alarms FROM fleet_boats ORDER BY boat").compactMap { row in
            guard let boat = row[0] else { return nil }
            let online = row[1].map { sql.isTrue($0) }
            return (boat, online, row[2])
        }
    }

    /// Positions of every boat (or one) between two UNIX times, each boat's in time order: at most `perBoat` points
    /// a boat, evenly through the span (the first and last kept).
    ///
    /// A span drawn at half a minute a point or coarser is read from the minute track, every k-th minute (k from the
    /// span, no count or sort by the database beyond its key's order); a finer one from the positions, each boat's
    /// every k-th point (and its last), k from how many it has in the span.
    func tracks(
        from: Double, to: Double, boat: String? = nil, boats: [String] = [], perBoat: Int, every: Bool = false
    ) throws(StoreError) -> [(boat: String, points: [(Double, Double, Double)])] {
        let coarse = !every && (to - from) / Double(max(2, perBoat)) >= 30
        let (query, parameters) =
            coarse
            ? minuteTrackQuery(from: from, to: to, boat: boat, boats: boats, perBoat: perBoat)
            : positionsQuery(from: from, to: to, boat: boat, boats: boats, perBoat: perBoat)
        var out: [(boat: String, points: [(Double, Double, Double)])] = []
        var current: String?
        var points: [(Double, Double, Double)] = []
        func flush() {
            if let current, !points.isEmpty { out.append((current, FleetModel.thinned(points, to: perBoat))) }
            points.removeAll(keepingCapacity: true)
        }
        for row in try connection.run(query, parameters) {
            guard let id = row[0], let t = row[1].flatMap({ Double($0) }), let lat = row[2].flatMap({ Double($0) }),
                let lon = row[3].flatMap({ Double($0) })
            else { continue }
            if id != current {
                flush()
                current = id
            }
            if let last = points.last, last.0 == t { continue }
            points.append((t, lat, lon))
        }
        flush()
        return out
    }

    /// ` AND boat = $n` or ` AND boat IN ($n, ...)`, its parameters appended.
    private func boatFilter(_ boat: String?, _ boats: [String], _ parameters: inout [SQLValue]) -> String {
        let first = parameters.count + 1
        if let boat {
            parameters.append(.text(boat))
            return " AND boat = $\(first)"
        }
        guard !boats.isEmpty else { return "" }
        for id in boats { parameters.append(.text(id)) }
        return " AND boat IN (" + boats.indices.map { "$\($0 + first)" }.joined(separator: ", ") + ")"
    }

    private func minuteTrackQuery(from: Double, to: Double, boat: String?, boats: [String], perBoat: Int)
        -> (String, [SQLValue])
    {
        let minutes = (to - from) / 60
        let step = Int64(max(1, min(1e15, (minutes / Double(max(1, perBoat - 1))).rounded(.up))))
        var parameters: [SQLValue] = [
            .integer(Self.minute(from)), .integer(Self.minute(to)), .integer(step),
        ]
        let filter = boatFilter(boat, boats, &parameters)
        return (
            "SELECT boat, \(sql.epoch("time")) AS t, latitude, longitude FROM fleet_track "
                + "WHERE minute >= $1 AND minute <= $2 AND minute % $3 = 0\(filter) ORDER BY boat, minute",
            parameters
        )
    }

    private func positionsQuery(from: Double, to: Double, boat: String?, boats: [String], perBoat: Int)
        -> (String, [SQLValue])
    {
        let columns =
            "boat, \(sql.epoch("time")) AS t, \(sql.latitude) AS latitude, \(sql.longitude) AS longitude"
        var parameters: [SQLValue] = [.real(from), .real(to)]
        let filter = "time >= \(sql.time(1)) AND time <= \(sql.time(2))" + boatFilter(boat, boats, &parameters)
        parameters.append(.integer(Int64(max(2, perBoat))))
        let k = "$\(parameters.count)"
        return (
            "SELECT boat, t, latitude, longitude FROM (SELECT \(columns), "
                + "row_number() OVER (PARTITION BY boat ORDER BY time) - 1 AS n, "
                + "count(*) OVER (PARTITION BY boat) AS c FROM fleet_positions WHERE \(filter)) AS points "
                + "WHERE n % (CASE WHEN c <= \(k) THEN 1 ELSE (c + \(k) - 3) / (\(k) - 1) END) = 0 OR n = c - 1 "
                + "ORDER BY boat, t",
            parameters
        )
    }

    /// A time's minute (its key in the minute track), held within what a 64-bit number and any stored time can be:
    /// `Int64(time / 60)` traps past 5.5e20 s, and no query asks so far.
    static func minute(_ time: Double) -> Int64 {
        guard !time.isNaN else { return 0 }
        return Int64(max(-1e15, min(1e15, (time / 60).rounded(.down))))
    }

    /// The boats with a position between two times (from the minute track: a boat a minute at most).
    func boatsHeard(from: Double, to: Double) throws(StoreError) -> [String] {
        try connection.run(
            "SELECT DISTINCT boat FROM fleet_track WHERE minute >= $1 AND minute <= $2 ORDER BY boat",
            [.integer(Self.minute(from)), .integer(Self.minute(to))]
        ).compactMap { $0[0] }
    }
}
