import Marine

/// One boat along a race, a position at a time (in time order): what it has done so far. Small and streaming, so a
/// race office follows thousands of boats live without keeping their tracks.
public struct RaceFollower: Sendable {
    public private(set) var standing: RaceStanding
    var previous: (t: Double, x: Double, y: Double, lat: Double, lon: Double)?

    public init(boat: String, group: String) { standing = RaceStanding(boat: boat, group: group) }

    /// The time of the last position taken.
    public var lastTime: Double? { standing.last?.time }

    /// The boat's next position. One not after the last is passed over (the caller reads the boat again when a late
    /// one matters); one after the time limit, or after the finish, changes nothing.
    public mutating func take(_ t: Double, _ latitude: Double, _ longitude: Double, in race: RaceGeometry) {
        guard latitude.isFinite, longitude.isFinite, t.isFinite, abs(latitude) <= 90, abs(longitude) <= 180 else {
            return
        }
        let course = race.course
        guard standing.status != .finished, t <= (course.timeLimit ?? .infinity) else { return }
        if let last = previous, t <= last.t { return }
        let gun = course.gun(standing.group)
        let p = race.plane.xy(latitude, longitude)
        defer { previous = (t, p.x, p.y, latitude, longitude) }
        standing.last = (t, latitude, longitude)
        guard let q = previous else { return }
        let a = (x: q.x, y: q.y)
        switch standing.status {
        case .notStarted:
            guard t > gun, RaceStandings.side(race.line, a) != race.courseSide,
                RaceStandings.side(race.line, p) == race.courseSide,
                let f = RaceStandings.crossing(a, p, race.line)
            else { return }
            let when = q.t + f * (t - q.t)
            guard when >= gun else { return }
            standing.started = when
            standing.status = .racing
            standing.sailed = (1 - f) * LocalPlane.step(q.lat, q.lon, latitude, longitude)
        case .racing:
            let step = LocalPlane.step(q.lat, q.lon, latitude, longitude)
            var f = 1.0
            if standing.rounded.count < course.marks.count {
                let k = standing.rounded.count
                if let g = RaceStandings.rounding(
                    a, p, mark: race.waypoints[k + 1], from: race.waypoints[k], zone: course.marks[k].zone)
                {
                    standing.rounded.append(q.t + g * (t - q.t))
                }
            } else if let g = RaceStandings.crossing(a, p, race.finish) {
                standing.finished = q.t + g * (t - q.t)
                standing.status = .finished
                f = g
            }
            standing.sailed += f * step
        case .finished, .didNotFinish:
            break
        }
    }

    /// The standing at `time`: distance to go from the last position, elapsed and corrected time, the time limit,
    /// silence (places are the race's, ``RaceStandings/placed(_:)``).
    public func standing(at time: Double, in race: RaceGeometry, entry: FleetEntry?) -> RaceStanding {
        var s = standing
        let course = race.course
        let gun = course.gun(s.group)
        let rating = entry ?? FleetEntry(boat: s.boat)
        if s.status == .finished {
            s.toGo = 0
        } else if let last = s.last {
            let here = GeoPoint(latitude: last.latitude, longitude: last.longitude)
            let p = race.plane.xy(here)
            if s.status == .notStarted {
                s.toGo = RaceStandings.distance(p, to: race.line) + race.legs[0]
            } else if s.rounded.count < course.marks.count {
                let k = s.rounded.count + 1
                s.toGo = Geodesic.wgs84.inverse(here, course.waypoints[k]).distance + race.legs[k]
            } else {
                s.toGo = RaceStandings.distance(p, to: race.finish)
            }
        }
        if let finished = s.finished {
            s.elapsed = finished - gun
            s.corrected = rating.corrected(finished - gun)
        } else if s.status == .racing, let last = s.last, let toGo = s.toGo {
            s.elapsed = last.time - gun
            let made = race.legs[0] - toGo
            if made > 0 && last.time > gun {
                s.corrected = rating.corrected((last.time - gun) * race.legs[0] / made)
                s.projected = true
            }
            if let limit = course.timeLimit, time > limit {
                s.status = .didNotFinish
            } else if time - last.time > RaceStandings.stoppedAfter {
                s.stopped = true
            }
        }
        return s
    }
}
