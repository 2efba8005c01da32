import Marine

/// A race as the race office sets it: the gun (one for all, or one a class), the start line, the marks in the order
/// they are rounded, the finish line, and a time limit.
///
/// How a boat's track is read against it (``RaceStandings``):
/// - **Started**: its first crossing of the start line (between its two ends) from the pre-start side to the course
///   side after its class's gun. A boat over the line at the gun is started only when it has come back and crossed
///   again. Elapsed time runs from the gun, not from the crossing.
/// - **Rounded a mark**: the boat came within the mark's zone (``Mark/zone`` metres) of it on the far side of the line
///   through the mark square to the leg that leads to it (level with the mark or past it). Marks count only in order.
/// - **Finished**: after the last mark, its first crossing of the finish line (between its two ends), either way.
public struct RaceCourse: Sendable {
    public struct Mark: Sendable {
        public var name: String
        public var point: GeoPoint
        /// Metres: how close to the mark a boat must come past it to have rounded it.
        public var zone: Double

        public init(name: String, point: GeoPoint, zone: Double) {
            self.name = name
            self.point = point
            self.zone = zone
        }
    }

    public var name: String
    /// The gun for every class not in ``starts`` (UNIX seconds).
    public var start: Double
    /// A class's own gun, when classes start apart.
    public var starts: [String: Double] = [:]
    /// UNIX seconds by which a boat must finish; after it a boat still racing did not finish.
    public var timeLimit: Double?
    /// The start line's two ends.
    public var line: (GeoPoint, GeoPoint)
    public var marks: [Mark]
    /// The finish line's two ends (the start line when the race office names none).
    public var finish: (GeoPoint, GeoPoint)
    /// Only these classes race (empty: every boat entered, or every boat heard when there is no fleet file).
    public var classes: [String] = []

    public init(
        name: String, start: Double, line: (GeoPoint, GeoPoint), marks: [Mark], finish: (GeoPoint, GeoPoint)? = nil
    ) {
        self.name = name
        self.start = start
        self.line = line
        self.marks = marks
        self.finish = finish ?? line
    }

    /// The gun of a class.
    public func gun(_ group: String) -> Double { starts[group] ?? start }

    /// The first gun and when the race is over for the office (the time limit, or a day after the last gun).
    public var span: (first: Double, last: Double) {
        let first = ([start] + starts.values).min() ?? start
        let last = timeLimit ?? ((([start] + starts.values).max() ?? start) + 86_400)
        return (first, last)
    }

    static func middle(_ a: GeoPoint, _ b: GeoPoint) -> GeoPoint {
        GeoPoint(latitude: (a.latitude + b.latitude) / 2, longitude: (a.longitude + b.longitude) / 2)
    }

    /// The course's points from the start line's middle through the marks to the finish line's middle.
    var waypoints: [GeoPoint] {
        [Self.middle(line.0, line.1)] + marks.map { $0.point } + [Self.middle(finish.0, finish.1)]
    }

    /// Metres from the start line's middle round the marks to the finish line's middle (geodesics on WGS84).
    public var length: Double {
        let points = waypoints
        var total = 0.0
        for i in 1..<points.count { total += Geodesic.wgs84.inverse(points[i - 1], points[i]).distance }
        return total
    }
}

/// Metres east and north of an origin, on the plane tangent there with WGS84's radii of curvature: for the lines and
/// zones of one race area (within some tens of miles), and for the short steps of a track.
struct LocalPlane {
    let origin: GeoPoint
    let east: Double
    let north: Double

    init(_ origin: GeoPoint) {
        self.origin = origin
        (east, north) = Self.scale(origin.latitude)
    }

    /// Metres a degree of longitude and of latitude at a latitude.
    static func scale(_ latitude: Double) -> (Double, Double) {
        let a = 6_378_137.0
        let e2 = (1 / 298.257_223_563) * (2 - 1 / 298.257_223_563)
        let phi = latitude * Double.pi / 180
        let s = sin(phi)
        let w = (1 - e2 * s * s).squareRoot()
        let n = a / w
        let m = a * (1 - e2) / (w * w * w)
        return (n * cos(phi) * Double.pi / 180, m * Double.pi / 180)
    }

    func xy(_ latitude: Double, _ longitude: Double) -> (x: Double, y: Double) {
        var dLon = longitude - origin.longitude
        if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
        return (dLon * east, (latitude - origin.latitude) * north)
    }

    func xy(_ point: GeoPoint) -> (x: Double, y: Double) { xy(point.latitude, point.longitude) }

    /// Metres between two close positions: the plane at their middle.
    static func step(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let (east, north) = scale((lat1 + lat2) / 2)
        var dLon = lon2 - lon1
        if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
        let dx = dLon * east
        let dy = (lat2 - lat1) * north
        return (dx * dx + dy * dy).squareRoot()
    }
}
