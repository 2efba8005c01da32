import Marine

/// The stations near a place, as the shell found them in the harmonics files (``Engine/setTides(_:)``): the tide
/// station whose heights stand for the boat's, and the current stations whose streams are weighed at the boat.
public struct TideStations: Sendable {
    public var near: GeoPoint
    public var tide: TideStation?
    public var currents: [TideStation]

    public init(near: GeoPoint, tide: TideStation?, currents: [TideStation]) {
        self.near = near
        self.tide = tide
        self.currents = currents
    }
}

/// The tide on board between ticks: the stations the shell handed over and their curves, the events of the day
/// around now, when the stations were last asked for and where, and the measured current's running mean.
struct TideWatch: Sendable {
    var stations: TideStations?
    var tide: TideCurve?
    var currents: [TideCurve] = []
    /// High and low waters from 13 hours before to 27 hours after the instant they were found for.
    var events: [TideEvent] = []
    var eventsFrom = 0.0
    var eventsTo = -1.0
    /// Where and when (engine seconds) the stations were last asked for; the place still to ask about.
    var askedNear: GeoPoint?
    var askedAt = -Double.infinity
    var request: GeoPoint?
    var lastUpdate = -Double.infinity
    var lastReport: TideReport?
    var lastStream: TidalStream?
    var current = CurrentMean()

    /// Whether the stations near `point` should be asked for at `now`: none asked for yet, or the boat has moved on
    /// `settings.reloadDistance` since, and not more than once every `reloadInterval`.
    mutating func ask(at point: GeoPoint, now: Double, settings: TideSettings) {
        guard now - askedAt >= settings.reloadInterval || now < askedAt else { return }
        if let near = askedNear, Self.distance(near, point) < settings.reloadDistance { return }
        askedNear = point
        askedAt = now
        request = point
    }

    mutating func set(_ stations: TideStations) {
        self.stations = stations
        tide = stations.tide?.curve()
        currents = TideStation.surfaceOnly(stations.currents).map { $0.curve() }
        events = []
        eventsTo = -1
    }

    /// The height now, the events around it and the water at the next low, at UTC `utc`, the boat at `point`, with
    /// `depth` metres under the transducer.
    mutating func report(utc: Double, point: GeoPoint, depth: Double?, settings: TideSettings) -> TideReport? {
        guard var curve = tide else { return nil }
        defer { tide = curve }
        if utc < eventsFrom || utc > eventsTo - 13 * 3600 {
            eventsFrom = utc - 13 * 3600
            eventsTo = utc + 27 * 3600
            events = curve.events(from: eventsFrom, to: eventsTo)
        }
        let station = curve.station
        let height = curve.value(at: utc)
        var report = TideReport(
            station: station.name,
            distance: Self.distance(point, GeoPoint(latitude: station.latitude, longitude: station.longitude)),
            datum: station.datum, height: height, rising: curve.value(at: utc + 60) > height)
        report.previous = events.last { $0.time <= utc }
        report.nextHigh = events.first { $0.time > utc && $0.kind == .high }
        report.nextLow = events.first { $0.time > utc && $0.kind == .low }
        if let depth, let low = report.nextLow {
            let underTransducer = depth - height + low.value
            if let draft = settings.draft {
                report.depthAtNextLow = underTransducer + settings.transducerDepth - draft
                report.depthIsBelowKeel = true
            } else {
                report.depthAtNextLow = underTransducer
            }
        }
        return report
    }

    /// The stream at `point` at UTC `utc`: the current stations' streams weighed by the inverse square of their
    /// distance (the nearest alone within 200 m); nil with none that says which way it sets.
    mutating func stream(utc: Double, point: GeoPoint) -> TidalStream? {
        var east = 0.0
        var north = 0.0
        var weights = 0.0
        var nearest: (name: String, distance: Double)?
        var count = 0
        for index in currents.indices {
            let station = currents[index].station
            let speed = currents[index].value(at: utc)
            guard let direction = station.direction(ofSpeed: speed) else { continue }
            let distance = Self.distance(point, GeoPoint(latitude: station.latitude, longitude: station.longitude))
            let weight = 1 / max(distance * distance, 1)
            let radians = direction * Double.pi / 180
            let knots = speed < 0 ? -speed : speed
            if distance < 200 {
                (east, north, weights, count) = (knots * sin(radians), knots * cos(radians), 1, 1)
                nearest = (station.name, distance)
                break
            }
            east += weight * knots * sin(radians)
            north += weight * knots * cos(radians)
            weights += weight
            count += 1
            if nearest == nil || distance < nearest!.distance { nearest = (station.name, distance) }
        }
        guard let nearest, weights > 0 else { return nil }
        east /= weights
        north /= weights
        var set = atan2(east, north) * 180 / Double.pi
        if set < 0 { set += 360 }
        return TidalStream(
            set: set, drift: (east * east + north * north).squareRoot() * 1852 / 3600, station: nearest.name,
            distance: nearest.distance, stations: count)
    }

    static func distance(_ a: GeoPoint, _ b: GeoPoint) -> Double { Geodesic.wgs84.inverse(a, b).distance }
}

/// The measured current's running mean: the ground's velocity less the water's, as east and north components,
/// each second's weighed so that a minute's past counts (the log and the compass swing with every wave).
struct CurrentMean: Sendable {
    var east = 0.0
    var north = 0.0
    var seconds = 0.0
    static let timeConstant = 60.0

    /// One second's velocities (m/s; degrees true): over the ground, and through the water along the heading with
    /// leeway.
    mutating func add(ground: (speed: Double, course: Double), water: (speed: Double, heading: Double)) {
        let radians = Double.pi / 180
        let e = ground.speed * sin(ground.course * radians) - water.speed * sin(water.heading * radians)
        let n = ground.speed * cos(ground.course * radians) - water.speed * cos(water.heading * radians)
        let weight = 1 / min(seconds + 1, Self.timeConstant)
        east += (e - east) * weight
        north += (n - north) * weight
        seconds += 1
    }

    mutating func reset() { self = CurrentMean() }

    /// After half a minute of seconds.
    var value: MeasuredCurrent? {
        guard seconds >= 30 else { return nil }
        var set = atan2(east, north) * 180 / Double.pi
        if set < 0 { set += 360 }
        return MeasuredCurrent(set: set, drift: (east * east + north * north).squareRoot())
    }
}
