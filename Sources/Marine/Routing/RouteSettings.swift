/// What the crew tells the weather router: how well the boat sails against its polar, how finely to search, what a
/// tack or a gybe costs, and the limits it must keep (the most wind it will sail in, no running dead downwind in a
/// blow, the engine below a speed). Wind speeds m/s, boat speeds knots, times seconds, angles degrees.
public struct RouteSettings: Hashable, Sendable {
    /// The share of the polar's speed the boat makes (0.95: 95 %).
    public var performance = 1.0
    /// The time between isochrones, seconds (the last one ends at the destination).
    public var step = 1800.0
    /// The headings tried from each point, degrees apart.
    public var headingStep = 5.0
    /// The isochrone's points kept, one a sector of this many degrees around the start.
    public var sector = 0.5
    /// Time lost by a tack and by a gybe, seconds.
    public var tackPenalty = 90.0
    public var gybePenalty = 60.0
    /// No sailing where the true wind is stronger than this (m/s); nil: no limit.
    public var maximumWind: Double?
    /// No running (true wind angle past `runAngle`) where the true wind is stronger than this (m/s); nil: no limit.
    public var noRunAbove: Double?
    public var runAngle = 160.0
    /// Under engine at `motorSpeed` knots where sailing would be slower than this many knots; nil: never.
    public var motorBelow: Double?
    public var motorSpeed = 5.0
    /// The longest passage searched, seconds (beyond it the destination is said to be out of reach).
    public var longest = 14.0 * 86_400

    public init() {}
}

/// Why no route: each said as the crew can act on it.
public enum RouteFailure: Error, Hashable, Sendable {
    /// The start or the destination is on land (or too close to it: within the margin).
    case startOnLand
    case destinationOnLand
    /// No forecast speaks for this place and time (the passage runs past the forecast's end or out of its area).
    case noForecast(at: GeoPoint, time: Double)
    /// Every way on is blocked (land, the limits, no wind) before the destination.
    case unreachable(at: Double)
    /// Searched for `longest` without arriving.
    case tooLong
}

/// A point of the route the router found: where, when, and how the boat sails the leg that starts there.
public struct RoutePoint: Hashable, Sendable {
    public var point: GeoPoint
    public var time: Double
    /// The leg from here: heading (true), true wind angle (signed, positive starboard), true wind speed (m/s), boat
    /// speed through the water and over the ground (knots); under engine or not.
    public var heading = 0.0
    public var windAngle = 0.0
    public var windSpeed = 0.0
    public var speed = 0.0
    public var groundSpeed = 0.0
    public var motoring = false

    public init(point: GeoPoint, time: Double) {
        self.point = point
        self.time = time
    }
}

/// The router's answer: the route (the start, a point at each tack, gybe or turn, the destination), the isochrones it
/// grew, and what the passage is like.
public struct RoutePlan: Sendable {
    public var waypoints: [RoutePoint]
    public var isochrones: [[GeoPoint]]
    public var departure: Double
    public var arrival: Double
    /// Metres sailed along the waypoints.
    public var distance: Double
    /// Seconds close-hauled (|TWA| under 70°), reaching, running (over 120°), under engine.
    public var upwind = 0.0
    public var reaching = 0.0
    public var downwind = 0.0
    public var motoring = 0.0
    public var tacks = 0
    public var gybes = 0
    /// The strongest true wind and gust met, m/s.
    public var maximumWind = 0.0
    public var maximumGust = 0.0

    public init(waypoints: [RoutePoint], isochrones: [[GeoPoint]], departure: Double, arrival: Double, distance: Double)
    {
        self.waypoints = waypoints
        self.isochrones = isochrones
        self.departure = departure
        self.arrival = arrival
        self.distance = distance
    }

    public var duration: Double { arrival - departure }
}
