import Marine
import NMEA

/// Turns derived values into the sentence of each ``ComputedKind``, or nothing.
///
/// A value that is unknown or stale is never sent as if current: MWV, which has a status field, goes out with
/// status `V` and empty values (unless the configuration says `silent`); sentences without a status stop.
enum SentenceBuilder {
    static func sentence(
        _ kind: ComputedKind, _ v: InstrumentValues, configuration: EngineConfiguration, talker: Talker? = nil
    ) -> Sentence? {
        let talker = talker ?? configuration.talker
        let stale = configuration.staleBehavior
        switch kind {
        case .apparentWind:
            guard let wind = v.apparentWind else { return invalidMWV(.relative, talker, stale) }
            return mwv(wind, .relative, talker)
        case .apparentWindMeasured:
            guard let wind = v.apparentWindMeasured else { return invalidMWV(.relative, talker, stale) }
            return mwv(wind, .relative, talker)
        case .trueWind:
            guard let wind = v.trueWind else { return invalidMWV(.true, talker, stale) }
            return mwv(wind, .true, talker)
        case .windDirection:
            guard let direction = v.trueWindDirection, let speed = v.trueWindDirectionSpeed else { return nil }
            let knots = Units.knots(metresPerSecond: speed)
            let magnetic = v.variation.map { Heading.magnetic(true: direction, variation: $0) }
            return try? MWD(
                directionTrue: direction, directionMagnetic: magnetic, speedKnots: knots,
                speedMetresPerSecond: speed
            ).encode(talker: talker)
        case .apparentWindLegacy:
            guard let wind = v.apparentWind else { return nil }
            return try? VWR(SideWind(signedAngle: wind.angle, knots: Units.knots(metresPerSecond: wind.speed)))
                .encode(talker: talker)
        case .trueWindLegacy:
            guard let wind = v.trueWind else { return nil }
            return try? VWT(SideWind(signedAngle: wind.angle, knots: Units.knots(metresPerSecond: wind.speed)))
                .encode(talker: talker)
        case .windwardSpeed:
            guard let speed = v.windwardSpeed else { return nil }
            return try? VPW(knots: Units.knots(metresPerSecond: speed)).encode(talker: talker)
        case .headingTrue:
            guard let heading = v.headingTrue else { return nil }
            return try? HDT(heading: heading).encode(talker: talker)
        case .headingMagnetic:
            guard let compass = v.compass else { return nil }
            return try? HDG(
                sensorHeading: compass.sensor ?? compass.magnetic,
                deviation: compass.sensor == nil ? nil : compass.deviation, variation: v.variation
            )
            .encode(talker: talker)
        case .crossTrackError, .waypointGreatCircle, .waypointRhumb, .navigation, .autopilot, .autopilotMagnetic,
            .waypointClosure:
            return navigation(kind, v, configuration: configuration)
        case .attitude, .attitudeHeelTrim:
            let names = kind == .attitude ? ("ROLL", "PTCH") : ("HEEL", "TRIM")
            return attitude(v, names: names, decimals: configuration.attitudeDecimals, talker: talker)
        case .rateOfTurn:
            guard let rate = v.rateOfTurn else { return nil }
            return try? ROT(rate: rate * 60, isValid: true).encode(talker: talker)
        case .alarm, .alarmText, .positionRMC, .positionGGA, .positionVTG:
            return nil
        case .startLine:
            return startLine(v, talker: talker)
        case .laylines:
            guard let laylines = v.laylines else { return nil }
            var xdr = InlineXDR(metres(laylines.distance, "LAYDIST", decimals: 0), seconds(laylines.time, "LAYTIME"))
            xdr.append(metres(laylines.oppositeDistance, "OLAYDIST", decimals: 0))
            xdr.append(seconds(laylines.oppositeTime, "OLAYTIME"))
            return try? xdr.encode(talker: talker)
        case .performance:
            guard let performance = v.performance else { return nil }
            var xdr = InlineXDR(
                knots(performance.polarSpeed, "POLSPD"),
                XDR.Measurement(
                    type: UInt8(ascii: "G"), value: performance.polarRatio.map { $0 * 100 }, unit: UInt8(ascii: "P"),
                    name: "POLPCT", decimals: 0))
            xdr.append(.angle(performance.target.angle, name: "TGTTWA"))
            xdr.append(knots(performance.target.speed, "TGTSPD"))
            return try? xdr.encode(talker: talker)
        case .groundWind:
            guard let direction = v.groundWindDirection, let wind = v.groundWind else { return nil }
            return try? InlineXDR(
                .angle(direction, name: "GWDIR"),
                XDR.Measurement(
                    type: UInt8(ascii: "G"), value: Units.knots(metresPerSecond: wind.speed), unit: UInt8(ascii: "N"),
                    name: "GWSPD")
            ).encode(talker: talker)
        }
    }

    /// XDR quadruples of Telltale's own names: whole seconds (`G`, no unit), metres (`D`, `M`), knots from m/s
    /// (`G`, `N`); an empty value when unknown.
    static func seconds(_ value: Double?, _ name: String) -> XDR.Measurement {
        XDR.Measurement(type: UInt8(ascii: "G"), value: value?.rounded(), unit: nil, name: name, decimals: 0)
    }

    static func metres(_ value: Double?, _ name: String, decimals: Int = 1) -> XDR.Measurement {
        XDR.Measurement(type: UInt8(ascii: "D"), value: value, unit: UInt8(ascii: "M"), name: name, decimals: decimals)
    }

    static func knots(_ speed: Double, _ name: String) -> XDR.Measurement {
        XDR.Measurement(
            type: UInt8(ascii: "G"), value: Units.knots(metresPerSecond: speed), unit: UInt8(ascii: "N"), name: name,
            decimals: 2)
    }

    /// XDR `A,<heel>,D,<name>,A,<pitch>,D,<name>` of the IMU's attitude.
    static func attitude(_ v: InstrumentValues, names: (String, String), decimals: Int, talker: Talker) -> Sentence? {
        guard let attitude = v.imuAttitude, let heel = attitude.heel, let pitch = attitude.pitch else { return nil }
        return try? InlineXDR(
            .angle(heel, name: names.0, decimals: decimals), .angle(pitch, name: names.1, decimals: decimals)
        ).encode(talker: talker)
    }

    /// XTE, BWC, BWR, RMB, APB and WCV for the active leg.
    ///
    /// With a current position they carry the geometry. With a stale one they say so (status `V`, FAA mode `N`,
    /// no numbers) or stop, as configured. Once the last waypoint is reached, RMB keeps its arrival flag set while
    /// APB and XTE go to status `V`: guidance has ended and a pilot must not chase the waypoint in circles.
    static func navigation(
        _ kind: ComputedKind, _ v: InstrumentValues, configuration: EngineConfiguration
    ) -> Sentence? {
        guard let leg = v.navigationLeg else { return nil }
        let talker = configuration.talker
        let nav = v.navigation
        if nav == nil && configuration.staleBehavior == .silent { return nil }
        let mode: FAAMode = nav == nil ? .notValid : (v.position?.mode.flatMap { $0.isValid ? $0 : nil } ?? .autonomous)
        let nm = Units.metresPerNauticalMile
        let knots = { (speed: Double?) in speed.map { Units.knots(metresPerSecond: $0) } }
        let steer: Side? = nav.map { $0.crossTrack > 0 ? .left : .right }
        let guiding = nav.map { !$0.routeComplete } ?? false
        let arrived = nav.map { $0.arrivalCircleEntered || $0.perpendicularPassed || $0.routeComplete }
        switch kind {
        case .crossTrackError:
            return try? XTE(
                status1: guiding, status2: guiding, magnitude: nav.map { abs($0.crossTrack) / nm },
                steer: steer, mode: mode
            ).encode(talker: talker)
        case .waypointGreatCircle, .waypointRhumb:
            let rhumb = kind == .waypointRhumb
            let bearing = nav.map { rhumb ? $0.rhumbBearingToWaypoint : $0.bearingToWaypoint }
            let distance = nav.map { (rhumb ? $0.rhumbDistanceToWaypoint : $0.distanceToWaypoint) / nm }
            let magnetic = bearing.flatMap { b in v.variation.map { Heading.magnetic(true: b, variation: $0) } }
            let waypoint = WaypointBearing(
                time: v.utc, latitude: leg.destination.position.latitude,
                longitude: leg.destination.position.longitude, bearingTrue: bearing, bearingMagnetic: magnetic,
                distance: distance, waypointID: leg.destination.id, mode: mode)
            return rhumb ? try? BWR(waypoint).encode(talker: talker) : try? BWC(waypoint).encode(talker: talker)
        case .navigation:
            return try? RMB(
                isValid: nav != nil, crossTrackError: nav.map { min(abs($0.crossTrack) / nm, 9.99) }, steer: steer,
                originID: leg.origin.id.isEmpty ? nil : leg.origin.id, destinationID: leg.destination.id,
                destinationLatitude: leg.destination.position.latitude,
                destinationLongitude: leg.destination.position.longitude,
                range: nav.map { min($0.distanceToWaypoint / nm, 999.9) }, bearingTrue: nav?.bearingToWaypoint,
                closingVelocity: knots(nav?.closingVelocity), arrived: arrived, mode: mode
            ).encode(talker: talker)
        case .autopilot, .autopilotMagnetic:
            let variation = kind == .autopilotMagnetic ? v.variation : nil
            let convert = { (bearing: Double?) in
                bearing.map { b in variation.map { Heading.magnetic(true: b, variation: $0) } ?? b }
            }
            return try? APB(
                status1: guiding, status2: guiding, crossTrackError: nav.map { abs($0.crossTrack) / nm }, steer: steer,
                arrivalCircleEntered: nav.map { $0.arrivalCircleEntered || $0.routeComplete },
                perpendicularPassed: nav.map { $0.perpendicularPassed || $0.routeComplete },
                bearingOriginToDestination: convert(nav?.legBearing), destinationID: leg.destination.id,
                bearingToDestination: convert(nav?.bearingToWaypoint), headingToSteer: convert(nav?.courseToSteer),
                reference: variation == nil ? .true : .magnetic, mode: mode
            ).encode(talker: talker)
        case .waypointClosure:
            return try? WCV(velocity: knots(nav?.closingVelocity), waypointID: leg.destination.id, mode: mode)
                .encode(talker: talker)
        default:
            return nil
        }
    }

    /// MWV with status `V` and empty values, or nothing when stale values are to be silent.
    private static func invalidMWV(_ reference: MWV.Reference, _ talker: Talker, _ stale: StaleBehavior) -> Sentence? {
        guard stale == .invalid else { return nil }
        return try? MWV(angle: nil, reference: reference, speed: nil, unit: .knots, isValid: false).encode(
            talker: talker)
    }

    private static func mwv(_ wind: RelativeWind, _ reference: MWV.Reference, _ talker: Talker) -> Sentence? {
        try? MWV(
            angle: Angle.direction(wind.angle), reference: reference,
            speed: Units.knots(metresPerSecond: wind.speed), unit: .knots, isValid: true
        ).encode(talker: talker)
    }
}
