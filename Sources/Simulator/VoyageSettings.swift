import Marine
import NMEA

/// Everything a simulated voyage depends on. Same settings and seed, same voyage, byte for byte.
public struct VoyageSettings: Sendable {
    public var seed: UInt64 = 1
    /// UNIX seconds at the start.
    public var startTime: Double =
        Double(UTCDate(year: 2026, month: 6, day: 21).daysSinceEpoch) * 86_400
        + 10 * 3600
    /// Longest voyage in seconds; it ends earlier, 30 s after the last waypoint.
    public var duration = 3600.0
    /// Direction the wind comes from over ground, degrees true, and its speed in knots.
    public var windDirection = 225.0
    public var windSpeed = 14.0
    /// Amplitude (degrees) and period (seconds) of the slow wind shift.
    public var shiftAmplitude = 8.0
    public var shiftPeriod = 600.0
    /// Gusts: extra knots and how often one starts (per second).
    public var gustStrength = 4.0
    public var gustRate = 1.0 / 90
    /// Current: direction it flows towards, degrees true, and speed in knots.
    public var currentSet = 70.0
    public var currentSpeed = 0.6
    /// Wave roll and pitch amplitudes (degrees) and the main wave period (seconds).
    public var rollAmplitude = 4.0
    public var pitchAmplitude = 2.0
    public var wavePeriod = 6.0
    /// Vertical wave acceleration amplitude, m/s².
    public var heaveAcceleration = 0.5
    /// Magnetic variation, degrees east positive.
    public var variation = -1.5
    /// Height of the masthead wind unit above the centre of rotation, metres (0: no mast motion in the readings).
    public var mastHeight = 15.0
    /// Instrument errors to calibrate away (`telltale simulate --awa-error`, `--log-error`): degrees the masthead unit
    /// reads more to starboard, and the factor the log reads of the true speed through water.
    public var awaError = 0.0
    public var logError = 1.0
    /// The fraction more the log reads heeled to starboard, and less heeled to port, all of it from 10° of heel
    /// (`--log-side-error`: a paddle wheel off the centreline, deeper on one tack).
    public var logSideError = 0.0
    /// The helm racing downwind (`telltale simulate --racing`): at the polar's gybing angle to a mark dead downwind,
    /// gybing on the laylines (upwind it always beats by the wind).
    public var racing = false
    /// The factor the masthead unit's wind speed reads of the true apparent wind speed (`--aws-error`).
    public var awsError = 1.0
    /// The compass's card (`--deviation`): what a compass adjuster would add to its reading, `a + b sin h + c cos h
    /// + d sin 2h + e cos 2h`; the compass reads the magnetic heading less it.
    public var deviation = DeviationCurve()
    /// Degrees the masthead unit reads the apparent wind angle's size wider close-hauled, reaching and running
    /// (`--upwash-error`), by the shares of ``PointOfSail``: the sails' upwash left in it.
    public var upwashError = (upwind: 0.0, reach: 0.0, downwind: 0.0)
    /// Emit an attitude sensor's XDR ROLL/PTCH (5 Hz) in the log.
    public var attitudeSensor = true
    /// Gyro bias, degrees per second, per axis.
    public var gyroBias = (x: 0.5, y: -0.3, z: 0.4)
    /// Arrival radius of the simulated helmsman, metres (the same as Telltale's default).
    public var arrivalRadius = 0.05 * 1852.0
    /// Talkers.
    public var gpsTalker = "GP"
    /// The boat's polar: it sails at the polar's speed for the true wind it meets (less the lag of a boat
    /// accelerating), so a replay with the same polar reads about 100%.
    public var polar = VoyageSettings.builtInPolar
    /// Seconds of start sequence before the gun: the boat starts behind a start line laid across the first leg at
    /// the first waypoint (``VoyageSimulator/startLine``) and times its run to cross it at the gun, slowing down
    /// (luffing) when early. Nil: no start, the voyage begins at the first waypoint.
    public var startSequence: Double?
    /// Metres from either end of the start line to the first waypoint.
    public var startLineHalfLength = 100.0
    /// Ships on AIS (``SimulatedShip``); none by default.
    public var ships: [SimulatedShip] = []
    /// An anchorage after the last waypoint; nil: the voyage ends 30 s after it.
    public var anchorage: Anchorage?

    /// The end of a voyage at anchor: past the last waypoint the boat luffs head to wind and stops, the anchor goes
    /// down at the bow, she drops back until the chain is taut and lies to it, swinging with the wind's shifts and
    /// sheering from side to side; from `dragAfter` the anchor drags downwind.
    public struct Anchorage: Hashable, Sendable {
        /// Seconds after the voyage's start at which the anchor goes down; if the boat has not finished 20 s before,
        /// 20 s after she does.
        public var dropAt: Double
        /// Seconds at anchor before the voyage ends.
        public var lie = 480.0
        /// Seconds after the drop at which the anchor starts to drag; nil: it holds.
        public var dragAfter: Double?
        /// Knots at which a dragging anchor moves downwind.
        public var dragSpeed = 0.5
        /// Metres of chain let out.
        public var rode = 40.0
        /// Metres from the GPS antenna forward to the bow roller, and from the water up to it.
        public var bowOffset = 4.0
        public var bowHeight = 1.0

        public init(dropAt: Double, lie: Double = 480, dragAfter: Double? = nil) {
            self.dropAt = dropAt
            self.lie = lie
            self.dragAfter = dragAfter
        }
    }

    public init() {}

    /// The demo boat's polar as a table (TWA rows, TWS columns, knots): a 30-footer's shape, pinching below 40°,
    /// fastest on a reach, capped at 7.5 kn. `telltale simulate` writes it beside the voyage as polar.csv.
    public static let builtInPolarText: String = {
        let windSpeeds: [Double] = [4, 6, 8, 10, 12, 14, 16, 20, 25]
        let angles: [Double] = [0, 30, 40, 45, 52, 60, 75, 90, 110, 120, 135, 150, 165, 180]
        var text = "TWA\\TWS"
        for wind in windSpeeds { text += ";\(Int(wind))" }
        text += "\n"
        for angle in angles {
            text += "\(Int(angle))"
            for wind in windSpeeds {
                let ratio = angle < 40 ? 0.15 * angle / 30 : 0.30 + 0.22 * sin(Angle.radians(angle))
                text += ";" + FixedDecimal.text(min(7.5, wind * (angle == 0 ? 0 : ratio)), decimals: 2)
            }
            text += "\n"
        }
        return text
    }()

    public static let builtInPolar: Polar = {
        do { return try Polar.parse(builtInPolarText) } catch { fatalError("the built-in polar: \(error)") }
    }()

    /// What the masthead unit reads for an apparent wind angle (degrees, either sign): its size made wider by the
    /// upwash left in it at that point of sail (no offset, no noise).
    func upwashed(_ angle: Double) -> Double {
        let relative = Angle.relative(angle)
        let share = PointOfSail.shares(abs(relative))
        let wider =
            upwashError.upwind * share.upwind + upwashError.reach * share.reach + upwashError.downwind * share.downwind
        return relative < 0 ? relative - wider : relative + wider
    }

    /// What the compass reads for a true heading (degrees magnetic, its card's error in it, no noise).
    func compass(_ heading: Double) -> Double {
        let exact = Angle.direction(heading - variation)
        return Angle.direction(exact - deviation.deviation(exact))
    }
}
