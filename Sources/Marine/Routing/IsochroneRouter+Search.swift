extension IsochroneRouter {
    /// The route from `start` to `destination` departing at `departure` (UNIX seconds).
    public mutating func plan(from start: GeoPoint, to destination: GeoPoint, departure: Double) throws(RouteFailure)
        -> RoutePlan
    {
        guard !land.isLand(start) else { throw .startOnLand }
        guard !land.isLand(destination) else { throw .destinationOnLand }
        guard weather.wind(at: start, time: departure) != nil else {
            throw .noForecast(at: start, time: departure)
        }
        // A destination no forecast covers is never reached: said at once, not after searching to the forecast's end.
        guard weather.wind(at: destination, time: departure) != nil else {
            throw .noForecast(at: destination, time: departure)
        }
        nodes = [Node(point: start, time: departure, parent: -1, heading: 0, windAngle: 0, motoring: false)]
        var front = [0]
        var isochrones: [[GeoPoint]] = []
        let direct = Self.leg(start, destination).distance
        let fastest = Units.metresPerSecond(knots: fastestSpeed())
        var time = departure
        while time - departure < settings.longest {
            if let arrival = arrival(from: front, at: destination, within: settings.step, fastest: fastest) {
                nodes.append(arrival)
                return try legs(to: nodes.count - 1, isochrones: isochrones, departure: departure)
            }
            var missing: (GeoPoint, Double)?
            front = expand(front, start: start, destination: destination, direct: direct, missing: &missing)
            time += settings.step
            guard !front.isEmpty else {
                if let missing { throw .noForecast(at: missing.0, time: missing.1) }
                throw .unreachable(at: time - settings.step)
            }
            isochrones.append(front.map { nodes[$0].point })
        }
        throw .tooLong
    }

    /// The polar's best speed in any wind (or the engine's), knots: how far a step can reach.
    func fastestSpeed() -> Double {
        var fastest = settings.motorBelow == nil ? 0 : settings.motorSpeed
        for curve in polar.curves { fastest = max(fastest, curve.speeds.max() ?? 0) }
        return fastest * max(settings.performance, 1)
    }

    /// The earliest arrival at `destination` straight from a point of the front within `step` seconds; nil when none
    /// reaches it in one step.
    mutating func arrival(from front: [Int], at destination: GeoPoint, within step: Double, fastest: Double) -> Node? {
        var best: Node?
        for index in front {
            let node = nodes[index]
            let (distance, bearing) = Self.leg(node.point, destination)
            guard distance <= (fastest + 3) * step else { continue }
            guard let wind = weather.wind(at: node.point, time: node.time),
                let boat = sailing(heading: bearing, wind: (wind.east, wind.north))
            else { continue }
            let velocity = ground(speed: boat.speed, heading: bearing, at: node.point, time: node.time)
            let radians = Angle.radians(bearing)
            let along = velocity.east * sin(radians) + velocity.north * cos(radians)
            guard along > 0.01 else { continue }
            let lost = penalty(from: node, angle: boat.angle, motor: boat.motor)
            let seconds = distance / along + lost
            guard seconds <= step, best.map({ node.time + seconds < $0.time }) ?? true,
                !land.crossesLand(node.point, destination)
            else { continue }
            best = Node(
                point: destination, time: node.time + seconds, parent: index, heading: bearing,
                windAngle: boat.angle, motoring: boat.motor)
        }
        return best
    }

    /// The next isochrone: every heading from every point of `front` for one step, the farthest from the start in
    /// each sector kept. Points from which no forecast speaks are noted in `missing`. Within a step the chart is
    /// flat round each point (a few miles), and the start's bearing and distance are on a chart centred on the
    /// passage: they only sort the points into sectors.
    mutating func expand(
        _ front: [Int], start: GeoPoint, destination: GeoPoint, direct: Double, missing: inout (GeoPoint, Double)?
    ) -> [Int] {
        let sectors = max(1, Int((360 / settings.sector).rounded()))
        var kept = [Int](repeating: -1, count: sectors)
        var reach = [Double](repeating: -1, count: sectors)
        var candidates: [Node] = []
        let step = settings.step
        let headings = max(1, Int((360 / settings.headingStep).rounded()))
        let grid = (0..<headings).map { Double($0) * 360 / Double(headings) }
        let metresPerDegree = Self.earthRadius * Double.pi / 180
        let across = cos(Angle.radians((start.latitude + destination.latitude) / 2)) * metresPerDegree
        let farthest = direct * 1.5 + 20_000
        for index in front {
            let node = nodes[index]
            guard let wind = weather.wind(at: node.point, time: node.time) else {
                if missing == nil { missing = (node.point, node.time) }
                continue
            }
            let current = weather.current(at: node.point, time: node.time) ?? (0, 0)
            let windSpeed = (wind.east * wind.east + wind.north * wind.north).squareRoot()
            // The polar's best angles up and down wind on either tack, besides the headings every few degrees.
            let from = Angle.direction(Angle.degrees(atan2(-wind.east, -wind.north)))
            let knots = Units.knots(metresPerSecond: windSpeed)
            let beat = polar.beat(windSpeed: knots).angle
            let run = polar.run(windSpeed: knots).angle
            let here = (east: cos(Angle.radians(node.point.latitude)) * metresPerDegree, north: metresPerDegree)
            for heading in grid + [from + beat, from - beat, from + run, from - run].map({ Angle.direction($0) }) {
                guard let boat = sailing(angle: Angle.relative(from - heading), windSpeed: windSpeed) else { continue }
                let seconds = step - penalty(from: node, angle: boat.angle, motor: boat.motor)
                guard seconds > 0 else { continue }
                let metres = Units.metresPerSecond(knots: boat.speed)
                let radians = Angle.radians(heading)
                let east = (metres * sin(radians) + current.east) * seconds
                let north = (metres * cos(radians) + current.north) * seconds
                var longitude = node.point.longitude + east / max(here.east, 1)
                if longitude > 180 { longitude -= 360 }
                if longitude < -180 { longitude += 360 }
                let point = GeoPoint(latitude: node.point.latitude + north / here.north, longitude: longitude)
                let x = Angle.relative(point.longitude - start.longitude) * across
                let y = (point.latitude - start.latitude) * metresPerDegree
                let tx = Angle.relative(destination.longitude - point.longitude) * across
                let ty = (destination.latitude - point.latitude) * metresPerDegree
                // Away from the destination by more than half the passage again: no way there.
                guard tx * tx + ty * ty < farthest * farthest else { continue }
                let distance = x * x + y * y
                let bearing = Angle.direction(Angle.degrees(atan2(x, y)))
                let sector = min(Int(bearing / settings.sector), sectors - 1)
                guard distance > reach[sector], !land.crossesLand(node.point, point) else { continue }
                reach[sector] = distance
                kept[sector] = candidates.count
                candidates.append(
                    Node(
                        point: point, time: node.time + step, parent: index, heading: heading,
                        windAngle: boat.angle, motoring: boat.motor))
            }
        }
        var next: [Int] = []
        for sector in kept where sector >= 0 {
            nodes.append(candidates[sector])
            next.append(nodes.count - 1)
        }
        return next
    }
}
