/// What `telltale n2k` is told.
public struct N2KOptions: CommandOptions {
    public var port = 3000
    /// A bus to read directly instead of asking the gateway: `can://can0`, a recording, `ydraw+tcp://...`.
    public var listen: String?
    public var seconds = 10.0
    public var json = false
    /// A recording to decode: one JSON object a message instead of the listing.
    public var decode: String?

    public init() {}

    public static let spec = CommandSpec(
        "n2k", abstract: "List the NMEA 2000 bus's devices: NAME, address, product, what each sends and how often.",
        discussion: """
            Asks `telltale run` on this machine ([n2k] and [web] in its configuration), which knows every device by its \
            NAME and has asked each for its product information. With --listen, reads a bus itself for --seconds \
            without sending anything but a request for address claims from the null address (a live bus), or reads a \
            recording (candump -l, canboat's formats, Yacht Devices RAW) whole. The SOURCE column is the name the \
            engine's [priority] lists and Signal K's $source use.
            """,
        flags: [
            .option("port", "PORT", "The gateway's [web] port.", example: "3001"),
            .option(
                "listen", "URL", "Read this bus directly: can://can0, file://bus.log, ydraw+tcp://host:port.",
                example: "can://can0"),
            .option("seconds", "N", "How long to listen to a live bus.", example: "5"),
            .flag("json", "Print the listing as JSON (as GET /telltale/v1/n2k gives it)."),
            .option(
                "decode", "FILE",
                "Decode a recording instead: each message Telltale reads, one JSON object a line, its fields under "
                    + "canboat's ids and in its units.", example: "bus.log"),
        ])

    public mutating func set(_ flag: String, _ value: String?) throws(CommandError) {
        switch flag {
        case "port": port = try CommandParser.integer(flag, value)
        case "listen": listen = CommandParser.text(value)
        case "seconds": seconds = try CommandParser.number(flag, value)
        case "json": json = true
        case "decode": decode = CommandParser.text(value)
        default: throw .unhandled(flag)
        }
    }

    public func validate() throws(CommandError) {
        if !(0.5...3600).contains(seconds) { throw CommandError("--seconds: from 0.5 to 3600", status: 64) }
    }

    public static func == (a: N2KOptions, b: N2KOptions) -> Bool {
        a.port == b.port && a.listen == b.listen && a.seconds == b.seconds && a.json == b.json && a.decode == b.decode
    }
}
