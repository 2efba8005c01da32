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

    /// The standings at `time`: every boat entered in a class that races (every boat with a track when there are no
    /// entries), in each class's order by corrected time.
    public static func compute(
        _ course: RaceCourse, entries: [FleetEntry], tracks: [String: [(Double, Double, Double)]], at time: Double
    ) -> [RaceStanding] {
        var boats: [(String, FleetEntry?)] = []
        if entries.isEmpty {
            for boat in tracks.keys.sorted() { boats.append((boat, nil)) }
        } else {
            for entry in entries where course.classes.isEmpty || course.classes.contains(entry.group) {
                boats.append((entry.boat, entry))
            }
        }
        let waypoints = course.waypoints
        var legs: [Double] = []  // metres from waypoint i to the finish's middle
        var rest = 0.0
        legs = Array(repeating: 0, count: waypoints.count)
        for i in stride(from: waypoints.count - 2, through: 0, by: -1) {
            rest += Geodesic.wgs84.inverse(waypoints[i], waypoints[i + 1]).distance
            legs[i] = rest
        }
        let plane = LocalPlane(waypoints[0])
        var standings: [RaceStanding] = []
        for (boat, entry) in boats {
            let group = entry?.group ?? ""
            var standing = follow(
                course, plane: plane, track: tracks[boat] ?? [], boat: boat, group: group, legs: legs,
                until: min(time, course.timeLimit ?? time))
            let gun = course.gun(group)
            if let finished = standing.finished {
                standing.elapsed = finished - gun
                standing.corrected = (entry ?? FleetEntry(boat: boat)).corrected(finished - gun)
            } else if standing.status == .racing, let last = standing.last, let toGo = standing.toGo {
                standing.elapsed = last.time - gun
                let made = legs[0] - toGo
                if made > 0 && last.time > gun {
                    standing.corrected = (entry ?? FleetEntry(boat: boat)).corrected((last.time - gun) * legs[0] / made)
                    standing.projected = true
                }
                if let limit = course.timeLimit, time > limit {
                    standing.status = .didNotFinish
                } else if time - last.time > stoppedAfter {
                    standing.stopped = true
                }
            }
            standings.append(standing)
        }
        // Places, class by class.
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

    /// One boat along its track (time order) up to `until`.
    static func follow(
        _ course: RaceCourse, plane: LocalPlane, track: [(Double, Double, Double)], boat: String, group: String,
        legs: [Double], until: Double
    ) -> RaceStanding {
        var s = RaceStanding(boat: boat, group: group)
        let gun = course.gun(group)
        let line = (plane.xy(course.line.0), plane.xy(course.line.1))
        let finish = (plane.xy(course.finish.0), plane.xy(course.finish.1))
        let waypoints = course.waypoints.map { plane.xy($0) }
        // The course side of the start line: where the first mark (or the finish) lies.
        let courseSide = side(line, waypoints[1])
        var previous: (t: Double, x: Double, y: Double, lat: Double, lon: Double)?
        for (t, latitude, longitude) in track {
            guard t <= until else { break }
            guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180 else { continue }
            let p = plane.xy(latitude, longitude)
            defer { previous = (t, p.x, p.y, latitude, longitude) }
            s.last = (t, latitude, longitude)
            guard let q = previous, t > q.t else { continue }
            let a = (x: q.x, y: q.y)
            switch s.status {
            case .notStarted:
                guard t > gun, side(line, a) != courseSide, side(line, p) == courseSide,
                    let f = crossing(a, p, line)
                else { continue }
                let when = q.t + f * (t - q.t)
                guard when >= gun else { continue }
                s.started = when
                s.status = .racing
                s.sailed = (1 - f) * LocalPlane.step(q.lat, q.lon, latitude, longitude)
            case .racing:
                let step = LocalPlane.step(q.lat, q.lon, latitude, longitude)
                var f = 1.0
                if s.rounded.count < course.marks.count {
                    let k = s.rounded.count
                    if let g = rounding(a, p, mark: waypoints[k + 1], from: waypoints[k], zone: course.marks[k].zone) {
                        s.rounded.append(q.t + g * (t - q.t))
                    }
                } else if let g = crossing(a, p, finish) {
                    s.finished = q.t + g * (t - q.t)
                    s.status = .finished
                    f = g
                }
                s.sailed += f * step
            case .finished, .didNotFinish:
                break
            }
            if s.status == .finished { break }
        }
        // Distance to go from the last position.
        if s.status == .finished {
            s.toGo = 0
        } else if let last = s.last {
            let here = GeoPoint(latitude: last.latitude, longitude: last.longitude)
            let p = plane.xy(here)
            if s.status == .notStarted {
                s.toGo = distance(p, to: line) + legs[0]
            } else if s.rounded.count < course.marks.count {
                let k = s.rounded.count + 1
                s.toGo = Geodesic.wgs84.inverse(here, course.waypoints[k]).distance + legs[k]
            } else {
                s.toGo = distance(p, to: finish)
            }
        }
        return s
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
