import Marine

/// What the crew asks of an autopilot (#41), in Signal K's Autopilot API v2 words: angles in radians, positive to
/// starboard. The shell turns it into what the pilot understands (its own PGNs on NMEA 2000); the engine's part is the
/// sailor's numbers (``AutopilotTurn``): how far a tack or gybe turns for this wind and polar.
public enum AutopilotCommand: Hashable, Sendable {
    case engage
    case disengage
    /// `auto` or `standby`.
    case state(String)
    /// `compass`, `gps`, `wind` or `route`.
    case mode(String)
    /// A heading (0 to 2π) or, in wind mode, the apparent wind angle (±π).
    case target(Double)
    /// Added to the target (±π at most; positive turns to starboard).
    case adjust(Double)
    /// Tack or gybe, the bow turning to port (`toPort`) or starboard.
    case tack(toPort: Bool)
    case gybe(toPort: Bool)
    /// Dodge: held course remembered, steered `offset` from it, then back.
    case dodgeEnter
    case dodge(offset: Double)
    case dodgeLeave
    /// Steer the route: to its current point, or on to the next one.
    case courseCurrentPoint
    case courseNextPoint
    /// Make this pilot the default one (the API's `_providers/_default/<id>`): first in the list, under
    /// `steering.autopilot.*`, `_default` in commands.
    case makeDefault

    /// The states and modes the API takes.
    public static let states = ["auto", "standby"]
    public static let modes = ["compass", "gps", "wind", "route"]

    /// The words for the log.
    public var words: String {
        func degrees(_ radians: Double) -> String {
            let value = radians * 180 / Double.pi
            return (value > 0 ? "+" : "") + FixedDecimal.text(value, decimals: 1) + "°"
        }
        switch self {
        case .engage: return "engage"
        case .disengage: return "disengage"
        case .state(let state): return "state " + state
        case .mode(let mode): return "mode " + mode
        case .target(let target): return "target " + degrees(target)
        case .adjust(let change): return "adjust " + degrees(change)
        case .tack(let port): return port ? "tack to port" : "tack to starboard"
        case .gybe(let port): return port ? "gybe to port" : "gybe to starboard"
        case .dodgeEnter: return "dodge"
        case .dodge(let offset): return "dodge " + degrees(offset)
        case .dodgeLeave: return "dodge over"
        case .courseCurrentPoint: return "steer to the current point"
        case .courseNextPoint: return "steer on to the next point"
        case .makeDefault: return "the default pilot"
        }
    }
}

/// A tack or a gybe worked out from the wind and the polar (#41): not a fixed 100°, but onto the polar's target angle
/// for the true wind now on the other side (the beat's angle for a tack, the run's for a gybe; without a polar the
/// true wind angle now, mirrored). Degrees, true.
public struct AutopilotTurn: Hashable, Sendable {
    /// The heading to steer after the turn (degrees true, 0–360).
    public var heading: Double
    /// The heading change (degrees, negative to port).
    public var change: Double
    /// The true wind angle after it (signed, positive starboard).
    public var trueWindAngle: Double
    /// The apparent wind angle after it, at the polar's target speed (a pilot in wind mode holds this).
    public var apparentWindAngle: Double

    /// Why a turn cannot be worked out (the words the API answers with).
    public enum Refusal: Error, Hashable, Sendable {
        case noWind
        case noHeading
        case wrongSide(String)

        public var message: String {
            switch self {
            case .noWind: "no true wind is known: a tack or gybe needs it"
            case .noHeading: "no heading is known: a tack or gybe needs it"
            case .wrongSide(let words): words
            }
        }
    }

    /// The turn for a tack (`gybe` false) or gybe with the bow turning to port (`toPort`) or starboard.
    ///
    /// A tack to port takes the boat from port tack (the wind on the port bow) to starboard tack, so the bow turns
    /// through the wind to port; a gybe to port from the wind on the starboard quarter to the port quarter.
    public static func plan(_ values: InstrumentValues, gybe: Bool, toPort: Bool) -> Result<AutopilotTurn, Refusal> {
        guard let wind = values.trueWind, wind.speed > 0.3, let direction = values.trueWindDirection else {
            return .failure(.noWind)
        }
        guard let heading = values.headingTrue ?? values.courseOverGround else { return .failure(.noHeading) }
        // Which side the wind is on now, and the side it must end on.
        let windToStarboard = wind.angle > 0
        if !gybe && windToStarboard == toPort {
            // Wind on the starboard bow: tacking means turning to starboard (through the wind).
            return .failure(
                .wrongSide(
                    "the wind is on the \(windToStarboard ? "starboard" : "port") side: a tack turns to "
                        + (windToStarboard ? "starboard" : "port")))
        }
        if gybe && windToStarboard != toPort {
            return .failure(
                .wrongSide(
                    "the wind is on the \(windToStarboard ? "starboard" : "port") quarter: a gybe turns to "
                        + (windToStarboard ? "starboard" : "port")))
        }
        let target = gybe ? values.performance?.run : values.performance?.beat
        let angle = target?.angle ?? abs(wind.angle)
        // After the turn the wind is on the other side at `angle`: heading = direction − TWA.
        let after = windToStarboard ? -angle : angle
        let newHeading = Angle.direction(direction - after)
        var change = Angle.relative(newHeading - heading)
        // A tack to port turns to port however far (and a gybe likewise): the short way round may be the wrong way.
        if toPort && change > 0 { change -= 360 }
        if !toPort && change < 0 { change += 360 }
        let speed = target?.speed ?? values.speedThroughWater ?? 0
        let apparent = WindTriangle.apparentWind(
            true: RelativeWind(angle: after, speed: wind.speed), speedThroughWater: speed)
        return .success(
            AutopilotTurn(
                heading: newHeading, change: change, trueWindAngle: after, apparentWindAngle: apparent.angle))
    }
}

/// What the shell reports of the default autopilot each second, for the autopilot alarm (``AlarmKind/autopilot``).
public struct PilotReport: Hashable, Sendable {
    /// The API's device id (`raymarine-204`).
    public var id: String
    /// `auto`, `standby` or `off-line`; nil when it has not said yet.
    public var state: String?
    /// The crew asked for standby through Telltale in the last few seconds (a standby the crew asked for is no alarm).
    public var standbyAsked: Bool

    public init(id: String, state: String?, standbyAsked: Bool) {
        self.id = id
        self.state = state
        self.standbyAsked = standbyAsked
    }
}

extension Engine {
    /// The default autopilot's state, each second: judged for the autopilot alarm at once (its ALR, notification and
    /// words go out with the next tick).
    public mutating func pilot(_ report: PilotReport?) { pilotReport = report }
}

extension AutopilotTurn {
    /// The wind angle a pilot put in wind mode should hold (#41): close-hauled (the true wind within 15° of the polar's
    /// beat angle, or closer to the wind) the beat angle, running (within 15° of the run angle, or deeper) the run
    /// angle, on the side the wind is now; on a reach nil (the pilot holds the angle it has). Degrees; the apparent
    /// angle at the polar's target speed.
    public static func windTarget(_ values: InstrumentValues) -> (trueWindAngle: Double, apparentWindAngle: Double)? {
        guard let wind = values.trueWind, wind.speed > 0.3, let performance = values.performance else { return nil }
        let off = abs(wind.angle)
        let target: Performance.Target
        if off < performance.beat.angle + 15 {
            target = performance.beat
        } else if off > performance.run.angle - 15 {
            target = performance.run
        } else {
            return nil
        }
        let angle = wind.angle < 0 ? -target.angle : target.angle
        let apparent = WindTriangle.apparentWind(
            true: RelativeWind(angle: angle, speed: wind.speed), speedThroughWater: target.speed)
        return (angle, apparent.angle)
    }
}
