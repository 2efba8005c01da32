import Marine

/// How the follower behaves; every default is in the README.
public struct RouteSettings: Hashable, Sendable {
    /// Metres; OpenCPN's default is 0.05 NM.
    public var arrivalRadius = 0.05 * Units.metresPerNauticalMile
    /// Consecutive fixes that must agree before a waypoint counts as reached (one GPS jump must not skip one).
    public var arrivalConfirmations = 3
    /// Go on to the next leg by itself after an arrival.
    public var autoAdvance = true
    /// Metres ahead along the leg of the intercept point the course to steer aims at.
    public var lookAhead = 0.1 * Units.metresPerNauticalMile
    /// The course to steer stays within this many degrees of the bearing to the waypoint.
    public var maximumInterceptAngle = 30.0
    /// Metres before a waypoint at which the guidance is spoken ("East in 2 cables, next course zero four five");
    /// empty: none. A mile and two cables.
    public var announceDistances = [Units.metresPerNauticalMile, 0.2 * Units.metresPerNauticalMile]

    public init() {}
}

/// Everything a chartplotter and an autopilot are told about the active leg at one moment.
/// Distances in metres, speeds in m/s, bearings in degrees true.
public struct NavigationSolution: Hashable, Sendable {
    public var legIndex: Int
    public var origin: Waypoint
    public var destination: Waypoint
    /// Positive: the boat is right of the leg (steer left).
    public var crossTrack: Double
    public var alongTrack: Double
    public var legLength: Double
    /// Great circle (geodesic) to the destination.
    public var distanceToWaypoint: Double
    public var bearingToWaypoint: Double
    /// Rhumb line to the destination.
    public var rhumbDistanceToWaypoint: Double
    public var rhumbBearingToWaypoint: Double
    /// Rhumb-line course from origin to destination (the leg's bearing as plotters show it).
    public var legBearing: Double
    /// Distance to the destination plus all later legs.
    public var distanceToEnd: Double
    /// SOG·cos(COG - bearing to the waypoint); nil without SOG/COG.
    public var closingVelocity: Double?
    /// Seconds to the destination at the closing velocity; nil when not closing.
    public var timeToGo: Double?
    /// The bearing to an intercept point on the leg `lookAhead` metres ahead, kept within the maximum intercept
    /// angle of the bearing to the waypoint.
    public var courseToSteer: Double
    public var arrivalCircleEntered: Bool
    public var perpendicularPassed: Bool
    /// The destination is the last waypoint and has been reached: guidance has ended.
    public var routeComplete: Bool
}

/// Follows a route: one source of truth for the active leg and the next waypoint.
///
/// Pure: positions and times come in as arguments. Call ``update(position:speedOverGround:courseOverGround:fixTime:)``
/// with each new fix (or the last one again; a fix is counted once).
public struct RouteFollower: Sendable {
    public enum Phase: Hashable, Sendable {
        case stopped
        case active
        case paused
    }

    public private(set) var route: Route?
    public private(set) var phase = Phase.stopped
    /// Leg i goes from waypoint i to waypoint i + 1.
    public private(set) var legIndex = 0
    public private(set) var settings: RouteSettings
    /// The active leg's origin when it is not the route's waypoint (upstream follow starts where the destination
    /// changed; a leg rejoined starts where the boat was).
    private var customOrigin: Waypoint?
    private var arrivalCount = 0
    /// Arrivals confirmed since the start (a waypoint reached, the leg advanced or the route completed).
    public private(set) var arrivals = 0
    /// The waypoint of the last confirmed arrival.
    public private(set) var lastArrival: Waypoint?
    private var arrivalCounted = false
    private var lastFixTime: Double?
    private var warmStart: (point: GeoPoint, azimuth: Double, alongTrack: Double, leg: Int)?
    private var completed = false

    public init(settings: RouteSettings = RouteSettings()) {
        self.settings = settings
    }

    /// Starts following `route` from `leg` (clamped to the route).
    public mutating func start(_ route: Route, leg: Int = 0, origin: Waypoint? = nil) {
        self.route = route
        legIndex = min(max(leg, 0), max(route.legCount - 1, 0))
        customOrigin = origin
        phase = route.legCount > 0 ? .active : .stopped
        resetLegState()
    }

    /// Replaces the route (a reloaded file), keeping the active leg when its two waypoints still follow each
    /// other in the new route; otherwise starting again from the first leg.
    public mutating func replace(with newRoute: Route) {
        guard let route, phase != .stopped, legIndex < route.legCount else {
            start(newRoute)
            return
        }
        let from = route.waypoints[legIndex].id
        let to = route.waypoints[legIndex + 1].id
        let kept = newRoute.waypoints.indices.dropLast().first {
            newRoute.waypoints[$0].id == from && newRoute.waypoints[$0 + 1].id == to
        }
        let wasPaused = phase == .paused
        let origin = customOrigin
        start(newRoute, leg: kept ?? 0, origin: kept != nil ? origin : nil)
        if wasPaused { phase = .paused }
    }

    public mutating func pause() { if phase == .active { phase = .paused } }
    public mutating func resume() { if phase == .paused { phase = .active } }

    public mutating func stop() {
        phase = .stopped
        route = nil
        resetLegState()
    }

    /// Moves to another leg by hand; `origin` replaces its first waypoint (where the boat is, say).
    public mutating func activate(leg: Int, origin: Waypoint? = nil) {
        guard let route else { return }
        legIndex = min(max(leg, 0), max(route.legCount - 1, 0))
        customOrigin = origin
        resetLegState()
    }

    /// Metres; negative or not finite is refused (false).
    public mutating func setArrivalRadius(_ metres: Double) -> Bool {
        guard metres.isFinite && metres >= 0 else { return false }
        settings.arrivalRadius = metres
        return true
    }

    private mutating func resetLegState() {
        arrivalCount = 0
        arrivalCounted = false
        warmStart = nil
        completed = false
    }

    /// The navigation geometry for a fix, advancing to the next leg when an arrival is confirmed (the solution
    /// returned then already describes the new leg). Nil when stopped or paused.
    public mutating func update(
        position: GeoPoint, speedOverGround: Double?, courseOverGround: Double?, fixTime: Double
    ) -> NavigationSolution? {
        guard phase == .active, let route, route.legCount > 0 else { return nil }
        let isNewFix = lastFixTime != fixTime
        lastFixTime = fixTime
        var solution = solve(route, position: position, sog: speedOverGround, cog: courseOverGround)
        guard !completed else { return solution }
        let arriving = solution.arrivalCircleEntered || solution.perpendicularPassed
        if isNewFix { arrivalCount = arriving ? arrivalCount + 1 : 0 }
        if arrivalCount >= max(settings.arrivalConfirmations, 1) {
            if !arrivalCounted {
                arrivals += 1
                lastArrival = route.waypoints[legIndex + 1]
                arrivalCounted = true
            }
            if legIndex + 1 < route.legCount && settings.autoAdvance {
                legIndex += 1
                customOrigin = nil
                resetLegState()
                solution = solve(route, position: position, sog: speedOverGround, cog: courseOverGround)
            } else if legIndex + 1 >= route.legCount {
                completed = true
                solution.routeComplete = true
            }
        }
        return solution
    }

    private mutating func solve(_ route: Route, position: GeoPoint, sog: Double?, cog: Double?)
        -> NavigationSolution
    {
        let geodesic = Geodesic.wgs84
        let origin = customOrigin ?? route.waypoints[legIndex]
        let destination = route.waypoints[legIndex + 1]
        let legLength: Double
        let legAzimuth: Double
        if customOrigin != nil {
            let leg = geodesic.inverse(origin.position, destination.position)
            legLength = leg.distance
            legAzimuth = leg.initialAzimuth
        } else {
            legLength = route.legLengths[legIndex]
            legAzimuth = route.legAzimuths[legIndex]
        }
        let warm = warmStart.flatMap { $0.leg == legIndex ? ($0.point, $0.azimuth, $0.alongTrack) : nil }
        let located = LegGeometry.locate(
            position, onLegFrom: origin.position, azimuth: legAzimuth, start: warm, geodesic: geodesic)
        warmStart = (located.foot, located.legAzimuthAtFoot, located.alongTrack, legIndex)

        let toWaypoint = geodesic.inverse(position, destination.position)
        let rhumbToWaypoint = Rhumb.wgs84.inverse(position, destination.position)
        let legRhumb = Rhumb.wgs84.inverse(origin.position, destination.position)
        let bearing = Angle.direction(toWaypoint.initialAzimuth)

        var closing: Double?
        var timeToGo: Double?
        if let sog, let cog {
            let velocity = sog * cos(Angle.radians(cog - bearing))
            closing = velocity
            if velocity > 0.05 { timeToGo = toWaypoint.distance / velocity }
        }

        // Course to steer: aim at a point on the leg lookAhead metres beyond the foot, never beyond the waypoint.
        let remaining = legLength - located.alongTrack
        var courseToSteer = bearing
        if remaining > settings.lookAhead {
            let intercept = geodesic.direct(
                from: located.foot, azimuth: located.legAzimuthAtFoot, distance: settings.lookAhead)
            let toIntercept = geodesic.inverse(position, intercept.point).initialAzimuth
            let offBearing = Angle.difference(from: bearing, to: toIntercept)
            let limited = min(max(offBearing, -settings.maximumInterceptAngle), settings.maximumInterceptAngle)
            courseToSteer = Angle.direction(bearing + limited)
        }

        return NavigationSolution(
            legIndex: legIndex, origin: origin, destination: destination, crossTrack: located.crossTrack,
            alongTrack: located.alongTrack, legLength: legLength, distanceToWaypoint: toWaypoint.distance,
            bearingToWaypoint: bearing, rhumbDistanceToWaypoint: rhumbToWaypoint.distance,
            rhumbBearingToWaypoint: Angle.direction(rhumbToWaypoint.course),
            legBearing: Angle.direction(legRhumb.course),
            distanceToEnd: toWaypoint.distance + route.remainingAfterLeg[legIndex], closingVelocity: closing,
            timeToGo: timeToGo, courseToSteer: courseToSteer,
            arrivalCircleEntered: toWaypoint.distance <= settings.arrivalRadius,
            perpendicularPassed: located.alongTrack >= legLength, routeComplete: completed)
    }
}
