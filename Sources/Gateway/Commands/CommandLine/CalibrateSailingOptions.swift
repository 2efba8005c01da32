/// What `telltale calibrate sailing` is told.
public struct CalibrateSailingOptions: CommandOptions {
    public var logs: [String] = []
    public var output: String?
    public var json = false
    /// Judge a calibration on the logs instead of learning one.
    public var judge: String?

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
            .flag("json", "Print every learnt value with its uncertainty and the manoeuvres used, as JSON."),
        ],
        arguments: [
            ArgumentSpec("LOG", "NMEA 0183 logs of the boat sailing.", example: "day1.nmea", repeats: true)
        ])

    public mutating func set(_ flag: String, _ value: String?) throws(CommandError) {
        switch flag {
        case "output": output = CommandParser.text(value)
        case "json": json = true
        case "judge": judge = CommandParser.text(value)
        default: throw .unhandled(flag)
        }
    }

    public mutating func argument(_ word: String) throws(CommandError) { logs.append(word) }
}
