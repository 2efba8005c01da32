import Engine
import Marine
import NMEA

/// Values in from the engine: what it derived at a tick, and its alarms.
extension SignalKModel {
    /// What the engine derived at a tick, and the alarms it holds; values it no longer has are withdrawn.
    public mutating func update(
        _ values: InstrumentValues, alarms: [AlarmStatus], timeToStart: Double? = nil, at time: Double,
        unixTime: Double
    ) {
        let stamp = SignalKTime.text(unixTime: unixTime)
        let source = Self.computedSource
        func put(_ path: String, _ value: SignalKValue?) {
            if let value {
                set(path, value, source: source, time: time, timestamp: stamp)
            } else {
                withdraw(path, source: source, timestamp: stamp)
            }
        }
        // Wind made from the forecast has a source of its own, and the computed source's value is withdrawn (and the
        // other way round when an anemometer returns): an app never shows forecast wind as measured.
        let windSource = values.windIsForecast ? Self.forecastSource : source
        let otherWindSource = values.windIsForecast ? source : Self.forecastSource
        func wind(_ path: String, _ value: SignalKValue?) {
            if entries[path]?.contains(where: { $0.source == otherWindSource }) == true {
                withdraw(path, source: otherWindSource, timestamp: stamp)
            }
            if let value {
                set(path, value, source: windSource, time: time, timestamp: stamp)
            } else {
                withdraw(path, source: windSource, timestamp: stamp)
            }
        }
        Self.windValues(values, put, wind)
        Self.navigationValues(values, unixTime: unixTime, put)
        course(values, unixTime: unixTime, put)
        Self.racingValues(values, timeToStart: timeToStart, put)
        Self.anchorValues(values, put)
        Self.tideValues(values, put)
        for alarm in alarms {
            let path = "notifications." + alarm.path
            // The drag alarm is an emergency, as the anchor alarm plugin raises it.
            let raised = alarm.path == AlarmKind.anchorDrag.path ? "emergency" : "alarm"
            let state = alarm.isActive ? (alarm.isAcknowledged ? "warn" : raised) : "normal"
            let method = alarm.isActive && !alarm.isAcknowledged ? ["visual", "sound"] : ["visual"]
            let value = SignalKValue.notification(state: state, method: method, message: alarm.message)
            // An alarm goes out when it changes, not at every update.
            if entries[path]?.first?.value == value { continue }
            set(path, value, source: source, time: time, timestamp: stamp)
        }
        recordHistory(at: time)
    }

    static func radians(_ degrees: Double?) -> SignalKValue? { degrees.map { .number(Angle.radians($0)) } }
    static func number(_ value: Double?) -> SignalKValue? { value.map(SignalKValue.number) }
    static func point(_ waypoint: Waypoint?) -> SignalKValue? {
        waypoint.map { .position(latitude: $0.position.latitude, longitude: $0.position.longitude) }
    }

    /// The wind, the polar and the laylines (`wind`: a measured or forecast wind's own source).
    static func windValues(
        _ values: InstrumentValues, _ put: (String, SignalKValue?) -> Void, _ wind: (String, SignalKValue?) -> Void
    ) {
        put("navigation.headingTrue", radians(values.headingTrue))
        wind("environment.wind.angleApparent", radians(values.apparentWind?.angle))
        wind("environment.wind.speedApparent", number(values.apparentWind?.speed))
        wind("environment.wind.angleTrueWater", radians(values.trueWind?.angle))
        wind("environment.wind.speedTrue", number(values.trueWind?.speed))
        wind("environment.wind.directionTrue", radians(values.trueWindDirection))
        put("environment.wind.angleTrueGround", radians(values.groundWind?.angle))
        put("environment.wind.speedOverGround", number(values.groundWind?.speed))
        wind("performance.velocityMadeGood", number(values.windwardSpeed))
        put("environment.wind.gust", number(values.gust))
        put("environment.outside.pressureTendency", values.pressureTendency.map { .text($0.weatherWord) })
        put("environment.outside.pressureChange", number(values.pressureTendency?.change))
        put("telltale.weather.tendency", values.pressureTendency.map { .text($0.words) })
        put("telltale.wind.forecast", values.windIsForecast ? .bool(true) : nil)
        let performance = values.performance
        wind("performance.polarSpeed", number(performance?.polarSpeed))
        wind("performance.polarSpeedRatio", number(performance?.polarRatio))
        wind("performance.beatAngle", radians(performance?.beat.angle))
        wind("performance.beatAngleTargetSpeed", number(performance?.beat.speed))
        wind("performance.beatAngleVelocityMadeGood", number(performance?.beat.windwardSpeed))
        wind("performance.gybeAngle", radians(performance?.run.angle))
        wind("performance.gybeAngleTargetSpeed", number(performance?.run.speed))
        wind("performance.gybeAngleVelocityMadeGood", number(performance.map { -$0.run.windwardSpeed }))
        wind("performance.targetAngle", radians(performance?.target.angle))
        wind("performance.targetSpeed", number(performance?.target.speed))
        wind("navigation.racing.layline.distance", number(values.laylines?.distance))
        wind("navigation.racing.layline.time", number(values.laylines?.time))
        wind("navigation.racing.oppositeLayline.distance", number(values.laylines?.oppositeDistance))
        wind("navigation.racing.oppositeLayline.time", number(values.laylines?.oppositeTime))
    }

    /// Attitude, rate of turn, and the way to the next point (`courseGreatCircle`, `courseRhumbline`).
    static func navigationValues(_ values: InstrumentValues, unixTime: Double, _ put: (String, SignalKValue?) -> Void) {
        let imu = values.imuAttitude
        put(
            "navigation.attitude",
            imu.flatMap { attitude in
                attitude.heel == nil && attitude.pitch == nil
                    ? nil
                    : .attitude(
                        roll: attitude.heel.map(Angle.radians), pitch: attitude.pitch.map(Angle.radians), yaw: nil)
            })
        put("navigation.rateOfTurn", radians(values.rateOfTurn))
        let solution = values.navigation
        put(
            "navigation.courseGreatCircle.nextPoint.position",
            point(solution?.destination ?? values.navigationLeg?.destination))
        put(
            "navigation.courseGreatCircle.previousPoint.position",
            point(solution?.origin ?? values.navigationLeg?.origin))
        put("navigation.courseGreatCircle.nextPoint.bearingTrue", radians(solution?.bearingToWaypoint))
        put("navigation.courseGreatCircle.nextPoint.distance", number(solution?.distanceToWaypoint))
        put("navigation.courseGreatCircle.nextPoint.velocityMadeGood", number(solution?.closingVelocity))
        put("navigation.courseGreatCircle.nextPoint.timeToGo", number(solution?.timeToGo))
        put(
            "navigation.courseGreatCircle.nextPoint.estimatedTimeOfArrival",
            solution?.timeToGo.map { .text(SignalKTime.text(unixTime: unixTime + $0)) })
        put("navigation.courseGreatCircle.crossTrackError", number(solution?.crossTrack))
        put("navigation.courseGreatCircle.bearingTrackTrue", radians(solution?.legBearing))
        put("navigation.courseRhumbline.nextPoint.bearingTrue", radians(solution?.rhumbBearingToWaypoint))
        put("navigation.courseRhumbline.nextPoint.distance", number(solution?.rhumbDistanceToWaypoint))
    }

    /// The race timer and the start line.
    static func racingValues(_ values: InstrumentValues, timeToStart: Double?, _ put: (String, SignalKValue?) -> Void) {
        put("navigation.racing.timeToStart", number(timeToStart))
        let line = values.startLine
        put(
            "navigation.racing.startLinePort",
            line.map { .position(latitude: $0.port.latitude, longitude: $0.port.longitude) })
        put(
            "navigation.racing.startLineStb",
            line.map { .position(latitude: $0.starboard.latitude, longitude: $0.starboard.longitude) })
        put("navigation.racing.distanceStartline", number(line?.distance))
        put("navigation.racing.timeToLine", number(line?.timeToLine))
        put("navigation.racing.timeToBurn", number(line?.timeToBurn))
        put("navigation.racing.timeToLineAtPolar", number(line?.timeToLineAtPolar))
        put("navigation.racing.startLineBias", radians(line?.bias))
        put("navigation.racing.startLineLength", number(line?.length))
    }

    /// The anchor watch.
    static func anchorValues(_ values: InstrumentValues, _ put: (String, SignalKValue?) -> Void) {
        // As signalk-anchoralarm-plugin publishes the watch (WilhelmSK, KIP and Freeboard-SK read these).
        let anchor = values.anchor
        put(
            "navigation.anchor.position",
            anchor.map { .position(latitude: $0.set.position.latitude, longitude: $0.set.position.longitude) })
        put("navigation.anchor.maxRadius", number(anchor?.set.radius))
        put("navigation.anchor.currentRadius", number(anchor?.distance))
        put("navigation.anchor.bearingTrue", radians(anchor?.bearing))
        put("navigation.anchor.rodeLength", number(anchor?.set.rode))
    }

    /// The Course API's paths (`navigation.course.*`, as signalk-server's `src/api/course` and its course provider
    /// publish them): the points, the route, the arrival circle and `calcValues`, from the same leg and solution
    /// as `courseGreatCircle`, whether the leg is a local route, a destination set through the API, or an upstream
    /// plotter's RMB/APB next point.
    func course(_ values: InstrumentValues, unixTime: Double, _ put: (String, SignalKValue?) -> Void) {
        func radians(_ degrees: Double?) -> SignalKValue? { degrees.map { .number(Angle.radians($0)) } }
        func number(_ value: Double?) -> SignalKValue? { value.map(SignalKValue.number) }
        func magnetic(_ degrees: Double?) -> SignalKValue? {
            guard let degrees, let variation = values.variation else { return nil }
            return .number(Angle.radians(Angle.direction(degrees - variation)))
        }
        let leg = values.navigationLeg
        let solution = values.navigation
        let alone = leg.map { $0.isSinglePoint || $0.isUpstream } ?? false
        func point(_ type: String, _ waypoint: Waypoint?) -> SignalKValue? {
            waypoint.map {
                // A leg rejoined, or a route reversed or begun at its first point, starts where the boat was.
                let fromBoat = type == "VesselPosition" && $0.id == Engine.boatOrigin
                return .coursePoint(
                    type: alone || fromBoat ? type : "RoutePoint", latitude: $0.position.latitude,
                    longitude: $0.position.longitude)
            }
        }
        put("navigation.course.nextPoint", point("Location", leg?.destination))
        put("navigation.course.previousPoint", point("VesselPosition", leg?.origin))
        put(
            "navigation.course.activeRoute",
            leg.flatMap {
                alone
                    ? nil
                    : .activeRoute(
                        href: $0.routeReference.map { "/resources/routes/" + $0 } ?? Self.routeHref,
                        name: $0.routeName ?? "route", pointIndex: $0.destinationIndex,
                        pointTotal: $0.waypointCount, reverse: $0.isReversed)
            })
        put("navigation.course.arrivalCircle", leg.map { .number($0.arrivalRadius) })
        put("navigation.course.calcValues.calcMethod", leg.map { _ in .text("GreatCircle") })
        put("navigation.course.calcValues.crossTrackError", number(solution?.crossTrack))
        put("navigation.course.calcValues.bearingTrackTrue", radians(solution?.legBearing))
        put("navigation.course.calcValues.bearingTrackMagnetic", magnetic(solution?.legBearing))
        put("navigation.course.calcValues.bearingTrue", radians(solution?.bearingToWaypoint))
        put("navigation.course.calcValues.bearingMagnetic", magnetic(solution?.bearingToWaypoint))
        put("navigation.course.calcValues.distance", number(solution?.distanceToWaypoint))
        put("navigation.course.calcValues.velocityMadeGood", number(solution?.closingVelocity))
        put("navigation.course.calcValues.timeToGo", number(solution?.timeToGo))
        put(
            "navigation.course.calcValues.estimatedTimeOfArrival",
            solution?.timeToGo.map { .text(SignalKTime.text(unixTime: unixTime + $0)) })
    }

    /// The one route Telltale follows, as the Course API names it (a resource href holds a version 4 UUID).
    public static let routeIdentifier = "7e11a1e0-2c5b-4d0a-9f3e-5a1b0c7d2e94"
    public static let routeHref = "/resources/routes/" + routeIdentifier
}
