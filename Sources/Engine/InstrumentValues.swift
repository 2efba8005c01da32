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
    /// The share of the calibration applied this tick (``SailingCalibration/share(awa:aws:stw:heading:speedUnit:)``):
    /// 1 with all of it, less where all of it would turn the true wind angle or the heading more than 12°.
    public var calibrationShare = 1.0
    /// The damped calibrated true wind angle was turned back to 12° from the uncalibrated (``Engine/holdCalibration(_:at:)``).
    public var calibrationHeld = false
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
    /// The tide at the nearest tide station, and the stream predicted at the boat (predictions, from harmonic
    /// constants); the current the instruments measure (ground track less way through the water).
    public var tide: TideReport?
    public var predictedStream: TidalStream?
    public var measuredCurrent: MeasuredCurrent?

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
