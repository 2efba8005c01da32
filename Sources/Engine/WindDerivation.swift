import Marine
import NMEA

/// Turns the inputs current at a tick into ``InstrumentValues``, carrying the damping state from tick to tick.
struct WindDerivation: Sendable {
    private var heading: AngleDamper
    private var apparent: VectorDamper
    private var measured: VectorDamper
    private var speed: ScalarDamper
    private var trueBoat: VectorDamper
    private var trueEarth: VectorDamper
    private var windward: ScalarDamper
    private var groundSpeed: ScalarDamper
    private var groundCourse: AngleDamper
    private var meanHeel: ScalarDamper
    /// The last tick's wind was the forecast's: a change either way starts the wind's damping afresh.
    private var windWasForecast = false
    /// The true wind speed of the last tick before damping (measured wind only), m/s: the gusts are judged on it.
    private(set) var rawTrueWindSpeed: Double?

    init(damping: Damping) {
        heading = AngleDamper(timeConstant: damping.heading)
        apparent = VectorDamper(timeConstant: damping.apparentWind)
        measured = VectorDamper(timeConstant: damping.apparentWind)
        speed = ScalarDamper(timeConstant: damping.speedThroughWater)
        trueBoat = VectorDamper(timeConstant: damping.trueWind)
        trueEarth = VectorDamper(timeConstant: damping.windDirection)
        windward = ScalarDamper(timeConstant: damping.windwardSpeed)
        groundSpeed = ScalarDamper(timeConstant: damping.speedOverGround)
        groundCourse = AngleDamper(timeConstant: damping.courseOverGround)
        meanHeel = ScalarDamper(timeConstant: damping.meanHeel)
    }

    /// What a tick's derivation has read before damping: the heading, the motion over the ground, the speed through
    /// the water, the attitude, the leeway.
    struct Readings {
        var heading: Double?
        var ground: GroundMotion?
        var speed: Double?
        var attitude: Attitude?
        var leeway = 0.0
        /// The calibration as far as it applies this tick.
        var calibration = SailingCalibration.identity
    }

    /// - Parameters:
    ///   - calibration: the learnt calibration as it applies to the readings of `now`; nil: the configuration's.
    ///   - forecastWind: the forecast's 10 m wind at the boat (where it comes from, degrees true, and m/s), when it
    ///     may stand in for an anemometer.
    mutating func update(
        _ inputs: inout InstrumentInputs, configuration: EngineConfiguration, calibration: SailingCalibration? = nil,
        forecastWind: (direction: Double, speed: Double)? = nil, at now: Double
    ) -> InstrumentValues {
        var values = InstrumentValues()
        var applied = calibration ?? configuration.wind.calibration
        values.calibrationShare = bound(&applied, configuration, &inputs, at: now)
        let readings = motion(&inputs, configuration: configuration, calibration: applied, into: &values, at: now)
        let (trueFromInstrument, correctedApparent) = apparentWind(
            &inputs, configuration.wind, readings, forecastWind: forecastWind, into: &values, at: now)
        // Forecast wind is never damped together with measured wind: either way, the damping starts again.
        if values.windIsForecast != windWasForecast {
            apparent.reset()
            trueBoat.reset()
            trueEarth.reset()
            windward.reset()
            windWasForecast = values.windIsForecast
        }
        values.apparentWind = Self.damp(correctedApparent, &apparent, at: now)
        trueWind(trueFromInstrument, readings, into: &values, at: now)
        return values
    }

    /// The calibration as far as it may apply this tick, left in `calibration`: the share of it
    /// (``SailingCalibration/share(awa:aws:stw:heading:speedUnit:)``) that turns the true wind angle of the measured wind
    /// (the configured sensor offset on it) and the log, and the heading, by 12° at most. The share.
    private func bound(
        _ calibration: inout SailingCalibration, _ configuration: EngineConfiguration, _ inputs: inout InstrumentInputs,
        at now: Double
    ) -> Double {
        let whole = calibration
        guard !whole.isIdentity else { return 1 }
        let wind = inputs.apparentWind.select(at: now).map {
            WindCorrections.sensorOffset($0.value, offset: configuration.wind.sensorOffset)
        }
        let heading = Self.measuredHeading(
            &inputs, variation: variation(&inputs, configuration: configuration, at: now), at: now)
        let share = whole.share(
            awa: wind?.angle, aws: wind?.speed, stw: inputs.speedThroughWater.select(at: now)?.value, heading: heading)
        if share < 1 { calibration = whole.scaled(share) }
        return share
    }

    /// The heading as the instruments give it, before the learnt card: HDT, else the compass's with the variation.
    private static func measuredHeading(_ inputs: inout InstrumentInputs, variation: Double?, at now: Double) -> Double?
    {
        if let heading = inputs.headingTrue.select(at: now)?.value { return heading }
        guard let compass = inputs.headingMagnetic.select(at: now)?.value, let variation else { return nil }
        return Heading.true(magnetic: compass.magnetic, variation: variation)
    }

    /// Heading (HDT, else magnetic plus variation), motion over the ground, speed through the water (or over the
    /// ground when configured to stand in), the attitude and the leeway it makes.
    private mutating func motion(
        _ inputs: inout InstrumentInputs, configuration: EngineConfiguration, calibration: SailingCalibration,
        into values: inout InstrumentValues, at now: Double
    ) -> Readings {
        var readings = Readings()
        let compass = inputs.headingMagnetic.select(at: now)?.value
        values.compass = compass
        values.variation = variation(&inputs, configuration: configuration, at: now)
        readings.heading = Self.measuredHeading(&inputs, variation: values.variation, at: now)
        // The learnt deviation (`[calibration]`): the measured heading stays in the inputs.
        readings.calibration = calibration
        readings.heading = readings.heading.map { calibration.heading($0) }
        values.headingTrue = Self.damp(readings.heading, &heading, at: now).map(Angle.direction)
        readings.ground = inputs.motionOverGround.select(at: now)?.value
        values.speedOverGround = Self.damp(readings.ground?.speed, &groundSpeed, at: now)
        values.courseOverGround = Self.damp(readings.ground?.course, &groundCourse, at: now).map(Angle.direction)
        // The log's speed with the learnt factor, by the side the measured apparent wind (the configured sensor
        // offset on it) says she heels to (`[calibration]`): the measured value stays in the inputs.
        let side = inputs.apparentWind.select(at: now).map {
            WindCorrections.sensorOffset($0.value, offset: configuration.wind.sensorOffset).angle
        }
        readings.speed = inputs.speedThroughWater.select(at: now).map {
            calibration.speed($0.value, awa: side)
        }
        if readings.speed == nil && configuration.wind.speedOverGroundFallback, let overGround = readings.ground?.speed
        {
            readings.speed = overGround
            values.speedIsOverGround = true
        }
        values.speedThroughWater = Self.damp(readings.speed, &speed, at: now)
        // Attitude: the instantaneous heel corrects the masthead unit, the mean heel feeds leeway.
        readings.attitude = inputs.attitude.select(at: now)?.value
        values.meanHeel = Self.damp(readings.attitude?.heel, &meanHeel, at: now)
        if let model = configuration.wind.leeway, let heel = values.meanHeel, let stw = values.speedThroughWater {
            // The boat's own coefficient when the calibration learnt it.
            values.leeway = calibration.leeway(model).leeway(heel: heel, speedThroughWater: stw)
        }
        readings.leeway = values.leeway ?? 0
        return readings
    }

    /// Apparent wind: measured and corrected (sensor offset, mast motion, heel), or derived from a true-wind source
    /// (an instrument's true wind or direction, else the forecast's, labelled so). The true wind an instrument gave,
    /// and the apparent wind before damping.
    private mutating func apparentWind(
        _ inputs: inout InstrumentInputs, _ settings: WindSettings, _ readings: Readings,
        forecastWind: (direction: Double, speed: Double)?, into values: inout InstrumentValues, at now: Double
    ) -> (RelativeWind?, RelativeWind?) {
        if let raw = inputs.apparentWind.select(at: now)?.value {
            var wind = WindCorrections.sensorOffset(raw, offset: settings.sensorOffset)
            // The learnt offset, upwash and wind speed factor (`[calibration]`) on the measured angle, before heel and mast motion.
            if !readings.calibration.isIdentity {
                let calibration = readings.calibration
                // The upwash by wind speed is looked up by the true wind of the measured wind (knots).
                let lookup =
                    calibration.upwashByWind.isEmpty
                    ? nil
                    : Units.knots(
                        metresPerSecond: calibration.lookupWindSpeed(
                            awa: wind.angle, aws: wind.speed, stw: readings.speed ?? 0))
                wind = RelativeWind(
                    angle: calibration.apparentAngle(wind.angle, windSpeed: lookup),
                    speed: calibration.windSpeed(wind.speed))
            }
            let attitude = readings.attitude
            if settings.mastMotion, settings.mastHeight > 0, let p = attitude?.rollRate, let q = attitude?.pitchRate {
                wind = WindCorrections.mastMotion(wind, rollRate: p, pitchRate: q, mastHeight: settings.mastHeight)
            }
            if settings.heelCorrection, let heel = attitude?.heel {
                wind = WindCorrections.heel(wind, heel: heel)
            }
            values.apparentWindMeasured = Self.damp(raw, &measured, at: now)
            return (nil, wind)
        }
        measured.reset()
        var trueFromInstrument = inputs.trueWind.select(at: now)?.value
        if trueFromInstrument == nil, let direction = inputs.windDirection.select(at: now)?.value,
            let heading = readings.heading
        {
            trueFromInstrument = RelativeWind(
                angle: Angle.relative(direction.angle - heading), speed: direction.magnitude)
        }
        // No instrument at all: the forecast's wind, turned to the bow by the heading (or the course over ground,
        // for a dinghy with only a GPS), with the boat's motion through the water (or over the ground).
        if trueFromInstrument == nil, let forecast = forecastWind, let bow = readings.heading ?? readings.ground?.course
        {
            trueFromInstrument = RelativeWind(angle: Angle.relative(forecast.direction - bow), speed: forecast.speed)
            values.windIsForecast = true
        }
        let boatSpeed = readings.speed ?? (values.windIsForecast ? readings.ground?.speed : nil)
        guard let wind = trueFromInstrument, let speed = boatSpeed else { return (trueFromInstrument, nil) }
        values.apparentWindIsDerived = true
        let apparent = WindTriangle.apparentWind(
            true: wind, speedThroughWater: speed, leeway: values.windIsForecast ? 0 : readings.leeway)
        return (trueFromInstrument, apparent)
    }

    /// True wind over the water, in the boat's frame and (with a heading) the earth's; the windward speed; the ground
    /// wind, for outputs that ask for it by name only.
    private mutating func trueWind(
        _ trueFromInstrument: RelativeWind?, _ readings: Readings, into values: inout InstrumentValues, at now: Double
    ) {
        let leeway = readings.leeway
        var boatFrameTrue: RelativeWind?
        if let wind = trueFromInstrument {
            boatFrameTrue = wind
        } else if let wind = values.apparentWind, let stw = values.speedThroughWater {
            boatFrameTrue = WindTriangle.trueWind(apparent: wind, speedThroughWater: stw, leeway: leeway)
        }
        rawTrueWindSpeed = values.windIsForecast ? nil : boatFrameTrue?.speed
        values.trueWind = Self.damp(boatFrameTrue, &trueBoat, at: now)
        var earth: RelativeWind?
        if let wind = boatFrameTrue,
            let heading = readings.heading ?? (values.windIsForecast ? readings.ground?.course : nil)
        {
            earth = RelativeWind(wind.vector.rotated(by: heading))
        }
        if let damped = Self.damp(earth, &trueEarth, at: now) {
            values.trueWindDirection = Angle.direction(damped.angle)
            values.trueWindDirectionSpeed = damped.speed
        }
        if let wind = values.trueWind, let stw = values.speedThroughWater {
            let vmg = WindTriangle.velocityMadeGood(trueWind: wind, speedThroughWater: stw, leeway: leeway)
            values.windwardSpeed = Self.damp(vmg, &windward, at: now)
        } else {
            windward.reset()
        }
        if let wind = values.apparentWind, !values.apparentWindIsDerived, let heading = values.headingTrue,
            let sog = values.speedOverGround, let cog = values.courseOverGround
        {
            let groundWind = WindTriangle.groundWind(
                apparent: wind, speedOverGround: sog, courseOverGround: cog, heading: heading)
            values.groundWind = groundWind
            values.groundWindDirection = WindTriangle.direction(of: groundWind, heading: heading)
        }
    }

    private func variation(_ inputs: inout InstrumentInputs, configuration: EngineConfiguration, at now: Double)
        -> Double?
    {
        for source in configuration.variationOrder {
            switch source {
            case .hdg: if let value = inputs.variationFromHDG.select(at: now)?.value { return value }
            case .rmc: if let value = inputs.variationFromRMC.select(at: now)?.value { return value }
            case .configuration: if let value = configuration.variation { return value }
            }
        }
        return nil
    }

    /// Damps a value that may be missing; a gap resets the damper so stale history does not linger.
    private static func damp(_ value: Double?, _ damper: inout ScalarDamper, at now: Double) -> Double? {
        guard let value else {
            damper.reset()
            return nil
        }
        return damper.update(value, at: now)
    }

    private static func damp(_ value: Double?, _ damper: inout AngleDamper, at now: Double) -> Double? {
        guard let value else {
            damper.reset()
            return nil
        }
        return damper.update(value, at: now)
    }

    private static func damp(_ wind: RelativeWind?, _ damper: inout VectorDamper, at now: Double) -> RelativeWind? {
        guard let wind else {
            damper.reset()
            return nil
        }
        return RelativeWind(damper.update(wind.vector, at: now))
    }
}
