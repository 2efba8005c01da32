import Marine
import NMEA

/// What the engine derived at one tick. Nil means unknown or stale: it is never sent as if current.
/// Speeds in m/s, angles in degrees (see `Marine.Units`).
public struct InstrumentValues: Hashable, Sendable {
    public var headingTrue: Double?
    public var compass: CompassReading?
    public var variation: Double?
    /// Apparent wind after the configured corrections, damped.
    public var apparentWind: RelativeWind?
    /// Apparent wind as measured, damped, without corrections; nil when apparent wind was derived from true.
    public var apparentWindMeasured: RelativeWind?
    /// True when the apparent wind was derived from a true-wind source (no masthead unit).
    public var apparentWindIsDerived = false
    public var speedThroughWater: Double?
    /// Metres below the transducer.
    public var depth: Double?
    /// True when speed through water is missing and speed over ground stood in for it (configured fallback).
    public var speedIsOverGround = false
    public var meanHeel: Double?
    /// Degrees, positive drifting to starboard.
    public var leeway: Double?
    /// True wind over water relative to the bow, damped.
    public var trueWind: RelativeWind?
    /// Direction the true wind comes from, degrees true, damped in the earth frame.
    public var trueWindDirection: Double?
    /// Speed of the earth-frame damped true wind (MWD's speed).
    public var trueWindDirectionSpeed: Double?
    /// Velocity made good to windward, m/s, negative downwind.
    public var windwardSpeed: Double?
    /// Ground wind relative to the bow and its direction (degrees true).
    public var groundWind: RelativeWind?
    public var groundWindDirection: Double?
    public var speedOverGround: Double?
    public var courseOverGround: Double?
    /// The current position fix; nil when stale.
    public var position: Fix?
    /// The active leg whenever a route is followed, even while the position is stale.
    public var navigationLeg: NavigationLeg?
    /// The navigation geometry; nil when no route is followed or the position is stale.
    public var navigation: NavigationSolution?
    /// UTC on the engine's clock (the replay clock in a replay), when known.
    public var utc: UTCTime?
    /// Heel, pitch and rates from the gateway's own IMU, when current.
    public var imuAttitude: Attitude?
    /// Rate of turn about the vertical from the IMU, degrees per second, positive to starboard.
    public var rateOfTurn: Double?
    /// The bow against the start line, once one is set and the position is current.
    public var startLine: StartLineStatus?
    /// The boat against its polar, with a polar and a true wind.
    public var performance: Performance?
    /// The laylines to the active waypoint, with a polar, when it is upwind or downwind of the targets.
    public var laylines: Laylines?
    /// The anchor watch, while an anchor is set.
    public var anchor: AnchorStatus?
    /// The wind is the forecast's (``WeatherSettings/windFallback``): no anemometer is heard. The apparent and
    /// true wind, their direction, VMG, performance and laylines are then made from it.
    public var windIsForecast = false
    /// Barometric pressure measured on board, pascals; its three-hour tendency once three hours are recorded.
    public var pressure: Double?
    public var pressureTendency: Barograph.Tendency?
    /// The highest 3-second mean of the measured true wind speed over the last ten minutes, m/s.
    public var gust: Double?
    /// What the forecast on board says for the boat's position now; nil with no forecast for it.
    public var forecast: ForecastSample?

    public init() {}
}

/// The two ends of the active leg.
public struct NavigationLeg: Hashable, Sendable {
    public var origin: Waypoint
    public var destination: Waypoint
    /// The route is followed from an upstream plotter's destination, not a local route.
    public var isUpstream: Bool
    /// The route's name, the index of the destination among its waypoints, and how many it has (Signal K's
    /// `navigation.course.activeRoute`); a destination set alone is a route of two.
    public var routeName: String? = nil
    /// The id of the route resource followed; nil for the configured GPX file's route.
    public var routeReference: String? = nil
    public var destinationIndex = 1
    public var waypointCount = 2
    /// Metres: within it of the destination, the boat has arrived.
    public var arrivalRadius = 0.0
    /// The destination was set as a single point (Signal K's Course API `destination`), not a route.
    public var isSinglePoint = false
    /// The route is followed backwards (the Course API's `activeRoute.reverse`).
    public var isReversed = false

    public init(origin: Waypoint, destination: Waypoint, isUpstream: Bool = false) {
        self.origin = origin
        self.destination = destination
        self.isUpstream = isUpstream
    }
}

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

    /// - Parameter forecastWind: the forecast's 10 m wind at the boat (where it comes from, degrees true, and m/s),
    ///   when it may stand in for an anemometer.
    mutating func update(
        _ inputs: inout InstrumentInputs, configuration: EngineConfiguration,
        forecastWind: (direction: Double, speed: Double)? = nil, at now: Double
    ) -> InstrumentValues {
        var values = InstrumentValues()
        let settings = configuration.wind

        // Heading: HDT, else magnetic plus variation (variation in the configured order of sources).
        let compass = inputs.headingMagnetic.select(at: now)?.value
        values.compass = compass
        values.variation = variation(&inputs, configuration: configuration, at: now)
        var rawHeading = inputs.headingTrue.select(at: now)?.value
        if rawHeading == nil, let compass, let variation = values.variation {
            rawHeading = Heading.true(magnetic: compass.magnetic, variation: variation)
        }
        values.headingTrue = Self.damp(rawHeading, &heading, at: now).map(Angle.direction)

        // Motion over ground.
        let ground = inputs.motionOverGround.select(at: now)?.value
        values.speedOverGround = Self.damp(ground?.speed, &groundSpeed, at: now)
        values.courseOverGround = Self.damp(ground?.course, &groundCourse, at: now).map(Angle.direction)

        // Speed through water, or over ground when configured to stand in.
        var rawSpeed = inputs.speedThroughWater.select(at: now)?.value
        if rawSpeed == nil && settings.speedOverGroundFallback, let overGround = ground?.speed {
            rawSpeed = overGround
            values.speedIsOverGround = true
        }
        values.speedThroughWater = Self.damp(rawSpeed, &speed, at: now)

        // Attitude: the instantaneous heel corrects the masthead unit, the mean heel feeds leeway.
        let attitude = inputs.attitude.select(at: now)?.value
        values.meanHeel = Self.damp(attitude?.heel, &meanHeel, at: now)
        if let model = settings.leeway, let heel = values.meanHeel, let stw = values.speedThroughWater {
            values.leeway = model.leeway(heel: heel, speedThroughWater: stw)
        }
        let leeway = values.leeway ?? 0

        // Apparent wind: measured and corrected, or derived from a true-wind source.
        var trueFromInstrument: RelativeWind?
        var correctedApparent: RelativeWind?
        if let raw = inputs.apparentWind.select(at: now)?.value {
            var wind = WindCorrections.sensorOffset(raw, offset: settings.sensorOffset)
            if settings.mastMotion, settings.mastHeight > 0, let p = attitude?.rollRate, let q = attitude?.pitchRate {
                wind = WindCorrections.mastMotion(wind, rollRate: p, pitchRate: q, mastHeight: settings.mastHeight)
            }
            if settings.heelCorrection, let heel = attitude?.heel {
                wind = WindCorrections.heel(wind, heel: heel)
            }
            correctedApparent = wind
            values.apparentWindMeasured = Self.damp(raw, &measured, at: now)
        } else {
            measured.reset()
            trueFromInstrument = inputs.trueWind.select(at: now)?.value
            if trueFromInstrument == nil, let direction = inputs.windDirection.select(at: now)?.value,
                let heading = rawHeading
            {
                trueFromInstrument = RelativeWind(
                    angle: Angle.relative(direction.angle - heading), speed: direction.magnitude)
            }
            // No instrument at all: the forecast's wind, turned to the bow by the heading (or the course over
            // ground, for a dinghy with only a GPS), with the boat's motion through the water (or over the ground).
            if trueFromInstrument == nil, let forecast = forecastWind, let bow = rawHeading ?? ground?.course {
                trueFromInstrument = RelativeWind(
                    angle: Angle.relative(forecast.direction - bow), speed: forecast.speed)
                values.windIsForecast = true
            }
            let boatSpeed = rawSpeed ?? (values.windIsForecast ? ground?.speed : nil)
            if let wind = trueFromInstrument, let speed = boatSpeed {
                correctedApparent = WindTriangle.apparentWind(
                    true: wind, speedThroughWater: speed, leeway: values.windIsForecast ? 0 : leeway)
                values.apparentWindIsDerived = true
            }
        }
        // Forecast wind is never damped together with measured wind: either way, the damping starts again.
        if values.windIsForecast != windWasForecast {
            apparent.reset()
            trueBoat.reset()
            trueEarth.reset()
            windward.reset()
            windWasForecast = values.windIsForecast
        }
        values.apparentWind = Self.damp(correctedApparent, &apparent, at: now)

        // True wind over water, in the boat frame and (with a heading) in the earth frame.
        var boatFrameTrue: RelativeWind?
        if let wind = trueFromInstrument {
            boatFrameTrue = wind
        } else if let wind = values.apparentWind, let stw = values.speedThroughWater {
            boatFrameTrue = WindTriangle.trueWind(apparent: wind, speedThroughWater: stw, leeway: leeway)
        }
        rawTrueWindSpeed = values.windIsForecast ? nil : boatFrameTrue?.speed
        values.trueWind = Self.damp(boatFrameTrue, &trueBoat, at: now)
        var earth: RelativeWind?
        if let wind = boatFrameTrue, let heading = rawHeading ?? (values.windIsForecast ? ground?.course : nil) {
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

        // Ground wind: for outputs that ask for it by name only.
        if let wind = values.apparentWind, !values.apparentWindIsDerived, let heading = values.headingTrue,
            let sog = values.speedOverGround, let cog = values.courseOverGround
        {
            let groundWind = WindTriangle.groundWind(
                apparent: wind, speedOverGround: sog, courseOverGround: cog, heading: heading)
            values.groundWind = groundWind
            values.groundWindDirection = WindTriangle.direction(of: groundWind, heading: heading)
        }
        return values
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
