import Engine

/// What `telltale replay` is told.
public struct ReplayOptions: CommandOptions {
    public var logs: [String] = []
    /// As fast as the machine goes (else `speed`, else real time).
    public var fast = false
    public var speed: Double?
    public var computedOnly = false
    public var tagTime = false
    /// Compare the output with this golden file, and fail with the first differences.
    public var expect: String?
    public var route: String?
    public var imu: String?
    public var config: String?
    /// A calibration learnt from sailing (`telltale calibrate sailing --output`), over the configuration's.
    public var calibration: String?
    public var lineRate = 10.0
    public var tickRate = 10.0
    /// Computed kinds by name; empty: the standard set.
    public var kinds: [String] = []
    /// Write the Signal K delta stream of the replay here, one delta a line (what a `subscribe=self` client gets).
    public var signalK: String?
    /// Seconds after the log's first sentence at which the race timer starts its sequence.
    public var raceStart: Double?
    /// Seconds after the log's first sentence at which the anchor goes down (the circle from `[anchor] radius`).
    public var anchorDrop: Double?
    /// Forecast grid files (`telltale weather import`) the engine has on board during the replay.
    public var forecasts: [String] = []

    public init() {}

    /// Log seconds per wall-clock second; nil: as fast as the machine goes.
    public var pace: Double? { fast ? nil : speed ?? 1 }

    public static let spec = CommandSpec(
        "replay", abstract: "Replay NMEA logs through the engine on their own clock.",
        discussion: """
            Times come from tag blocks, else the sentences' UTC (RMC, GGA, GLL, ZDA, BWC); lines between two times are \
            spread evenly; a log with no time advances at --line-rate. Several logs merge on one clock. Output goes \
            to standard output in time order (CR LF), or, when --config names outputs, to them through the runtime.
            """,
        flags: [
            .flag("fast", "As fast as the machine goes (default: real time)."),
            .option("speed", "X", "Replay speed: log seconds per wall-clock second.", example: "10"),
            .flag("computed-only", "Leave out the input passed through; print only computed sentences."),
            .flag("tag-time", "Prefix every line with an NMEA 4.10 tag block \\c:<UNIX ms>*hh\\ of the replay clock."),
            .option(
                "expect", "FILE", "Compare the output with this golden file; exit 1 with the first differences.",
                example: "golden.nmea"),
            .option("route", "GPX", "A GPX route to follow (first <rte>, or the <wpt> list).", example: "route.gpx"),
            .option(
                "imu", "CSV", "An IMU CSV (time_s,ax,ay,az,gx,gy,gz) merged with the logs on one clock.",
                example: "imu.csv"),
            .option(
                "config", "FILE",
                "A configuration file: its engine settings and route apply; its outputs, if any, "
                    + "get the replay (at --speed, or 1000x with --fast) instead of standard output.",
                example: "boat.toml"),
            .option(
                "calibration", "FILE",
                "A calibration learnt from sailing (telltale calibrate sailing --output), applied to the wind and the log.",
                example: "calibration.toml"),
            .option(
                "signalk", "FILE", "Write the replay's Signal K delta stream to this file, one delta a line.",
                example: "deltas.jsonl"),
            .option(
                "race-start", "SECONDS", "Start the race timer's sequence this long after the log's first sentence.",
                example: "0"),
            .option(
                "anchor-drop", "SECONDS",
                "Drop the anchor this long after the log's first sentence (the circle from [anchor] radius): "
                    + "the anchor watch on a recorded anchorage.", example: "1440"),
            .option(
                "forecast", "GRID",
                "A forecast grid (from telltale weather import) on board during the replay (repeatable): the "
                    + "forecast at the boat, and forecast wind with [weather] wind_fallback.", example: "gfs.grb.ttwx",
                repeats: true),
            .option("line-rate", "N", "Sentences per second for a log that carries no time.", example: "5"),
            .option("tick-rate", "N", "Engine ticks per second (1-50).", example: "20"),
            .option(
                "kind", "KIND", "A computed sentence to produce (repeatable); default: the standard set.",
                example: "true-wind", repeats: true),
        ],
        arguments: [
            ArgumentSpec(
                "LOG", "NMEA logs to replay (none when --imu names a trace: it has its own clock).",
                example: "voyage.nmea", optional: true, repeats: true)
        ])

    public mutating func set(_ flag: String, _ value: String?) throws(CommandError) {
        let text = CommandParser.text(value)
        switch flag {
        case "fast": fast = true
        case "speed": speed = try CommandParser.number(flag, value)
        case "computed-only": computedOnly = true
        case "tag-time": tagTime = true
        case "expect": expect = text
        case "route": route = text
        case "imu": imu = text
        case "config": config = text
        case "calibration": calibration = text
        case "signalk": signalK = text
        case "race-start": raceStart = try CommandParser.number(flag, value)
        case "anchor-drop": anchorDrop = try CommandParser.number(flag, value)
        case "forecast": forecasts.append(text)
        case "line-rate": lineRate = try CommandParser.number(flag, value)
        case "tick-rate": tickRate = try CommandParser.number(flag, value)
        case "kind": kinds.append(text)
        default: throw .unhandled(flag)
        }
    }

    public mutating func argument(_ word: String) throws(CommandError) { logs.append(word) }

    /// The rules the options must keep; the first broken one.
    public func validate() throws(CommandError) {
        if fast && speed != nil { throw CommandError("--fast and --speed exclude each other", status: 64) }
        if let speed, !(speed > 0) { throw CommandError("--speed must be positive", status: 64) }
        if !(1...50).contains(tickRate) { throw CommandError("--tick-rate must be from 1 to 50", status: 64) }
        if let anchorDrop, !(anchorDrop >= 0) {
            throw CommandError("--anchor-drop must not be negative", status: 64)
        }
        if !(lineRate > 0) { throw CommandError("--line-rate must be positive", status: 64) }
        if logs.isEmpty && imu == nil {
            throw CommandError("name at least one log, or an IMU trace with --imu", status: 64)
        }
        for kind in kinds where ComputedKind.named(kind) == nil {
            throw CommandError(
                "unknown --kind \(kind) (known: \(ComputedKind.allCases.map { $0.description }.joined(separator: ", ")))",
                status: 64)
        }
    }
}
