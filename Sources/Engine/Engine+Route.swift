import Marine
import NMEA

/// Route following: the local route and its commands, an upstream plotter's destination, each tick's guidance.
extension Engine {
    /// Follows a local route (a configured or loaded GPX), from `leg`.
    public mutating func follow(_ route: Route, leg: Int = 0) {
        follower.start(route, leg: leg)
        plannedRoute = route
        hasLocalRoute = true
        isSinglePoint = false
        isReversed = false
        upstreamKey = nil
    }

    /// Goes to one point from where the boat is now (Signal K's Course API `destination`); false without a fix.
    @discardableResult
    public mutating func go(to point: GeoPoint, name: String = "destination") -> Bool {
        guard let here = values.position?.point else { return false }
        // The planned route is kept: `restartRoute` goes back to it.
        follower.start(
            Route(name: name, waypoints: [Waypoint(id: "start", position: here), Waypoint(id: name, position: point)]))
        hasLocalRoute = true
        isSinglePoint = true
        isReversed = false
        upstreamKey = nil
        return true
    }

    /// Follows a route the crew chose (a saved resource, Signal K's `activeRoute` by href), backwards when
    /// `reverse`, heading for its point `pointIndex` (of the route as followed): the first from where the boat is.
    public mutating func follow(_ route: Route, pointIndex: Int, reverse: Bool) -> Bool {
        guard route.waypoints.count >= 2, pointIndex >= 0, pointIndex < route.waypoints.count else { return false }
        var chosen = route
        if reverse {
            chosen = Route(name: route.name, waypoints: route.waypoints.reversed())
            chosen.reference = route.reference
        }
        follow(chosen, leg: max(0, pointIndex - 1))
        isReversed = reverse
        if pointIndex == 0 { headRoute(toPoint: 0) }
        return true
    }

    /// Replaces the local route (a reloaded file), keeping the active leg when it still exists.
    public mutating func replaceRoute(with route: Route) {
        if isReversed && !isSinglePoint {
            follow(route)
        } else if hasLocalRoute && !isSinglePoint {
            follower.replace(with: route)
        } else if !isSinglePoint {
            follow(route)
        }
        plannedRoute = route
        hasLocalRoute = true
    }

    /// Starts the local route again from its first leg (the planned route, after a destination or a stop); false when
    /// there is none.
    @discardableResult
    public mutating func restartRoute() -> Bool {
        guard let route = plannedRoute ?? follower.route else { return false }
        let reversed = isReversed
        follow(route)
        isReversed = reversed
        return true
    }

    /// Skips to the next leg; false when the active leg is the last (or no route is followed).
    @discardableResult
    public mutating func advanceRoute() -> Bool {
        guard let route = follower.route, follower.legIndex + 1 < route.legCount else { return false }
        follower.activate(leg: follower.legIndex + 1)
        return true
    }

    /// The id of a leg's origin that is where the boat was when it was set (a leg rejoined, a route reversed).
    public static let boatOrigin = "here"

    /// Goes back to the leg before; false when the active leg is the first (or no route is followed).
    @discardableResult
    public mutating func backRoute() -> Bool {
        guard follower.route != nil, follower.legIndex > 0 else { return false }
        follower.activate(leg: follower.legIndex - 1)
        return true
    }

    /// Starts the active leg again from where the boat is: the cross-track error is measured from here (the Course
    /// API's `restart`). False without a fix or a route.
    @discardableResult
    public mutating func rejoinRoute() -> Bool {
        guard follower.route != nil, let here = values.position?.point else {
            return false
        }
        follower.activate(leg: follower.legIndex, origin: Waypoint(id: Self.boatOrigin, position: here))
        return true
    }

    /// Heads for the route's point `index`: from the point before it, or for the first from where the boat is.
    /// False when that needs a fix and there is none.
    @discardableResult
    public mutating func headRoute(toPoint index: Int) -> Bool {
        guard let route = follower.route, index >= 0, index < route.waypoints.count else { return false }
        if index > 0 {
            follower.activate(leg: index - 1)
            return true
        }
        guard let here = values.position?.point else { return false }
        follower.activate(leg: 0, origin: Waypoint(id: Self.boatOrigin, position: here))
        return true
    }

    /// Follows the route backwards from where the boat is, to the waypoint last passed (the active leg's start).
    /// The reversed route is the planned one from now (`start` begins it at its first point). False without a fix.
    @discardableResult
    public mutating func reverseRoute() -> Bool {
        guard let route = follower.route, route.waypoints.count >= 2,
            let here = values.position?.point
        else { return false }
        let leg = follower.legIndex
        var reversed = Route(name: route.name, waypoints: route.waypoints.reversed())
        reversed.reference = route.reference
        // Forward leg i runs from point i to i + 1; backwards, point i is at count - 1 - i, and the leg to it is the
        // one before.
        let target = route.waypoints.count - 1 - leg
        follower.start(reversed, leg: target - 1, origin: Waypoint(id: Self.boatOrigin, position: here))
        if !isSinglePoint { plannedRoute = reversed }
        isReversed.toggle()
        return true
    }

    /// The arrival circle's radius, metres, at most ``maximumArrivalRadius``.
    @discardableResult
    public mutating func setArrivalRadius(_ metres: Double) -> Bool {
        guard metres <= Self.maximumArrivalRadius else { return false }
        return follower.setArrivalRadius(metres)
    }

    /// 10 NM: beyond it an "arrival" says nothing about where the boat is.
    public static let maximumArrivalRadius = 10 * Units.metresPerNauticalMile

    public mutating func pauseRoute() { follower.pause() }
    public mutating func resumeRoute() { follower.resume() }

    public mutating func stopRoute() {
        follower.stop()
        hasLocalRoute = false
        isSinglePoint = false
        upstreamKey = nil
    }

    /// The route being followed and its phase.
    public var route: (route: Route?, phase: RouteFollower.Phase, leg: Int) {
        (follower.route, follower.phase, follower.legIndex)
    }

    /// The position as it is at `time`: at each tick, and for a command between ticks (one given between a fix's
    /// arrival and the next tick acts on that fix, which Signal K has shown already; a fix gone stale is not used).
    mutating func takePosition(at time: Double) {
        currentFix = inputs.position.select(at: time)
        values.position = currentFix?.value
    }

    /// Route following for this tick: upstream follow, the follower, the UTC of the engine clock.
    mutating func navigate(at now: Double) {
        takePosition(at: now)
        let fix = currentFix
        if let fix { positions.learn(fix.value, at: fix.time) }
        // UTC: the GNSS clock once a fix with a date has set it, else the clock the shell gave, else the last fix's
        // time run on.
        if let seconds = unixTime(at: now) {
            values.utc = UTCTime(secondsOfDay: seconds)
        } else if let fix, let utc = fix.value.utc {
            let ms = utc.millisecondsOfDay + Int(((now - fix.time) * 1000).rounded())
            values.utc = UTCTime(millisecondsOfDay: (ms % 86_400_000 + 86_400_000) % 86_400_000)
        }

        if configuration.followUpstream && !hasLocalRoute, let announced = inputs.upstreamDestination,
            announced.isFresh(at: now, timeout: configuration.timeouts.position * 6)
        {
            let destination = announced.value
            if upstreamKey?.id != destination.id || upstreamKey?.position != destination.position {
                // A new destination upstream: its origin is the announced origin waypoint when we know where that
                // is, else where the boat is now.
                let originPoint = destination.originID.flatMap { inputs.knownWaypoints[$0] } ?? fix?.value.point
                if let originPoint {
                    let origin = Waypoint(id: destination.originID ?? "", position: originPoint)
                    let target = Waypoint(id: destination.id, position: destination.position)
                    follower.start(Route(waypoints: [origin, target]))
                    upstreamKey = destination
                }
            }
        }

        // Paused or stopped: no guidance at all (a paused route is not a stale one).
        guard follower.phase == .active, let route = follower.route, follower.legIndex < route.legCount else {
            values.navigationLeg = nil
            values.navigation = nil
            return
        }
        let leg = follower.legIndex
        let fixTime = fix.map { $0.value.utc.map { Double($0.millisecondsOfDay) / 1000 } ?? $0.time }
        if let fix, let fixTime {
            values.navigation = follower.update(
                position: fix.value.point, speedOverGround: values.speedOverGround,
                courseOverGround: values.courseOverGround, fixTime: fixTime)
        } else {
            values.navigation = nil
        }
        // After an advance the solution already describes the new leg; the leg reported follows it.
        var reported: NavigationLeg
        if let solution = values.navigation {
            reported = NavigationLeg(
                origin: solution.origin, destination: solution.destination, isUpstream: !hasLocalRoute)
        } else {
            reported = NavigationLeg(
                origin: route.waypoints[leg], destination: route.waypoints[leg + 1], isUpstream: !hasLocalRoute)
        }
        reported.routeName = route.name
        reported.routeReference = route.reference
        reported.destinationIndex = min(follower.legIndex + 1, route.waypoints.count - 1)
        reported.waypointCount = route.waypoints.count
        reported.arrivalRadius = follower.settings.arrivalRadius
        reported.isSinglePoint = isSinglePoint
        reported.isReversed = isReversed
        values.navigationLeg = reported
    }

    /// UNIX seconds at engine time `time`: the GNSS clock once a fix with a date has set it, else the clock the
    /// shell gave (``setClock(unixTime:at:)``).
    public func unixTime(at time: Double) -> Double? { positions.unixTime(at: time) ?? utcOffset.map { time + $0 } }

    /// Whether the clock is the fixes' own (GNSS time with a date, or a replay's): a clock to keep history on.
    public var clockFromFixes: Bool { positions.clock != nil }

    /// The source the engine uses now for `group`, if any.
    public func chosenSource(_ group: QuantityGroup) -> SourceID? {
        switch group {
        case .wind: inputs.apparentWind.currentSource ?? inputs.trueWind.currentSource
        case .heading: inputs.headingTrue.currentSource ?? inputs.headingMagnetic.currentSource
        case .speed: inputs.speedThroughWater.currentSource
        case .position: inputs.motionOverGround.currentSource
        case .depth: inputs.depth.currentSource
        case .attitude: inputs.attitude.currentSource
        }
    }

    /// Which source each group currently uses, for the status line and the periodic summary.
    public var chosenSources: [String: String] {
        var chosen: [String: String] = [:]
        if let id = inputs.apparentWind.currentSource { chosen["wind"] = name(of: id) }
        if let id = inputs.headingTrue.currentSource ?? inputs.headingMagnetic.currentSource {
            chosen["heading"] = name(of: id)
        }
        if let id = inputs.speedThroughWater.currentSource { chosen["speed"] = name(of: id) }
        if let id = inputs.motionOverGround.currentSource { chosen["position"] = name(of: id) }
        if let id = inputs.attitude.currentSource { chosen["attitude"] = name(of: id) }
        if let id = inputs.depth.currentSource { chosen["depth"] = name(of: id) }
        return chosen
    }
}
