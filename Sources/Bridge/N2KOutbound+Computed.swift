import Engine
import Marine
import N2K
import NMEA

/// The computed values, from each tick's report.
extension N2KOutbound {
    mutating func isDue(_ key: UInt32, every interval: Double, at time: Double) -> Bool {
        if let next = due[key], time < next - 0.001 { return false }
        due[key] = time + interval
        return true
    }

    /// The engine's report of one tick.
    public mutating func report(
        _ report: EngineReport, bus: BusSources, at time: Double, _ emit: (Outgoing) -> Void
    ) {
        let v = report.values
        sid = (sid + 1) % 253
        let sid = self.sid
        var made = 0
        func send(_ pgn: UInt32, _ payload: N2KPayload) {
            made += 1
            emit(Outgoing(pgn: pgn, payload: payload))
        }
        // Wind: none made from the forecast; none the bus gave (the true wind too when it was the bus's true wind
        // that the apparent was derived from).
        if !v.windIsForecast && isDue(130306, every: 0.1, at: time) {
            if settings.send.contains(.apparentWind), !bus.wind, !v.apparentWindIsDerived, let wind = v.apparentWind {
                send(130306, windPayload(sid, wind.speed, wind.angle, .apparent))
            }
            if settings.send.contains(.trueWind), !(bus.wind && v.apparentWindIsDerived), let wind = v.trueWind {
                send(130306, windPayload(sid, wind.speed, wind.angle, .trueBoat))
            }
            if settings.send.contains(.groundWind), !(bus.wind && v.apparentWindIsDerived),
                let direction = v.groundWindDirection, let wind = v.groundWind
            {
                send(130306, windPayload(sid, wind.speed, direction, .trueNorth))
            }
        }
        if settings.send.contains(.heading), !bus.heading, isDue(127250, every: 0.1, at: time) {
            let variation = v.variation.map(Angle.radians)
            if let heading = v.headingTrue {
                send(
                    127250,
                    VesselHeading(
                        sid: sid, heading: Angle.radians(heading), variation: variation, reference: .trueNorth
                    )
                    .payload)
            } else if let compass = v.compass {
                send(
                    127250,
                    VesselHeading(
                        sid: sid, heading: Angle.radians(compass.sensor ?? compass.magnetic),
                        deviation: compass.sensor == nil ? nil : compass.deviation.map(Angle.radians),
                        variation: variation, reference: .magnetic
                    ).payload)
            }
        }
        if settings.send.contains(.attitude), !bus.attitude, let attitude = v.imuAttitude,
            attitude.heel != nil || attitude.pitch != nil, isDue(127257, every: 1, at: time)
        {
            send(
                127257,
                N2K.Attitude(sid: sid, pitch: attitude.pitch.map(Angle.radians), roll: attitude.heel.map(Angle.radians))
                    .payload)
        }
        if let leg = v.navigationLeg, !leg.isUpstream {
            if settings.send.contains(.navigation), let solution = v.navigation, isDue(129283, every: 1, at: time) {
                send(
                    129283,
                    CrossTrackError(sid: sid, terminated: solution.routeComplete, xte: solution.crossTrack).payload)
                send(129284, navigationPayload(sid, solution, unixTime: report.unixTime))
            }
            if settings.send.contains(.route), let route = report.route,
                route != lastRoute || time - routeSent >= 10
            {
                lastRoute = route
                routeSent = time
                for payload in Self.routePayloads(route, reversed: leg.isReversed) { send(129285, payload) }
            }
        } else {
            lastRoute = nil
        }
        computed += made
    }

    func windPayload(_ sid: Int, _ speed: Double, _ angle: Double, _ reference: WindData.Reference)
        -> N2KPayload
    {
        WindData(sid: sid, speed: speed, angle: Angle.radians(Angle.direction(angle)), reference: reference).payload
    }

    func navigationPayload(_ sid: Int, _ s: NavigationSolution, unixTime: Double) -> N2KPayload {
        var n = NavigationData()
        n.sid = sid
        n.distanceToWaypoint = s.distanceToWaypoint
        n.bearingReference = 0
        n.perpendicularCrossed = s.perpendicularPassed
        n.arrivalCircleEntered = s.arrivalCircleEntered
        n.calculationType = 0
        if let timeToGo = s.timeToGo {
            let eta = unixTime + timeToGo
            let days = (eta / 86_400).rounded(.down)
            n.etaDate = Int(days)
            n.etaTime = eta - days * 86_400
        }
        n.bearingOriginToDestination = Angle.radians(s.legBearing)
        n.bearingToDestination = Angle.radians(s.bearingToWaypoint)
        n.originWaypoint = s.legIndex
        n.destinationWaypoint = s.legIndex + 1
        n.destinationLatitude = s.destination.position.latitude
        n.destinationLongitude = s.destination.position.longitude
        n.closingVelocity = s.closingVelocity
        return n.payload
    }

    /// The route in as many 129285 as it takes (a fast packet holds 223 bytes), each saying where its first
    /// waypoint is in the route.
    static func routePayloads(_ route: Route, reversed: Bool) -> [N2KPayload] {
        let name = String(decoding: Array((route.name ?? "").utf8.prefix(32)), as: UTF8.self)
        var out: [N2KPayload] = []
        var start = 0
        while start < route.waypoints.count || (start == 0 && out.isEmpty) {
            var size = 9 + name.utf8.count + 2 + 1
            var batch: [RouteInformation.Waypoint] = []
            while start + batch.count < route.waypoints.count {
                let waypoint = route.waypoints[start + batch.count]
                let id = String(decoding: Array(waypoint.id.utf8.prefix(16)), as: UTF8.self)
                let cost = 2 + id.utf8.count + 2 + 8
                guard size + cost <= 223 else { break }
                size += cost
                batch.append(
                    RouteInformation.Waypoint(
                        id: start + batch.count, name: id, latitude: waypoint.position.latitude,
                        longitude: waypoint.position.longitude))
            }
            if batch.isEmpty && start < route.waypoints.count { break }
            out.append(
                RouteInformation(start: start, direction: reversed ? 1 : 0, name: name, waypoints: batch).payload)
            start += batch.count
            if batch.isEmpty { break }
        }
        return out
    }
}
