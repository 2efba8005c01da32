import Marine
import Platform
import SignalK

/// `telltale route plan`: the fastest route through the forecast (Marine's ``IsochroneRouter``), from files on this
/// machine: the GRIBs (imported here through ecCodes, or grids already imported), the polar, the base map's land,
/// the tidal streams of the harmonics files. Also what the gateway runs as a child process to route on board.
public enum RoutePlanCommand {
    public static func run(_ options: RoutePlanOptions, now: Double = POSIX.unixTime()) throws(CommandError) -> String {
        guard let from = options.from, let to = options.to, let polarPath = options.polar else {
            throw CommandError("route plan: say --from, --to and --polar", status: 64)
        }
        var polar = try PolarFile.load(polarPath)
        if let learnt = options.learntPolar { polar = polar.learnt(try PolarFile.load(learnt)) }
        let forecast = try forecast(options.gribs)
        let area = RouteArea(from: from, to: to)
        let land = try RouteLand.mask(for: area, from: from, to: to, options: options)
        let currents = options.tides ? currentField(area, files: options.tideFiles, forecast: forecast) : nil
        var router = IsochroneRouter(
            polar: polar, settings: options.settings, land: land,
            weather: ForecastWeather(forecast: forecast, currents: currents))
        let departure = options.depart ?? now
        if let window = options.window {
            let table = RouteWindow.table(
                router: &router, from: from, to: to, first: departure, hours: window, every: options.every)
            return options.json ? RouteWindow.json(table) + "\n" : RouteWindow.text(table)
        }
        let plan: RoutePlan
        do { plan = try router.plan(from: from, to: to, departure: departure) } catch {
            throw CommandError("route plan: " + RoutePlanText.words(error), status: 65)
        }
        if let path = options.gpx {
            do { try POSIX.writeFileAtomically(path, Array(RoutePlanText.gpx(plan).utf8)) } catch {
                throw CommandError("route plan: \(error)", status: 73)
            }
        }
        if let path = options.waypoints {
            do { try POSIX.writeFileAtomically(path, Array(RoutePlanText.json(plan, full: false).utf8)) } catch {
                throw CommandError("route plan: \(error)", status: 73)
            }
        }
        return options.json ? RoutePlanText.json(plan) + "\n" : RoutePlanText.text(plan)
    }

    /// The forecast of `paths`: grids as they are, GRIBs imported into a grid first (a temporary file, gone once
    /// mapped).
    static func forecast(_ paths: [String]) throws(CommandError) -> Forecast {
        var grids: [ForecastGrid] = []
        for (index, path) in paths.enumerated() {
            var grid = path
            if !path.hasSuffix(WeatherLibrary.gridExtension) {
                let folder = POSIX.environment("TMPDIR").flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
                grid = folder + "/telltale-route-\(POSIX.processID)-\(index)" + WeatherLibrary.gridExtension
                _ = try GRIBImport.run(path, output: grid)
            }
            defer { if grid != path { _ = POSIX.remove(grid) } }
            do throws(WeatherLibrary.LoadError) { grids.append(try WeatherLibrary.open(grid)) } catch {
                throw CommandError("route plan: \(path): \(error)", status: 65)
            }
        }
        return Forecast(grids: grids)
    }

    /// The tidal streams of the current stations in and near the area (5 NM round each), with the ocean forecast.
    static func currentField(_ area: RouteArea, files: [String], forecast: Forecast) -> CurrentField? {
        let sources = TideLibrary.open(TideLibrary.paths(named: files))
        guard !sources.isEmpty else { return nil }
        let stations = TideLibrary.currentStations(
            in: sources, south: area.south, west: area.west, north: area.north,
            east: area.east > 180 ? area.east - 360 : area.east, limit: 2000)
        return CurrentField(stations: stations, radius: 5 * 1852, forecast: forecast)
    }
}

/// The area a passage is searched in: the start and the destination with room round them (a fifth of the passage
/// each side, at least 0.3°), longitudes eastward from its west edge.
struct RouteArea {
    var south: Double
    var west: Double
    var north: Double
    var east: Double

    init(from: GeoPoint, to: GeoPoint) {
        let delta = Angle.relative(to.longitude - from.longitude)
        let western = delta >= 0 ? from.longitude : to.longitude
        let room = max(0.3, max(abs(delta), abs(to.latitude - from.latitude)) / 5)
        south = max(-85, min(from.latitude, to.latitude) - room)
        north = min(85, max(from.latitude, to.latitude) + room)
        let wider = room / max(cos(Angle.radians(max(abs(south), abs(north)))), 0.1)
        west = western - wider
        east = western + abs(delta) + wider
    }
}
