import Marine

/// What `telltale route plan` is told: the passage, the forecast and the polar, and the crew's limits.
public struct RoutePlanOptions: CommandOptions {
    public var from: GeoPoint?
    public var to: GeoPoint?
    /// UNIX seconds; nil for now.
    public var depart: Double?
    public var gribs: [String] = []
    public var polar: String?
    public var gpx: String?
    /// Where the times and waypoints alone are written too (the gateway reads them, not the whole plan).
    public var waypoints: String?
    /// The polar learnt from the boat's own sailing (`calibrate sailing --polar`), over `polar` where it has data.
    public var learntPolar: String?
    public var json = false
    public var basemap: String?
    /// Metres kept from every coast.
    public var margin = 200.0
    public var settings = RouteSettings()
    /// Hours of departures to try, one every `every` hours (the departure window); nil for one departure.
    public var window: Double?
    public var every = 3.0
    /// Tidal streams from the harmonics files (Debian's xtide-data and the sailor's own) where they are near.
    public var tides = true
    public var tideFiles: [String] = []
    /// Regions to avoid: GeoJSON or Signal K region resources (polygons), closed to the route as land.
    public var avoid: [String] = []

    public init() {}

    public static let spec = CommandSpec(
        "route plan", abstract: "Find the fastest route through the forecast (weather routing), offline.",
        discussion: """
            Isochrones from --from to --to departing at --depart, through the wind of the GRIB files (or grids \
            imported by `telltale weather import`), the tidal streams near the route and the ocean currents of the \
            GRIBs, around the land of the base map (GSHHG at full resolution, with --margin metres kept from every \
            coast), at the polar's speed times --performance. Waypoints are the start, each tack, gybe or turn, and \
            the destination. --window HOURS tries a departure every --every hours over that window instead. Wind \
            limits in knots. See docs/routing.md.
            """,
        flags: [
            .option("from", "LAT,LON", "The start.", example: "47.29,-2.52"),
            .option("to", "LAT,LON", "The destination.", example: "47.33,-3.16"),
            .option(
                "depart", "TIME", "Departure: UNIX seconds or 2026-08-15T06:00Z; now by default.",
                example: "2026-08-15T06:00Z"),
            .option("grib", "FILE", "A GRIB file (or an imported .ttwx grid).", example: "gfs.grb2", repeats: true),
            .option("polar", "FILE", "The boat's polar (a table or Expedition's layout).", example: "polar.csv"),
            .option("gpx", "FILE", "Write the route as GPX there too.", example: "route.gpx"),
            .option(
                "waypoints", "FILE", "Write the times and waypoints alone there too (JSON).", example: "route.json"),
            .option(
                "learnt-polar", "FILE",
                "The polar learnt from sailing (`telltale calibrate sailing --polar`): the boat's own speeds where it has them.",
                example: "learnt-polar.csv"),
            .flag("json", "Print JSON instead of text."),
            .option("basemap", "FOLDER", "The base map's folder (`telltale basemap`).", example: ".build/basemap"),
            .option("margin", "METRES", "Kept from every coast (200 by default).", example: "300"),
            .option("performance", "PERCENT", "The polar's share the boat makes (100 by default).", example: "95"),
            .option("step", "MINUTES", "Minutes between isochrones (30 by default).", example: "20"),
            .option("max-wind", "KNOTS", "No sailing in a stronger true wind.", example: "30"),
            .option("no-run-above", "KNOTS", "No running (TWA past 160°) in a stronger true wind.", example: "22"),
            .option("motor-below", "KNOTS", "Motor where sailing would be slower than this.", example: "3"),
            .option("motor-speed", "KNOTS", "The speed under engine (5 by default).", example: "5.5"),
            .option("tack", "SECONDS", "Time a tack costs (90 by default).", example: "120"),
            .option("gybe", "SECONDS", "Time a gybe costs (60 by default).", example: "90"),
            .option("window", "HOURS", "Try a departure every --every hours over this many hours.", example: "48"),
            .option("every", "HOURS", "Hours between the departures of --window (3 by default).", example: "6"),
            .flag("no-tides", "Leave the tidal streams out."),
            .option("tide-file", "PATH", "A harmonics file (.tcd), searched first.", example: "my.tcd", repeats: true),
            .option(
                "avoid", "FILE", "Regions to avoid: GeoJSON or Signal K region resources (polygons).",
                example: "regions.json", repeats: true),
        ])

    public mutating func set(_ flag: String, _ value: String?) throws(CommandError) {
        switch flag {
        case "from", "to":
            let parts = CommandParser.text(value).split(separator: ",")
            guard parts.count == 2, let latitude = Double(String(parts[0])), let longitude = Double(String(parts[1])),
                abs(latitude) <= 85, abs(longitude) <= 360
            else { throw CommandError("--\(flag) \(value ?? ""): say LAT,LON in degrees", status: 64) }
            let point = GeoPoint(latitude: latitude, longitude: longitude > 180 ? longitude - 360 : longitude)
            if flag == "from" { from = point } else { to = point }
        case "depart":
            guard let seconds = WeatherOptions.time(CommandParser.text(value)), abs(seconds) < 253_402_300_799 else {
                throw CommandError("--depart \(value ?? ""): UNIX seconds or YYYY-MM-DDTHH:MM[:SS]Z", status: 64)
            }
            depart = seconds
        case "grib": gribs.append(CommandParser.text(value))
        case "polar": polar = CommandParser.text(value)
        case "gpx": gpx = CommandParser.text(value)
        case "waypoints": waypoints = CommandParser.text(value)
        case "learnt-polar": learntPolar = CommandParser.text(value)
        case "json": json = true
        case "basemap": basemap = CommandParser.text(value)
        case "no-tides": tides = false
        case "tide-file": tideFiles.append(CommandParser.text(value))
        case "avoid": avoid.append(CommandParser.text(value))
        default: try setNumber(flag, CommandParser.number(flag, value))
        }
    }

    mutating func setNumber(_ flag: String, _ number: Double) throws(CommandError) {
        func within(_ range: ClosedRange<Double>) throws(CommandError) -> Double {
            guard range.contains(number) else {
                throw CommandError("--\(flag): from \(range.lowerBound) to \(range.upperBound)", status: 64)
            }
            return number
        }
        let knots = Units.metresPerSecond(knots: 1)
        switch flag {
        case "margin": margin = try within(0...5000)
        case "performance": settings.performance = try within(10...150) / 100
        case "step": settings.step = try within(5...360) * 60
        case "max-wind": settings.maximumWind = try within(1...100) * knots
        case "no-run-above": settings.noRunAbove = try within(1...100) * knots
        case "motor-below": settings.motorBelow = try within(0.1...20)
        case "motor-speed": settings.motorSpeed = try within(0.5...30)
        case "tack": settings.tackPenalty = try within(0...3600)
        case "gybe": settings.gybePenalty = try within(0...3600)
        case "window": window = try within(0...(16 * 24))
        case "every": every = try within(0.25...48)
        default: throw .unhandled(flag)
        }
    }

    public func validate() throws(CommandError) {
        guard from != nil, to != nil else {
            throw CommandError("route plan: say --from LAT,LON and --to LAT,LON", status: 64)
        }
        guard !gribs.isEmpty else { throw CommandError("route plan: say --grib FILE (the forecast)", status: 64) }
        guard polar != nil else { throw CommandError("route plan: say --polar FILE (the boat's speeds)", status: 64) }
        if let window, window / every > 64 {
            throw CommandError("route plan: over 64 departures: a longer --every", status: 64)
        }
    }

    public static func == (a: RoutePlanOptions, b: RoutePlanOptions) -> Bool {
        a.from == b.from && a.to == b.to && a.depart == b.depart && a.gribs == b.gribs && a.polar == b.polar
            && a.gpx == b.gpx && a.waypoints == b.waypoints && a.learntPolar == b.learntPolar && a.json == b.json
            && a.basemap == b.basemap && a.margin == b.margin
            && a.settings == b.settings && a.window == b.window && a.every == b.every && a.tides == b.tides
            && a.tideFiles == b.tideFiles && a.avoid == b.avoid
    }
}
