/// What `telltale calibrate sailing` is told.
public struct CalibrateSailingOptions: CommandOptions {
    public var logs: [String] = []
    public var output: String?
    public var json = false
    /// Judge a calibration on the logs instead of learning one.
    public var judge: String?
    /// Learn from the history on the card instead of logs: its folder, how many days back, and the calibration the
    /// history's values were already corrected with (the result is that one followed by what is learnt).
    public var history: String?
    public var days = 30.0
    /// With `history`: nothing before this UNIX time (when the applied calibration was applied).
    public var since: Double?
    public var applied: String?
    /// Write the polar learnt from the calibrated, steady sailing here (the table `polar` reads).
    public var polar: String?

    public init() {}

    public static let spec = CommandSpec(
        "calibrate sailing",
        abstract: "Learn the wind angle offset, the upwash and the log's factor from recorded sailing.",
        discussion: """
            Reads NMEA 0183 logs (MWV or VWR apparent wind, VHW, HDG or HDT, RMC), finds the tacks and gybes with \
            steady sailing either side, and learns from them: the masthead unit's offset (the boat points as high on \
            both tacks), the upwash upwind and downwind (the true wind direction holds across a tack or a gybe) and \
            the log's factor (the current holds across a manoeuvre). Each value comes with its uncertainty and the \
            manoeuvres behind it; only sure values go into --output, which `[calibration] file` and `telltale replay \
            --calibration` read. A sensor stuck or jumping, or too few manoeuvres, is said, and nothing is learnt.
            """,
        flags: [
            .option("output", "FILE", "Write the calibration (TOML) here.", example: "calibration.toml"),
            .option(
                "judge", "FILE",
                "Learn nothing: say the tack and gybe bias on the logs without and with this calibration (days held out).",
                example: "calibration.toml"),
            .option(
                "history", "FOLDER", "Learn from the history on the card (its history/ folder).", example: "history"),
            .option("days", "DAYS", "With --history: the days back to learn from (30).", example: "7"),
            .option(
                "since", "UNIX", "With --history: nothing before this time (when the applied calibration was applied).",
                example: "1782036000"),
            .option(
                "applied", "FILE", "With --history: the calibration its values were corrected with, to build on.",
                example: "calibration.toml"),
            .option(
                "polar", "FILE",
                "Write the boat's real polar, learnt from the calibrated steady sailing, in the table `polar` reads.",
                example: "learnt.pol"),
            .flag("json", "Print every learnt value with its uncertainty and the manoeuvres used, as JSON."),
        ],
        arguments: [
            ArgumentSpec(
                "LOG", "NMEA 0183 logs of the boat sailing (none with --history).", example: "day1.nmea",
                optional: true,
                repeats: true)
        ])

    public mutating func set(_ flag: String, _ value: String?) throws(CommandError) {
        switch flag {
        case "output": output = CommandParser.text(value)
        case "json": json = true
        case "judge": judge = CommandParser.text(value)
        case "history": history = CommandParser.text(value)
        case "days": days = try CommandParser.number(flag, value)
        case "since": since = try CommandParser.number(flag, value)
        case "applied": applied = CommandParser.text(value)
        case "polar": polar = CommandParser.text(value)
        default: throw .unhandled(flag)
        }
    }

    public mutating func argument(_ word: String) throws(CommandError) { logs.append(word) }
}
