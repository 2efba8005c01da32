import Marine

/// Where each boat is in a race, read from the tracks the store keeps: started, marks rounded, finished; distance
/// sailed and to go; elapsed and corrected time; its place in its class by each. Pure: the course, the entries, the
/// tracks and the time come in.
public struct RaceStanding: Sendable {
    public enum Status: String, Sendable {
        /// Not yet started (or never: after the time limit it stays so, the results' DNS).
        case notStarted = "not started"
        case racing
        case finished
        /// Still racing when the time limit came.
        case didNotFinish = "did not finish"
    }

    public var boat: String
    public var group: String
    public var status = Status.notStarted
    /// When the boat crossed the start line (UNIX seconds).
    public var started: Double?
    /// Marks rounded, and when each.
    public var rounded: [Double] = []
    public var finished: Double?
    /// Metres sailed from the start line (to the finish, or to the boat's last position).
    public var sailed = 0.0
    /// Metres still to sail: to the next mark, round the rest, to the finish line (0 when finished).
    public var toGo: Double?
    /// Seconds from the gun: to the finish, or to the last position while racing.
    public var elapsed: Double?
    /// Corrected time: the finish's, or while racing the elapsed time the boat would take at its average speed made
    /// good so far (``projected``).
    public var corrected: Double?
    public var projected = false
    /// The boat's last position and its time.
    public var last: (time: Double, latitude: Double, longitude: Double)?
    /// Not heard for ``RaceStandings/stoppedAfter`` seconds while racing.
    public var stopped = false
    /// Places in the class, by elapsed and by corrected time (finished boats first, then those racing, then the rest).
    public var placeElapsed = 0
    public var placeCorrected = 0

    init(boat: String, group: String) {
        self.boat = boat
        self.group = group
    }
}

public enum RaceStandings {
    /// Seconds without a position before a boat still racing is marked as stopped reporting.
    public static let stoppedAfter = 120.0

    /// The boats that race: every boat entered in a class that races, or every boat with a track when there is no
    /// fleet file (one class, "").
    public static func racing(_ course: RaceCourse, entries: [FleetEntry], heard: [String]) -> [(String, String)] {
        if entries.isEmpty { return heard.sorted().map { ($0, "") } }
        return entries.filter { course.classes.isEmpty || course.classes.contains($0.group) }.map {
            ($0.boat, $0.group)
        }
    }

    /// The standings at `time` from whole tracks (time order): every boat that races, in each class's order by
    /// corrected time.
    public static func compute(
        _ course: RaceCourse, entries: [FleetEntry], tracks: [String: [(Double, Double, Double)]], at time: Double
    ) -> [RaceStanding] {
        let race = RaceGeometry(course)
        var entered: [String: FleetEntry] = [:]
        for entry in entries { entered[entry.boat] = entry }
        var standings: [RaceStanding] = []
        for (boat, group) in racing(course, entries: entries, heard: Array(tracks.keys)) {
            var follower = RaceFollower(boat: boat, group: group)
            for (t, latitude, longitude) in tracks[boat] ?? [] where t <= time {
                follower.take(t, latitude, longitude, in: race)
            }
            standings.append(follower.standing(at: time, in: race, entry: entered[boat]))
        }
        return placed(standings)
    }

    /// Places, class by class (finished boats first, then those racing, then the rest), and the standings in each
    /// class's order by corrected time.
    public static func placed(_ list: [RaceStanding]) -> [RaceStanding] {
        var standings = list
        func rank(_ s: RaceStanding) -> Int {
            switch s.status {
            case .finished: 0
            case .racing: 1
            case .didNotFinish: 2
            case .notStarted: 3
            }
        }
        var groups: [String: [Int]] = [:]
        for (index, s) in standings.enumerated() { groups[s.group, default: []].append(index) }
        for indices in groups.values {
            let byElapsed = indices.sorted { a, b in
                let x = standings[a]
                let y = standings[b]
                if rank(x) != rank(y) { return rank(x) < rank(y) }
                if x.status == .finished { return (x.elapsed ?? 0, x.boat) < (y.elapsed ?? 0, y.boat) }
                return (x.toGo ?? .infinity, x.boat) < (y.toGo ?? .infinity, y.boat)
            }
            let byCorrected = indices.sorted { a, b in
                let x = standings[a]
                let y = standings[b]
                if rank(x) != rank(y) { return rank(x) < rank(y) }
                if x.status == .finished || x.status == .racing {
                    return (x.corrected ?? .infinity, x.toGo ?? .infinity, x.boat)
                        < (y.corrected ?? .infinity, y.toGo ?? .infinity, y.boat)
                }
                return (x.toGo ?? .infinity, x.boat) < (y.toGo ?? .infinity, y.boat)
            }
            for (place, index) in byElapsed.enumerated() { standings[index].placeElapsed = place + 1 }
            for (place, index) in byCorrected.enumerated() { standings[index].placeCorrected = place + 1 }
        }
        standings.sort { ($0.group, $0.placeCorrected, $0.boat) < ($1.group, $1.placeCorrected, $1.boat) }
        return standings
    }

    typealias XY = (x: Double, y: Double)

    /// Which side of a line a point is on: 1, -1, or 0 on it.
    static func side(_ line: (XY, XY), _ p: XY) -> Int {
        let c = (line.1.x - line.0.x) * (p.y - line.0.y) - (line.1.y - line.0.y) * (p.x - line.0.x)
        return c > 0 ? 1 : c < 0 ? -1 : 0
    }

    /// Where along a → b (0...1) the step crosses the segment `line` between its ends, or nil.
    static func crossing(_ a: XY, _ b: XY, _ line: (XY, XY)) -> Double? {
        let rx = b.x - a.x
        let ry = b.y - a.y
        let sx = line.1.x - line.0.x
        let sy = line.1.y - line.0.y
        let d = rx * sy - ry * sx
        guard d != 0 else { return nil }
        let qx = line.0.x - a.x
        let qy = line.0.y - a.y
        let t = (qx * sy - qy * sx) / d
        let u = (qx * ry - qy * rx) / d
        guard t >= 0, t <= 1, u >= 0, u <= 1 else { return nil }
        return t
    }

    /// Where along a → b (0...1) the step first comes within `zone` of the mark on its far side (level with it or past
    /// it, seen along the leg from `from`), or nil.
    static func rounding(_ a: XY, _ b: XY, mark: XY, from: XY, zone: Double) -> Double? {
        var ux = mark.x - from.x
        var uy = mark.y - from.y
        let norm = (ux * ux + uy * uy).squareRoot()
        guard norm > 0 else { return 0 }
        ux /= norm
        uy /= norm
        // Along the step: inside the circle where |a + t(b−a) − m|² ≤ zone².
        let dx = b.x - a.x
        let dy = b.y - a.y
        let fx = a.x - mark.x
        let fy = a.y - mark.y
        let qa = dx * dx + dy * dy
        let qb = 2 * (fx * dx + fy * dy)
        let qc = fx * fx + fy * fy - zone * zone
        var low: Double
        var high: Double
        if qa == 0 {
            guard qc <= 0 else { return nil }
            (low, high) = (0, 1)
        } else {
            let disc = qb * qb - 4 * qa * qc
            guard disc >= 0 else { return nil }
            let root = disc.squareRoot()
            low = max(0, (-qb - root) / (2 * qa))
            high = min(1, (-qb + root) / (2 * qa))
        }
        // And past the square line: (a + t(b−a) − m)·u ≥ 0.
        let s0 = fx * ux + fy * uy
        let ds = dx * ux + dy * uy
        if ds == 0 {
            guard s0 >= 0 else { return nil }
        } else if ds > 0 {
            low = max(low, -s0 / ds)
        } else {
            high = min(high, -s0 / ds)
        }
        return low <= high ? low : nil
    }

    /// Metres from a point to a segment (on the plane).
    static func distance(_ p: XY, to line: (XY, XY)) -> Double {
        let sx = line.1.x - line.0.x
        let sy = line.1.y - line.0.y
        let length = sx * sx + sy * sy
        var t = length == 0 ? 0 : ((p.x - line.0.x) * sx + (p.y - line.0.y) * sy) / length
        t = max(0, min(1, t))
        let dx = line.0.x + t * sx - p.x
        let dy = line.0.y + t * sy - p.y
        return (dx * dx + dy * dy).squareRoot()
    }
}
