import SignalK

/// What `telltale fleet polar` is told: the class whose polar to learn from the store.
public struct FleetPolarOptions: CommandOptions {
    public var store = FleetOptions().store
    public var entries = ""
    public var group = ""
    public var from: Double?
    public var to: Double?
    public var output: String?
    public var json = false

    public init() {}

    public static let spec = CommandSpec(
        "fleet polar",
        abstract: "A one-design class's polar, learnt from every boat of the class in the fleet's store.",
        discussion: """
            The boats of --class are the race office's (--entries, the fleet file `telltale fleet` reads). Each \
            boat's batches in the store (between --from and --to, else all) give her sailing: the apparent wind, the \
            heading, the speeds through the water and over the ground she sent ashore. Her steady minutes (as \
            `telltale calibrate sailing --polar` finds them on board) are pooled with the class's, and each cell of \
            the table is the upper quartile of the class's minutes there: the speed the class sails well, not one \
            boat's best. Written with --output in the table layout `polar` reads (OpenCPN and qtVlm read it too); \
            --json says every cell with its count and the minutes each boat gave. See docs/calibration.md.
            """,
        flags: [
            .option(
                "store", "LOCATION", "The fleet's store: postgres://... or a SQLite file [telltale-fleet.sqlite].",
                example: "fleet.sqlite"),
            .option("entries", "FILE", "The race office's fleet file (CSV, its class column).", example: "fleet.csv"),
            .option("class", "NAME", "The class (as the fleet file names it).", example: "J/70"),
            .option("from", "TIME", "From this time (RFC 3339, or UNIX seconds).", example: "2026-06-01T00:00:00Z"),
            .option("to", "TIME", "To this time (RFC 3339, or UNIX seconds).", example: "2026-09-01T00:00:00Z"),
            .option("output", "FILE", "Write the class's polar here (the table).", example: "j70.csv"),
            .flag("json", "Every cell with its count, and the minutes each boat gave, as JSON."),
        ],
        desktopOnly: true)

    public mutating func set(_ flag: String, _ value: String?) throws(CommandError) {
        let text = CommandParser.text(value)
        switch flag {
        case "store": store = text
        case "entries": entries = text
        case "class": group = text
        case "from": from = try Self.time(flag, text)
        case "to": to = try Self.time(flag, text)
        case "output": output = text
        case "json": json = true
        default: throw .unhandled(flag)
        }
    }

    public func validate() throws(CommandError) {
        if entries.isEmpty || group.isEmpty {
            throw CommandError("fleet polar: say the fleet file (--entries) and the class (--class)", status: 64)
        }
        if let from, let to, to <= from { throw CommandError("fleet polar: --to must come after --from", status: 64) }
    }

    static func time(_ flag: String, _ text: String) throws(CommandError) -> Double {
        if let seconds = Double(text), seconds.isFinite { return seconds }
        if let time = SignalKTime.unixTime(text) { return time }
        throw CommandError("--\(flag) \(text): not a time (RFC 3339, or UNIX seconds)", status: 64)
    }
}
