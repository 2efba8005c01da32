import Marine
import NMEA

/// Turns derived values into the sentence of each ``ComputedKind``, or nothing.
///
/// A value that is unknown or stale is never sent as if current: MWV, which has a status field, goes out with
/// status `V` and empty values (unless the configuration says `silent`); sentences without a status stop.
enum SentenceBuilder {
    static func sentence(_ kind: ComputedKind, _ v: InstrumentValues, configuration: EngineConfiguration) -> Sentence? {
        let talker = configuration.talker
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
