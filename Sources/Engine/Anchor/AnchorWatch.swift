import Marine

/// How the anchor watch judges: the circle's radius when none is given, how long the boat must be out of it, the
/// margin for GPS scatter, and the bow's height for the radius from the chain. (Whether the drag alarm sounds is
/// ``AlarmSettings/anchor``.)
public struct AnchorSettings: Hashable, Sendable {
    /// Metres: the circle when the anchor is dropped with no radius given.
    public var radius = 40.0
    /// Seconds the boat must stay outside the circle before the drag alarm sounds.
    public var hold = 20.0
    /// Metres added to a radius taken from where the boat lies now or from the chain (GPS scatter, the swing of the
    /// boat about the anchor); signalk-anchoralarm's "fudge factor".
    public var margin = 5.0
    /// Metres from the waterline to the bow roller, for the chain's reach from its length and the depth.
    public var bowHeight = 1.0

    public init() {}
}

/// The anchor as set: where it lies, the circle's radius, when it was dropped, the depth then and the chain let
/// out. This is what is kept across a restart (the state folder's `anchor.toml`).
public struct AnchorSet: Hashable, Sendable {
    public var position: GeoPoint
    /// Metres from the anchor the GPS antenna may be.
    public var radius: Double
    /// UNIX seconds, 0 when unknown.
    public var droppedAt: Double
    /// Metres below the surface when it was dropped, when known.
    public var depth: Double?
    /// Metres of chain (or rode) let out, when given.
    public var rode: Double?

    public init(position: GeoPoint, radius: Double, droppedAt: Double, depth: Double? = nil, rode: Double? = nil) {
        self.position = position
        self.radius = radius
        self.droppedAt = droppedAt
        self.depth = depth
        self.rode = rode
    }

    /// Whether it could be true: a position on the earth, a radius from 1 m to a mile.
    public var isPlausible: Bool {
        position.latitude.isFinite && position.longitude.isFinite && abs(position.latitude) <= 90
            && abs(position.longitude) <= 180 && radius >= AnchorWatch.radiusLimits.lowerBound
            && radius <= AnchorWatch.radiusLimits.upperBound && droppedAt.isFinite
            && (depth.map { $0.isFinite && $0 >= 0 && $0 < 1000 } ?? true)
            && (rode.map { $0.isFinite && $0 > 0 && $0 < 2000 } ?? true)
    }
}

/// The anchor watch at a tick, as Signal K and the panel show it.
public struct AnchorStatus: Hashable, Sendable {
    public var set: AnchorSet
    /// Metres from the anchor to the boat (the median of the last fixes), when the position is current.
    public var distance: Double?
    /// Degrees true from the boat to the anchor.
    public var bearing: Double?
    /// Engine time from which the track is the swing track (since the anchor was dropped, or since a restart).
    public var trackFrom: Double

    public init(set: AnchorSet, distance: Double?, bearing: Double?, trackFrom: Double) {
        self.set = set
        self.distance = distance
        self.bearing = bearing
        self.trackFrom = trackFrom
    }
}

/// The anchor watch: the boat judged against the circle at each new fix. A fix is not taken alone: the boat is
/// where the median of the last three fixes puts it, so one wild fix moves nothing; a fix that leaps farther from
/// the last than a boat can move (50 m and 3 m/s) is a GPS jump and is counted, not taken, until five such fixes
/// agree with each other (the antenna really is somewhere else). Pure: time comes in as an argument.
public struct AnchorWatch: Sendable {
    public static let radiusLimits = 1.0...1852.0

    public private(set) var set: AnchorSet?
    /// Counts every change of ``set`` (dropped, moved, radius changed, raised): the shell saves it then.
    public private(set) var revision = 0
    /// Fixes judged a GPS jump and not taken.
    public private(set) var jumps = 0
    /// Engine time the swing track starts.
    private(set) var trackFrom = 0.0
    private var recent: [GeoPoint] = []
    private var leaping: [GeoPoint] = []
    private var lastFixTime: Double?
    private var lastTaken: (point: GeoPoint, time: Double)?
    /// Where the boat is judged to be, and its distance from the anchor and bearing to it.
    private(set) var judged: (point: GeoPoint, distance: Double, bearing: Double)?

    public init() {}

    mutating func drop(_ anchor: AnchorSet, at now: Double) {
        if set == nil { trackFrom = now }
        set = anchor
        revision &+= 1
        judged = nil
        if let last = recent.last { judge(last) }
    }

    mutating func raise() {
        set = nil
        judged = nil
        revision &+= 1
    }

    mutating func setRadius(_ radius: Double) {
        guard var anchor = set else { return }
        anchor.radius = radius
        anchor.rode = nil
        set = anchor
        revision &+= 1
    }

    mutating func setRode(_ rode: Double, radius: Double) {
        guard var anchor = set else { return }
        anchor.radius = radius
        anchor.rode = rode
        set = anchor
        revision &+= 1
    }

    /// The fix chosen at this tick, `time` when it arrived; each fix is taken once.
    mutating func observe(_ fix: GeoPoint?, time: Double?) {
        guard let fix, let time, time != lastFixTime else { return }
        lastFixTime = time
        if let last = lastTaken {
            let leap = Geodesic.wgs84.inverse(last.point, fix).distance
            if leap > 50 + 3 * max(0, time - last.time) {
                jumps += 1
                leaping.append(fix)
                let agree =
                    leaping.count >= 5
                    && leaping.allSatisfy { Geodesic.wgs84.inverse(leaping[0], $0).distance < 25 }
                guard agree else {
                    if leaping.count >= 5 { leaping.removeFirst() }
                    return
                }
                recent = []
            }
        }
        leaping = []
        lastTaken = (fix, time)
        recent.append(fix)
        if recent.count > 3 { recent.removeFirst() }
        judge(median)
    }

    /// The median of the last fixes, latitude and longitude apart.
    private var median: GeoPoint {
        func middle(_ values: [Double]) -> Double {
            let sorted = values.sorted()
            return sorted.count % 2 == 1
                ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        }
        return GeoPoint(latitude: middle(recent.map { $0.latitude }), longitude: middle(recent.map { $0.longitude }))
    }

    private mutating func judge(_ point: GeoPoint) {
        guard let anchor = set else { return }
        let leg = Geodesic.wgs84.inverse(point, anchor.position)
        judged = (point, leg.distance, (leg.initialAzimuth + 360).truncatingRemainder(dividingBy: 360))
    }

    /// The position went stale: the boat is judged again from fresh fixes only.
    mutating func forget() {
        recent = []
        leaping = []
        lastTaken = nil
        judged = nil
    }

    /// The watch at this tick.
    var status: AnchorStatus? {
        self.set.map {
            AnchorStatus(set: $0, distance: judged?.distance, bearing: judged?.bearing, trackFrom: trackFrom)
        }
    }

    /// The chain's reach along the bottom from its length, the depth and the bow's height (Pythagoras, the chain
    /// taken as straight: the most it can reach), in metres; the whole length when the depth is unknown.
    public static func reach(rode: Double, depth: Double?, bowHeight: Double) -> Double {
        guard let depth else { return rode }
        let height = depth + bowHeight
        return rode > height ? (rode * rode - height * height).squareRoot() : 0
    }
}
