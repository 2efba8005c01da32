extension IsochroneRouter {
    /// The route back from node `last` (the destination) cut into straight legs, polished, and sailed again.
    mutating func legs(to last: Int, isochrones: [[GeoPoint]], departure: Double) throws(RouteFailure) -> RoutePlan {
        var path: [Node] = []
        var index = last
        while index >= 0 {
            path.append(nodes[index])
            index = nodes[index].parent
        }
        path.reverse()
        let points = polished(straightened(path).map { path[$0].point }, departure: departure)
        var plan = try resail(points, departure: departure)
        plan.isochrones = isochrones
        return plan
    }

    /// The route through `points` sailed leg by leg from `departure`: each waypoint with how its leg is sailed, the
    /// arrival, and what the passage meets.
    mutating func resail(_ points: [GeoPoint], departure: Double) throws(RouteFailure) -> RoutePlan {
        var plan = RoutePlan(waypoints: [], isochrones: [], departure: departure, arrival: departure, distance: 0)
        var time = departure
        var side = 0.0
        for (from, to) in zip(points, points.dropFirst()) {
            var point = RoutePoint(point: from, time: time)
            time = try sail(from: from, to: to, at: time, side: &side, plan: &plan, first: &point)
            plan.waypoints.append(point)
        }
        if let last = points.last { plan.waypoints.append(RoutePoint(point: last, time: time)) }
        plan.arrival = time
        return plan
    }

    /// The indexes of `path` that begin a leg: the start, each change of the wind's side or of engine, each point
    /// where a straight line from the leg's start would stray from the path by more than 1 % of its length (at least
    /// 150 m) or touch land, and the destination.
    func straightened(_ path: [Node]) -> [Int] {
        guard path.count > 2 else { return Array(path.indices) }
        var turns = [0]
        var from = 0
        while from < path.count - 1 {
            var to = from + 1
            while to + 1 < path.count, keepsStraight(path, from: from, to: to + 1) { to += 1 }
            turns.append(to)
            from = to
        }
        return turns
    }

    func keepsStraight(_ path: [Node], from: Int, to: Int) -> Bool {
        let side = path[from + 1].windAngle > 0
        let motor = path[from + 1].motoring
        let (length, bearing) = Self.leg(path[from].point, path[to].point)
        let tolerance = max(150, length / 100)
        for index in (from + 1)...to {
            guard (path[index].windAngle > 0) == side, path[index].motoring == motor else { return false }
            guard index < to else { continue }
            let (distance, towards) = Self.leg(path[from].point, path[index].point)
            if abs(distance * sin(Angle.radians(towards - bearing))) > tolerance { return false }
        }
        return !land.crossesLand(path[from].point, path[to].point)
    }

    /// Sails the straight leg from `from` to `to` departing at `time` (steps of at most five minutes: the heading that
    /// keeps the ground track on the leg in the current, the polar's speed for the wind there and then), noting what
    /// the passage meets in `plan`; the leg's first point is described in `first`. Returns the arrival time.
    mutating func sail(
        from: GeoPoint, to: GeoPoint, at start: Double, side: inout Double, plan: inout RoutePlan,
        first: inout RoutePoint
    ) throws(RouteFailure) -> Double {
        var point = from
        var time = start
        var described = false
        while true {
            let (remaining, course) = Self.leg(point, to)
            if remaining < 1 { break }
            guard let wind = weather.wind(at: point, time: time) else { throw .noForecast(at: point, time: time) }
            guard let step = crabbing(course: course, wind: wind, at: point, time: time) else {
                throw .unreachable(at: time)
            }
            if !described {
                described = true
                first.heading = step.heading
                first.windAngle = step.boat.angle
                first.windSpeed = (wind.east * wind.east + wind.north * wind.north).squareRoot()
                first.speed = step.boat.speed
                first.groundSpeed = Units.knots(metresPerSecond: step.along)
                first.motoring = step.boat.motor
                if side != 0, !step.boat.motor, (side > 0) != (step.boat.angle > 0) {
                    let tack = abs(side) < 90 && abs(step.boat.angle) < 90
                    time += tack ? settings.tackPenalty : settings.gybePenalty
                    if tack { plan.tacks += 1 } else { plan.gybes += 1 }
                }
                side = step.boat.motor ? side : step.boat.angle
            }
            let seconds = min(300, remaining / step.along)
            note(step.boat, wind: wind, seconds: seconds, plan: &plan)
            plan.distance += min(remaining, step.along * seconds)
            point =
                seconds * step.along >= remaining
                ? to : Self.moved(point, bearing: course, metres: step.along * seconds)
            time += seconds
        }
        return time
    }

    /// The heading whose ground track is `course` in the current there, the boat on it, and the speed along the
    /// course (m/s); nil when the boat makes no way along it.
    mutating func crabbing(
        course: Double, wind: (east: Double, north: Double, gust: Double?), at point: GeoPoint, time: Double
    )
        -> (heading: Double, boat: (speed: Double, angle: Double, motor: Bool), along: Double)?
    {
        let current = weather.current(at: point, time: time) ?? (0, 0)
        let radians = Angle.radians(course)
        let across = current.east * cos(radians) - current.north * sin(radians)
        let downstream = current.east * sin(radians) + current.north * cos(radians)
        var heading = course
        var boat = sailing(heading: heading, wind: (wind.east, wind.north))
        for _ in 0..<3 {
            guard let found = boat else { return nil }
            let metres = Units.metresPerSecond(knots: found.speed)
            guard abs(across) < metres else { return nil }
            heading = Angle.direction(course + Angle.degrees(asin(-across / metres)))
            boat = sailing(heading: heading, wind: (wind.east, wind.north))
        }
        guard let found = boat else { return nil }
        let metres = Units.metresPerSecond(knots: found.speed)
        guard abs(across) < metres else { return nil }
        let along = (metres * metres - across * across).squareRoot() + downstream
        return along > 0.01 ? (heading, found, along) : nil
    }

    func note(
        _ boat: (speed: Double, angle: Double, motor: Bool), wind: (east: Double, north: Double, gust: Double?),
        seconds: Double, plan: inout RoutePlan
    ) {
        if boat.motor {
            plan.motoring += seconds
        } else if abs(boat.angle) < 70 {
            plan.upwind += seconds
        } else if abs(boat.angle) > 120 {
            plan.downwind += seconds
        } else {
            plan.reaching += seconds
        }
        plan.maximumWind = max(plan.maximumWind, (wind.east * wind.east + wind.north * wind.north).squareRoot())
        if let gust = wind.gust, gust.isFinite { plan.maximumGust = max(plan.maximumGust, gust) }
    }
}
