/// What `telltale simulate` is told (the desktop build's: the simulator is not on the Pi).
public struct SimulateOptions: CommandOptions {
    public var route = ""
    public var output = ""
    public var seed: UInt64 = 1
    public var duration = 3600.0
    public var windDirection = 225.0
    public var windSpeed = 14.0
    public var mastHeight = 15.0
    /// Instrument errors: degrees the masthead unit reads more to starboard, the factor the log reads.
    public var awaError = 0.0
    public var logError = 1.0
    public var logSideError = 0.0
    /// The factor the wind speed reads; the compass's card (five terms, degrees).
    public var awsError = 1.0
    public var deviation: [Double] = []
    public var upwashError: [Double] = []
    /// Knots a gust adds (0: none); degrees the wind's slow oscillation swings either way (0: none).
    public var gust = 4.0
    public var shift = 8.0
    public var roll = 4.0
    public var noAttitudeSensor = false
    /// The helm sailing downwind legs at the polar's gybing angle.
    public var racing = false
    public var polar: String?
    public var start: Double?
    /// `--ship SECONDS[:METRES[:KNOTS[:FROM]]]`: an AIS ship closest to the boat at SECONDS, METRES apart [0],
    /// at KNOTS [12], coming FROM degrees off the boat's course [90, starboard].
    public var ships: [Ship] = []
    /// Seconds into the voyage at which the anchor goes down past the last waypoint (nil: no anchorage, unless a drag
    /// or a lie is given: then 20 s after the finish), seconds after that at which it drags (nil: it holds), seconds
    /// at anchor.
    public var anchorDrop: Double?
    public var anchorDrag: Double?
    public var anchorLie = 480.0
    /// Whether `--anchor-lie` was given (an anchorage even without `--anchor-drop`).
    public var anchorLieGiven = false

    public struct Ship: Hashable, Sendable {
        public var closestAt: Double
        public var passing: Double
        public var speed: Double
        public var from: Double
    }

    public init() {}

    /// One `--ship` value.
    public static func ship(_ text: String) throws(CommandError) -> Ship {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map { Double(String($0)) }
        guard (1...4).contains(parts.count), parts.allSatisfy({ $0 != nil && $0!.isFinite }) else {
            throw CommandError("--ship \(text): SECONDS[:METRES[:KNOTS[:FROM]]], numbers", status: 64)
        }
        let ship = Ship(
            closestAt: parts[0]!, passing: parts.count > 1 ? parts[1]! : 0, speed: parts.count > 2 ? parts[2]! : 12,
            from: parts.count > 3 ? parts[3]! : 90)
        guard ship.closestAt >= 0, ship.passing >= 0, ship.speed > 0, ship.speed <= 60 else {
            throw CommandError("--ship \(text): a time and distance not negative, 0 to 60 knots", status: 64)
        }
        return ship
    }

    public static let spec = CommandSpec(
        "simulate",
        abstract: "Sail a GPX route in a simulated wind, current and sea; write the instrument log, IMU "
            + "and truth.",
        discussion: """
            Writes OUTPUT/voyage.nmea (RMC, GGA, VTG 1 Hz; HDG 10 Hz; VHW 2 Hz; MWV R 5 Hz from a masthead unit that \
            moves and heels with the boat; DPT 1 Hz; XDR ROLL/PTCH 5 Hz), OUTPUT/imu.csv (100 Hz) and \
            OUTPUT/truth.csv (2 Hz), and the boat's polar (OUTPUT/polar.csv, unless --polar names one). The same seed \
            and settings give the same bytes.
            """,
        flags: [
            .option("route", "GPX", "The route to sail (GPX).", example: "route.gpx"),
            .option("output", "DIR", "Directory to write to (created if missing).", example: "/tmp/voyage"),
            .option("seed", "N", "Seed of the voyage.", example: "7"),
            .option(
                "duration", "SECONDS", "Longest voyage (it ends 30 s after the last waypoint, or after the anchorage).",
                example: "600"),
            .option("wind-direction", "DEGREES", "Wind over ground: direction it comes from (true).", example: "200"),
            .option("wind-speed", "KNOTS", "Wind over ground: speed.", example: "12"),
            .option(
                "mast-height", "METRES", "Masthead unit height above the centre of rotation (0: no mast motion).",
                example: "12"),
            .option("roll", "DEGREES", "Wave roll amplitude.", example: "3"),
            .option(
                "awa-error", "DEGREES",
                "The masthead unit turned: its apparent wind angle reads this more to starboard.", example: "5"),
            .option("log-error", "FACTOR", "The log reads this times the speed through water.", example: "0.93"),
            .option(
                "log-side-error", "FRACTION",
                "The log reads this fraction more heeled to starboard (port tack) and less heeled to port, all of "
                    + "it from 10° of heel.", example: "0.04"),
            .option("aws-error", "FACTOR", "The masthead unit's wind speed reads this times the true.", example: "1.1"),
            .option(
                "deviation", "A,B,C,D,E",
                "The compass's card: it reads the magnetic heading less A + B sin h + C cos h + D sin 2h + E cos 2h "
                    + "(degrees).", example: "0,4,0,0,2"),
            .option(
                "upwash-error", "UP,REACH,DOWN",
                "The masthead unit reads the apparent wind angle this much wider close-hauled, reaching and running "
                    + "(degrees, fading from one to the next).", example: "0,4,0"),
            .option("gust", "KNOTS", "What a gust adds to the wind (4; 0 for none).", example: "0"),
            .option(
                "shift", "DEGREES", "How far the wind swings either way, every 10 minutes (8; 0 for none).",
                example: "0"),
            .flag("no-attitude-sensor", "Leave the attitude sensor's XDR out of the log."),
            .flag(
                "racing",
                "Race downwind too: a mark dead downwind is sailed to at the polar's gybing angle, gybing on the "
                    + "laylines (upwind the helm always beats by the wind)."),
            .option(
                "polar", "FILE", "The boat's polar (table, Expedition or ORC JSON); the built-in one if not given.",
                example: "boat.pol"),
            .option(
                "start", "SECONDS",
                "Seconds of start sequence: the boat starts behind a line across the first leg "
                    + "(OUTPUT/line.gpx) and times its run to cross it at the gun.", example: "300"),
            .option(
                "ship", "SECONDS[:METRES[:KNOTS[:FROM]]]",
                "An AIS ship (repeatable) closest to the boat SECONDS into the voyage, METRES apart [0: a collision "
                    + "course], at KNOTS [12], coming FROM degrees off the boat's course [90: from starboard]; its "
                    + "AIVDM goes into the log.", example: "900:100", repeats: true),
            .option(
                "anchor-drop", "SECONDS",
                "An anchorage at the end: past the last waypoint the boat luffs and stops, and the anchor goes down "
                    + "this long into the voyage (or 20 s after the finish, if later) with 40 m of chain; truth.csv "
                    + "says where it lies.", example: "1440"),
            .option(
                "anchor-drag", "SECONDS",
                "The anchor drags downwind at half a knot from this long after it went down (without --anchor-drop: "
                    + "anchored 20 s after the finish).", example: "300"),
            .option(
                "anchor-lie", "SECONDS",
                "Seconds at anchor before the voyage ends [480] (without --anchor-drop: anchored 20 s after the finish).",
                example: "600"),
        ],
        desktopOnly: true)

    public mutating func set(_ flag: String, _ value: String?) throws(CommandError) {
        let text = CommandParser.text(value)
        switch flag {
        case "route": route = text
        case "output": output = text
        case "seed":
            guard let number = UInt64(text) else {
                throw CommandError("--seed \(text): not a whole number", status: 64)
            }
            seed = number
        case "duration": duration = try CommandParser.number(flag, value)
        case "wind-direction": windDirection = try CommandParser.number(flag, value)
        case "wind-speed": windSpeed = try CommandParser.number(flag, value)
        case "mast-height": mastHeight = try CommandParser.number(flag, value)
        case "roll": roll = try CommandParser.number(flag, value)
        case "awa-error": awaError = try CommandParser.number(flag, value)
        case "log-error": logError = try CommandParser.number(flag, value)
        case "log-side-error": logSideError = try CommandParser.number(flag, value)
        case "aws-error": awsError = try CommandParser.number(flag, value)
        case "deviation": deviation = Self.terms(text)
        case "upwash-error": upwashError = Self.terms(text)
        case "gust": gust = try CommandParser.number(flag, value)
        case "shift": shift = try CommandParser.number(flag, value)
        case "no-attitude-sensor": noAttitudeSensor = true
        case "racing": racing = true
        case "polar": polar = text
        case "start": start = try CommandParser.number(flag, value)
        case "ship": ships.append(try Self.ship(text))
        case "anchor-drop": anchorDrop = try CommandParser.number(flag, value)
        case "anchor-drag": anchorDrag = try CommandParser.number(flag, value)
        case "anchor-lie":
            anchorLie = try CommandParser.number(flag, value)
            anchorLieGiven = true
        default: throw .unhandled(flag)
        }
    }

    public func validate() throws(CommandError) {
        if route.isEmpty || output.isEmpty { throw CommandError("simulate needs --route and --output", status: 64) }
        if let anchorDrop, !(anchorDrop >= 0) { throw CommandError("--anchor-drop must not be negative", status: 64) }
        if let anchorDrag, !(anchorDrag >= 0) { throw CommandError("--anchor-drag must not be negative", status: 64) }
        if !(anchorLie > 0) { throw CommandError("--anchor-lie must be positive", status: 64) }
        if !(abs(awaError) <= 30) { throw CommandError("--awa-error: -30 to 30 degrees", status: 64) }
        if !(logError >= 0.5 && logError <= 1.5) { throw CommandError("--log-error: 0.5 to 1.5", status: 64) }
        if !(abs(logSideError) <= 0.2) { throw CommandError("--log-side-error: -0.2 to 0.2", status: 64) }
        if !(awsError >= 0.5 && awsError <= 1.5) { throw CommandError("--aws-error: 0.5 to 1.5", status: 64) }
        if !deviation.isEmpty && !(deviation.count == 5 && deviation.allSatisfy({ abs($0) <= 20 })) {
            throw CommandError("--deviation: five numbers A,B,C,D,E, each within 20 degrees", status: 64)
        }
        if !upwashError.isEmpty && !(upwashError.count == 3 && upwashError.allSatisfy({ abs($0) <= 20 })) {
            throw CommandError("--upwash-error: three numbers UP,REACH,DOWN, each within 20 degrees", status: 64)
        }
        if !(gust >= 0 && gust <= 30) { throw CommandError("--gust: 0 to 30 knots", status: 64) }
        if !(shift >= 0 && shift <= 45) { throw CommandError("--shift: 0 to 45 degrees", status: 64) }
    }

    /// `A,B,C,D,E` as numbers (a NaN for any that is not one).
    public static func terms(_ text: String) -> [Double] {
        text.split(separator: ",").map { Double(String($0.filter { $0 != " " })) ?? .nan }
    }
}
