import NMEA

/// What `telltale inspect` is told.
public struct InspectOptions: CommandOptions {
    /// A log file, or `-` for standard input (a live bus: rates from the wall clock).
    public var file = "-"
    public var json = false
    /// Print each AIS message decoded, one JSON object a line, instead of the counts.
    public var ais = false
    public var maximumLength = FramerConfiguration.lenientMaximumLength
    public var allowMissingChecksum = false
    private var fileGiven = false

    public init() {}

    public static let spec = CommandSpec(
        "inspect", abstract: "Count the sentences on a bus or in a log: addresses, talkers, rates and rejects.",
        discussion: """
            Reads FILE, or standard input when FILE is -, for example `socat - TCP:plotter:10110 | telltale inspect -`. \
            Rates come from tag-block times, else from the sentences' own UTC times, else from the wall clock.
            """,
        flags: [
            .flag("json", "Print one JSON object instead of a table."),
            .flag(
                "ais",
                "Print each AIS message, its fragments put together, as one JSON object a line (the field names "
                    + "pyais uses), instead of the counts."),
            .option(
                "max-length", "N", "Longest sentence accepted, counted with $ and CR LF (82 is strict NMEA 0183).",
                example: "200"),
            .flag("allow-missing-checksum", "Accept sentences that carry no checksum (old devices)."),
        ],
        arguments: [ArgumentSpec("FILE", "A log file, or - for standard input.", example: "voyage.nmea")])

    public mutating func set(_ flag: String, _ value: String?) throws(CommandError) {
        switch flag {
        case "json": json = true
        case "ais": ais = true
        case "allow-missing-checksum": allowMissingChecksum = true
        case "max-length": maximumLength = try CommandParser.integer(flag, value)
        default: throw .unhandled(flag)
        }
    }

    public mutating func argument(_ word: String) throws(CommandError) {
        guard !fileGiven else { throw CommandError("inspect takes one FILE (or -)", status: 64) }
        file = word
        fileGiven = true
    }

    public func validate() throws(CommandError) {
        if !(82...1024).contains(maximumLength) {
            throw CommandError("--max-length: a number from 82 to 1024", status: 64)
        }
    }

    public static func == (a: InspectOptions, b: InspectOptions) -> Bool {
        a.file == b.file && a.json == b.json && a.ais == b.ais && a.maximumLength == b.maximumLength
            && a.allowMissingChecksum == b.allowMissingChecksum
    }
}

/// What `telltale ports` is told: nothing.
public struct PortsOptions: CommandOptions {
    public init() {}

    public static let spec = CommandSpec(
        "ports", abstract: "List serial ports with their description, USB VID:PID, serial number and stable by-id name."
    )

    public mutating func set(_ flag: String, _ value: String?) throws(CommandError) { throw .unhandled(flag) }
}
