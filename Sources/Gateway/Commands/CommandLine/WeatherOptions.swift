import Marine
import NMEA
import SignalK

/// What `telltale weather import GRIB...` and `telltale weather show GRID...` are told.
public struct WeatherOptions: CommandOptions {
    public enum Action: String, Sendable {
        case `import`, show
    }

    public var action: Action?
    public var files: [String] = []
    /// The folder the grids go into (import), nil for the configuration's.
    public var into: String?
    public var config: String?
    /// The label of the grid made (import), nil for the GRIB file's name.
    public var name: String?
    /// Where and when to show the forecast (show).
    public var at: GeoPoint?
    /// UNIX seconds, nil for now.
    public var time: Double?
    /// Hours of the forecast from `time` to show, at each of the grids' times.
    public var hours: Double?
    public var json = false

    public init() {}

    public static let spec = CommandSpec(
        "weather", abstract: "Import GRIB forecasts for the gateway, or show what a forecast says.",
        discussion: """
            import: reads each GRIB file (edition 1 or 2: Saildocs, NOAA, ECMWF, a phone's weather app) with ecCodes \
            and writes the compact grid the gateway maps (10 m wind, gust, pressure, precipitation, cloud) into \
            --into, or the weather folder beside the state file of --config ([weather] in docs/weather.md); a running \
            gateway takes it within seconds. show: for each grid file, its run, times and area; with --at, the \
            forecast there at --time (or now), or every forecast time for --hours from it, and which grid says so.
            """,
        flags: [
            .option("into", "DIR", "The folder the grids go into.", example: "/var/lib/telltale/weather"),
            .option("config", "FILE", "The gateway's configuration, for its weather folder.", example: "telltale.toml"),
            .option("name", "NAME", "What the grid is called (the GRIB file's name by default).", example: "saildocs"),
            .option(
                "at", "LAT,LON", "Show the forecast at this place (degrees, north and east positive).",
                example: "50.7,-1.3"),
            .option(
                "time", "TIME", "When: UNIX seconds or 2026-11-25T18:00:00Z; now by default.",
                example: "1764093600"),
            .option("hours", "HOURS", "Show every forecast time for this many hours from --time.", example: "48"),
            .flag("json", "Print JSON instead of text."),
        ],
        arguments: [
            ArgumentSpec("import|show", "What to do.", example: "show"),
            ArgumentSpec("FILE", "GRIB files to import, or grid files to show.", example: "gfs.grb", repeats: true),
        ])

    public mutating func set(_ flag: String, _ value: String?) throws(CommandError) {
        switch flag {
        case "into": into = CommandParser.text(value)
        case "config": config = CommandParser.text(value)
        case "name": name = CommandParser.text(value)
        case "at":
            let parts = CommandParser.text(value).split(separator: ",")
            guard parts.count == 2, let latitude = Double(String(parts[0])), let longitude = Double(String(parts[1])),
                abs(latitude) <= 90, abs(longitude) <= 360
            else { throw CommandError("--at \(value ?? ""): say LAT,LON in degrees", status: 64) }
            at = GeoPoint(latitude: latitude, longitude: longitude)
        case "time":
            guard let seconds = Self.time(CommandParser.text(value)) else {
                throw CommandError("--time \(value ?? ""): UNIX seconds or YYYY-MM-DDTHH:MM[:SS]Z", status: 64)
            }
            time = seconds
        case "hours":
            let hours = try CommandParser.number(flag, value)
            guard hours > 0, hours <= 24 * 16 else { throw CommandError("--hours: from 0 to 384", status: 64) }
            self.hours = hours
        case "json": json = true
        default: throw .unhandled(flag)
        }
    }

    public mutating func argument(_ word: String) throws(CommandError) {
        guard action != nil else {
            guard let action = Action(rawValue: word) else {
                throw CommandError("weather: say import GRIB... or show GRID...", status: 64)
            }
            self.action = action
            return
        }
        files.append(word)
    }

    public func validate() throws(CommandError) {
        guard let action else { throw CommandError("weather: say import GRIB... or show GRID...", status: 64) }
        if files.isEmpty { throw CommandError("weather \(action.rawValue): which files?", status: 64) }
        if action == .import && into == nil && config == nil {
            throw CommandError("weather import: say where, --into DIR or --config FILE", status: 64)
        }
    }

    /// UNIX seconds, or an ISO 8601 UTC time (`2026-11-25T18:00Z`, `2026-11-25T18:00:00Z`).
    static func time(_ text: String) -> Double? {
        if let seconds = Double(text), seconds.isFinite { return seconds }
        return SignalKTime.unixTime(text)
    }

    public static func == (a: WeatherOptions, b: WeatherOptions) -> Bool {
        a.action == b.action && a.files == b.files && a.into == b.into && a.config == b.config && a.name == b.name
            && a.at == b.at && a.time == b.time && a.hours == b.hours && a.json == b.json
    }
}
