import Marine

/// One input's position fixes, each judged against the last one taken: a fix no boat could reach from it in the time
/// between (a receiver's glitch, a multiplexer's corrupted line with a valid checksum: 3,000 NM in a second) is
/// refused, and nothing is computed from it, nor passed on. When fixes go on agreeing with each other away from the
/// last one taken, it was the last one that was wrong (the first fix of a receiver still settling, a recording that
/// starts again elsewhere): the fifth of them is taken and the gate follows from there.
///
/// Pure: a point and the engine's time in, a decision out.
struct PositionGate: Sendable {
    /// Metres a fix may be from the last one taken whatever the time between: a receiver's own jumps in multipath,
    /// two receivers' fixes of one antenna swapped.
    static let slack = 250.0
    /// The fastest a boat goes over the ground, m/s: 80 kn (the speed-through-water bound of the decoders).
    static let fastest = 80 * 1852.0 / 3600
    /// Fixes in a row that agree with each other, away from the last one taken, that make the jump real.
    static let agreeing = 5

    private var last: (point: GeoPoint, time: Double)?
    private var away: (point: GeoPoint, time: Double, count: Int)?
    /// How many fixes were refused.
    private(set) var refused = 0

    /// Whether the fix at `point`, arrived at `time`, can follow the fixes before it.
    mutating func admits(_ point: GeoPoint, at time: Double) -> Bool {
        // Off the earth (a latitude past 90°, not a number: from a source that does not judge its own, gpsd's JSON),
        // never taken, not even as the first fix.
        guard abs(point.latitude) <= 90, abs(point.longitude) <= 180 else {
            refused += 1
            return false
        }
        guard let last, !Self.reachable(point, from: last.point, seconds: time - last.time) else {
            take(point, at: time)
            return true
        }
        var count = 1
        if let away, Self.reachable(point, from: away.point, seconds: time - away.time) { count = away.count + 1 }
        if count >= Self.agreeing {
            take(point, at: time)
            return true
        }
        away = (point, time, count)
        refused += 1
        return false
    }

    /// The next fix taken wherever it is (the count of those refused kept).
    mutating func forget() {
        last = nil
        away = nil
    }

    private mutating func take(_ point: GeoPoint, at time: Double) {
        last = (point, time)
        away = nil
    }

    /// Whether a boat could be at `point` `seconds` after she was at `from`.
    static func reachable(_ point: GeoPoint, from: GeoPoint, seconds: Double) -> Bool {
        if point == from { return true }
        let distance = Geodesic.wgs84.inverse(from, point).distance
        return distance <= slack + fastest * abs(seconds)
    }
}
