import Marine
import NMEA

/// A sentence the engine computes. Outputs choose which they carry.
public enum ComputedKind: Int, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// MWV `R`, corrected apparent wind (heel, mast motion, offset as configured).
    case apparentWind
    /// MWV `R`, the measured apparent wind without corrections (damped like the corrected one).
    case apparentWindMeasured
    /// MWV `T`: true wind over water.
    case trueWind
    /// MWD: true wind direction (where it comes from) and speed, over water.
    case windDirection
    /// VWR (legacy apparent wind).
    case apparentWindLegacy
    /// VWT (legacy true wind).
    case trueWindLegacy
    /// VPW: velocity made good to windward.
    case windwardSpeed
    /// HDT: true heading.
    case headingTrue
    /// HDG: magnetic heading with deviation and variation.
    case headingMagnetic
    /// XDR `GWDIR`/`GWSPD`: ground wind, never sent as MWV `T`.
    case groundWind
    /// XTE: cross-track error of the active leg.
    case crossTrackError
    /// BWC: bearing and distance to the waypoint along the great circle.
    case waypointGreatCircle
    /// BWR: bearing and distance to the waypoint along the rhumb line.
    case waypointRhumb
    /// RMB: recommended minimum navigation information.
    case navigation
    /// APB with all three bearings true.
    case autopilot
    /// APB with all three bearings magnetic (true, with a notice, when no variation is known).
    case autopilotMagnetic
    /// WCV: waypoint closure velocity.
    case waypointClosure
    /// XDR `A,<heel>,D,ROLL,A,<pitch>,D,PTCH` from the IMU: instantaneous, not averaged over waves.
    case attitude
    /// The same with B&G's names, `HEEL` and `TRIM`.
    case attitudeHeelTrim
    /// ROT from the IMU's rate of turn about the vertical.
    case rateOfTurn
    /// ALR for the alarms (raised, cleared, acknowledged, and repeated while active).
    case alarm
    /// TXT notices when an alarm is raised or cleared.
    case alarmText
    /// XDR `LINEDIST`, `LINETIME`, `LINEBURN`, `LINEBIAS`: the bow to the start line, once one is set.
    case startLine
    /// XDR `POLSPD`, `POLPCT`, `TGTTWA`, `TGTSPD`: the polar's speed now, the boat's share of it, and the target angle
    /// and speed of the point of sail.
    case performance
    /// XDR `LAYDIST`, `LAYTIME`, `OLAYDIST`, `OLAYTIME`: the laylines to the active waypoint.
    case laylines
    /// RMC, GGA and VTG of the current fix (for outputs fed by gpsd, which sends no NMEA of its own).
    case positionRMC
    case positionGGA
    case positionVTG

    /// Made from the wind: labelled as forecast when the wind is the forecast's (``WeatherSettings/windFallback``).
    public var isWindDerived: Bool {
        switch self {
        case .apparentWind, .trueWind, .windDirection, .apparentWindLegacy, .trueWindLegacy, .windwardSpeed,
            .performance, .laylines:
            true
        default: false
        }
    }

    public var description: String {
        switch self {
        case .apparentWind: "apparent-wind"
        case .apparentWindMeasured: "apparent-wind-measured"
        case .trueWind: "true-wind"
        case .windDirection: "wind-direction"
        case .apparentWindLegacy: "apparent-wind-legacy"
        case .trueWindLegacy: "true-wind-legacy"
        case .windwardSpeed: "windward-speed"
        case .headingTrue: "heading-true"
        case .headingMagnetic: "heading-magnetic"
        case .groundWind: "ground-wind"
        case .crossTrackError: "cross-track-error"
        case .waypointGreatCircle: "waypoint-great-circle"
        case .waypointRhumb: "waypoint-rhumb"
        case .navigation: "navigation"
        case .autopilot: "autopilot"
        case .autopilotMagnetic: "autopilot-magnetic"
        case .waypointClosure: "waypoint-closure"
        case .attitude: "attitude"
        case .attitudeHeelTrim: "attitude-heel-trim"
        case .rateOfTurn: "rate-of-turn"
        case .alarm: "alarm"
        case .alarmText: "alarm-text"
        case .startLine: "start-line"
        case .performance: "performance"
        case .laylines: "laylines"
        case .positionRMC: "position-rmc"
        case .positionGGA: "position-gga"
        case .positionVTG: "position-vtg"
        }
    }

    /// The kinds a default output carries: the standard sentences, not the legacy or ground-wind ones.
    public static let standard: Set<ComputedKind> = [
        .apparentWind, .trueWind, .windDirection, .windwardSpeed, .headingTrue, .crossTrackError,
        .waypointGreatCircle, .waypointRhumb, .navigation, .autopilot, .waypointClosure, .attitude, .alarm, .startLine,
        .performance, .laylines,
    ]

    /// The kind a configuration or command line names (`alarm`, and the earlier `heel-alarm`, `heel-alarm-text`).
    public static func named(_ name: String) -> ComputedKind? {
        switch name {
        case "heel-alarm": .alarm
        case "heel-alarm-text": .alarmText
        default: allCases.first { $0.description == name }
        }
    }

    /// Seconds between two sentences of this kind by default.
    public var defaultInterval: Double {
        switch self {
        case .apparentWind, .apparentWindMeasured, .trueWind, .headingTrue: 0.5
        case .attitude, .attitudeHeelTrim, .rateOfTurn: 0.2
        case .alarm: 10
        case .alarmText: 1
        default: 1
        }
    }
}

/// Time constants of the damping, in seconds (0 switches damping off for that quantity).
public struct Damping: Hashable, Sendable {
    /// Apparent wind, damped as a vector.
    public var apparentWind = 1.0
    /// True wind angle and speed, damped as a boat-frame vector.
    public var trueWind = 2.0
    /// True wind direction and speed, damped as an earth-frame vector so TWD does not jitter with the heading.
    public var windDirection = 5.0
    public var speedThroughWater = 2.0
    /// Heading usually arrives filtered by the compass; damped as an angle.
    public var heading = 0.0
    public var speedOverGround = 2.0
    /// Course over ground, damped as an angle.
    public var courseOverGround = 2.0
    public var windwardSpeed = 3.0
    /// The mean heel that feeds leeway (not the instantaneous heel, which corrects the masthead unit).
    public var meanHeel = 5.0

    public init() {}
}

/// How long each input stays current, in seconds. A derived value is invalid as soon as an input it needs is older.
public struct Timeouts: Hashable, Sendable {
    public var wind = 3.0
    public var heading = 3.0
    public var speed = 3.0
    public var position = 5.0
    public var attitude = 1.0
    public var depth = 5.0
    /// Variation changes slowly: one from RMC or HDG stays usable this long.
    public var variation = 600.0
    /// A barometer may send once a minute.
    public var pressure = 90.0

    public init() {}
}

/// What the engine does with the forecasts on board.
public struct WeatherSettings: Hashable, Sendable {
    /// With no anemometer heard (never, or lost), take the forecast's 10 m wind as the true wind: labelled, damped
    /// apart, and given up the moment measured wind returns.
    public var windFallback = false
    /// The talker of the wind sentences made from the forecast, so that a display or a log can tell them from measured
    /// wind (`WF`: no NMEA talker has it).
    public var talker: Talker = "WF"

    public init() {}
}

/// Corrections applied to the masthead unit's wind, each switchable.
public struct WindSettings: Hashable, Sendable {
    /// Degrees added to the measured angle (a unit mounted off the centreline), positive starboard.
    public var sensorOffset = 0.0
    public var heelCorrection = true
    /// Leeway in the triangle; nil switches it off.
    public var leeway: LeewayModel? = LeewayModel()
    /// Mast-motion correction from the IMU's roll and pitch rates; needs ``mastHeight``.
    public var mastMotion = false
    /// Metres from the centre of rotation to the wind unit.
    public var mastHeight = 0.0
    /// With no speed through water, use speed over ground in the triangle (then say so).
    public var speedOverGroundFallback = false
    /// The calibration learnt from sailing (`[calibration]`, `telltale calibrate sailing`): the wind angle's offset
    /// and upwash, and the log's factor.
    public var calibration = SailingCalibration()

    public init() {}
}

/// What a sentence says when an input it needs has gone stale.
public enum StaleBehavior: String, Hashable, Sendable {
    /// Sentences with a status field go out with status `V` and empty values; the others stop.
    case invalid
    /// All stop.
    case silent
}

/// Where magnetic variation comes from.
public enum VariationSource: String, Hashable, Sendable {
    case hdg
    case rmc
    case configuration
}

/// Groups of quantities that share a source priority list.
public enum QuantityGroup: String, CaseIterable, Hashable, Sendable {
    case wind
    case heading
    case speed
    case position
    case depth
    case attitude
}

/// Everything the engine is told.
public struct EngineConfiguration: Sendable {
    /// Talker of computed sentences.
    public var talker: Talker = "II"
    public var damping = Damping()
    public var timeouts = Timeouts()
    public var wind = WindSettings()
    public var staleBehavior = StaleBehavior.invalid
    /// Configured variation, degrees east positive.
    public var variation: Double?
    public var variationOrder: [VariationSource] = [.hdg, .rmc, .configuration]
    /// The kinds the engine builds: the union of what the outputs carry. Others are not computed into sentences.
    public var kinds: Set<ComputedKind> = ComputedKind.standard
    /// Seconds between sentences of each kind.
    public var intervals: [ComputedKind: Double] = [:]
    /// Input names per group, best first; inputs not listed rank after, in order of first appearance.
    public var priorities: [QuantityGroup: [String]] = [:]
    /// Seconds a better source must be fresh without a break before it takes over again.
    public var returnDelay = 10.0
    /// Route following.
    public var route = RouteSettings()
    /// The attitude filter that turns IMU samples into heel and pitch.
    public var attitude = AttitudeSettings()
    /// The alarms: heel, sensors lost, XTE, arrival, shallow water, wind shift, over early.
    public var alarms = AlarmSettings()
    /// `[weather]`: forecast wind as the last wind source, and how it is labelled.
    public var weather = WeatherSettings()
    /// Metres from the GPS antenna forward to the bow, for the start line and the anchor's position.
    public var bowOffset = 0.0
    /// The anchor watch: its default circle, hold time, margin and the bow's height.
    public var anchor = AnchorSettings()
    /// The tide and the stream on board: the boat's draft and her transducer's depth, for the water under the keel.
    public var tides = TideSettings()
    /// Hours of track the engine keeps (the chart's track, the anchor's swing), in at most `trackPoints` points.
    public var trackHours = 24.0
    public var trackPoints = 8192
    /// The boat's polar, for targets and performance.
    public var polar: Polar?
    /// Decimals of heel and pitch in XDR.
    public var attitudeDecimals = 1
    /// Seconds of IMU samples at start over which a still boat's gyro mean is taken as the gyro bias (0: never).
    public var startupBiasWindow = 3.0
    /// A gyro bias measured earlier (`telltale calibrate level`), °/s, body frame: the start when the boat is not
    /// still at start-up.
    public var initialGyroBias: SIMD3<Double>?
    /// Heading from the IMU's magnetometer, tilt-compensated, as a magnetic heading source (ranked after every
    /// input unless the priorities say otherwise).
    public var imuHeading = false
    /// Hard-iron offset taken off the magnetometer, µT, body frame.
    public var magnetometerOffset = SIMD3<Double>(0, 0, 0)
    /// With no local route, navigate to the destination an upstream plotter announces (RMB, BWC).
    public var followUpstream = true
    /// Seconds the engine remembers its own sentences to recognise them coming back; 0 turns it off.
    public var echoWindow = 5.0
    /// A fix out of a boat's reach from the one before is refused (``PositionGate``). Off only where the boat is
    /// placed by hand: the engine's tests that put her 500 m further on each second.
    public var gatesPositions = true

    public init() {}

    public func interval(of kind: ComputedKind) -> Double { intervals[kind] ?? kind.defaultInterval }
}
