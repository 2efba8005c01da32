import Marine

/// What `telltale tide STATION` and `telltale tide --near LAT,LON` are told.
public struct TideOptions: CommandOptions {
    public var station: String?
    /// UNIX seconds; nil for now.
    public var from: Double?
    public var hours = 24.0
    /// Minutes between the heights (or currents) listed.
    public var step = 6.0
    public var near: GeoPoint?
    /// The router's current at this place (tidal streams near it, else the ocean forecasts on board).
    public var current: GeoPoint?
    public var count = 10
    public var files: [String] = []
    public var config: String?
    public var json = false

    public init() {}

    public static let spec = CommandSpec(
        "tide", abstract: "Predict the tide or the tidal current at a station, or list the stations near a place.",
        discussion: """
            STATION is a station's name as in the harmonics file, or a part of its name that no other station has \
            (an unknown or ambiguous name lists the candidates and fails). The heights are metres above the \
            station's datum (MLLW for NOAA's stations, chart datum elsewhere), currents knots (flood positive, with \
            the direction they set, degrees true), times UTC. The stations come from the harmonics files named with \
            --file, the tides folder beside the state file of --config (a sailor's own .tcd files), and Debian's \
            xtide-data (/usr/share/xtide); see docs/tides.md.
            """,
        flags: [
            .option(
                "from", "TIME", "Start: UNIX seconds or 2026-08-15T00:00Z; now by default.",
                example: "2026-08-15T00:00Z"),
            .option("hours", "HOURS", "How long to predict (24 by default, a year at most).", example: "48"),
            .option("step", "MINUTES", "Minutes between the heights or currents listed (6 by default).", example: "6"),
            .option("near", "LAT,LON", "List the stations nearest this place instead.", example: "50.77,-1.30"),
            .option("count", "N", "How many stations --near lists (10 by default).", example: "10"),
            .option(
                "current", "LAT,LON",
                "The current there, as the router has it: tidal streams near, else the ocean forecasts on board.",
                example: "48.69,-123.25"),
            .option(
                "file", "PATH", "A harmonics file (.tcd) or a folder of them, searched first.", example: "my.tcd",
                repeats: true),
            .option("config", "FILE", "The gateway's configuration, for its tides folder.", example: "telltale.toml"),
            .flag("json", "Print JSON instead of text."),
        ],
        arguments: [
            ArgumentSpec("STATION", "The station, by name or a part of it.", example: "Honolulu", optional: true)
        ])

    public mutating func set(_ flag: String, _ value: String?) throws(CommandError) {
        switch flag {
        case "from":
            guard let seconds = WeatherOptions.time(CommandParser.text(value)), abs(seconds) < 253_402_300_799 else {
                throw CommandError("--from \(value ?? ""): UNIX seconds or YYYY-MM-DDTHH:MM[:SS]Z", status: 64)
            }
            from = seconds
        case "hours":
            let hours = try CommandParser.number(flag, value)
            guard hours >= 0, hours <= 24 * 366 else { throw CommandError("--hours: from 0 to 8784", status: 64) }
            self.hours = hours
        case "step":
            let minutes = try CommandParser.number(flag, value)
            guard minutes >= 1, minutes <= 1440 else {
                throw CommandError("--step: from 1 to 1440 minutes", status: 64)
            }
            step = minutes
        case "near", "current":
            let parts = CommandParser.text(value).split(separator: ",")
            guard parts.count == 2, let latitude = Double(String(parts[0])), let longitude = Double(String(parts[1])),
                abs(latitude) <= 90, abs(longitude) <= 360
            else { throw CommandError("--\(flag) \(value ?? ""): say LAT,LON in degrees", status: 64) }
            let point = GeoPoint(latitude: latitude, longitude: longitude > 180 ? longitude - 360 : longitude)
            if flag == "near" { near = point } else { current = point }
        case "count":
            let count = try CommandParser.integer(flag, value)
            guard count >= 1, count <= 500 else { throw CommandError("--count: from 1 to 500", status: 64) }
            self.count = count
        case "file": files.append(CommandParser.text(value))
        case "config": config = CommandParser.text(value)
        case "json": json = true
        default: throw .unhandled(flag)
        }
    }

    public mutating func argument(_ word: String) throws(CommandError) {
        guard station == nil else {
            throw CommandError("tide: one station at a time (quote a name with spaces)", status: 64)
        }
        station = word
    }

    public func validate() throws(CommandError) {
        let asked = [station != nil, near != nil, current != nil].filter { $0 }.count
        if asked == 0 { throw CommandError("tide: say a STATION, --near LAT,LON or --current LAT,LON", status: 64) }
        if asked > 1 { throw CommandError("tide: one of a STATION, --near and --current", status: 64) }
        if hours * 60 / step > 200_000 { throw CommandError("tide: over 200,000 points: a longer --step", status: 64) }
    }

    public static func == (a: TideOptions, b: TideOptions) -> Bool {
        a.station == b.station && a.from == b.from && a.hours == b.hours && a.step == b.step && a.near == b.near
            && a.current == b.current
            && a.count == b.count && a.files == b.files && a.config == b.config && a.json == b.json
    }
}
