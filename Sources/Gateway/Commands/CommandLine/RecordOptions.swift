/// What `telltale record` is told: inputs, where the files go, when they rotate.
public struct RecordOptions: CommandOptions {
    public var inputs: [String] = []
    public var directory = ""
    public var rotateSizeMegabytes = 50.0
    public var rotateMinutes = 60.0
    public var duration: Double?

    public init() {}

    public static let spec = CommandSpec(
        "record", abstract: "Record every input sentence with a tag block (receive time, input name), for replay.",
        discussion: """
            Files telltale-<UNIX seconds>.nmea in DIRECTORY, rotated by size and age. Inside `telltale run` the same \
            recorder is switched on by [record] in the configuration.
            """,
        flags: [
            .option(
                "input", "URL", "An input (repeatable): tcp://host:port, udp://:10110, file:///x.nmea.",
                example: "udp://:10110", repeats: true),
            .option("directory", "DIR", "Directory for the recordings.", example: "/var/lib/telltale/logs"),
            .option("rotate-size-mb", "MB", "Start a new file past this many megabytes.", example: "10"),
            .option("rotate-minutes", "MINUTES", "Start a new file after this many minutes.", example: "30"),
            .option("duration", "SECONDS", "Stop after this many seconds.", example: "60"),
        ])

    public mutating func set(_ flag: String, _ value: String?) throws(CommandError) {
        switch flag {
        case "input": inputs.append(CommandParser.text(value))
        case "directory": directory = CommandParser.text(value)
        case "rotate-size-mb": rotateSizeMegabytes = try CommandParser.number(flag, value)
        case "rotate-minutes": rotateMinutes = try CommandParser.number(flag, value)
        case "duration": duration = try CommandParser.number(flag, value)
        default: throw .unhandled(flag)
        }
    }

    public func validate() throws(CommandError) {
        if inputs.isEmpty { throw CommandError("record needs at least one --input", status: 64) }
        if directory.isEmpty { throw CommandError("record needs --directory", status: 64) }
        if !(rotateSizeMegabytes > 0) || !(rotateMinutes > 0) {
            throw CommandError("--rotate-size-mb and --rotate-minutes must be positive", status: 64)
        }
    }
}
