import Marine
import Platform
import SignalK

/// `telltale tide --current LAT,LON`: the current the router sails through there, hour by hour.
extension TideCommand {
    static func current(
        _ point: GeoPoint, sources: [TideLibrary.Source], options: TideOptions, from: Double
    ) throws(CommandError) -> String {
        var configuration = GatewayConfiguration()
        if let path = options.config {
            do { configuration = try ConfigurationFile.load(path: path) } catch {
                throw CommandError("tide: \(path): \(error)", status: 78)
            }
        }
        let radius = configuration.tides.currentRadius
        let degrees = radius / 111_320 + 0.01
        let stretch = degrees / max(cos(point.latitude * Double.pi / 180), 0.05)
        let stations = TideLibrary.currentStations(
            in: sources, south: point.latitude - degrees, west: point.longitude - stretch,
            north: point.latitude + degrees, east: point.longitude + stretch)
        var grids: [ForecastGrid] = []
        if let folder = configuration.weather.folder(stateFile: configuration.stateFile) {
            for name in WeatherLibrary.gridFiles(in: folder) {
                if let grid = try? WeatherLibrary.open(folder + "/" + name) { grids.append(grid) }
            }
        }
        var field = CurrentField(stations: stations, radius: radius, forecast: Forecast(grids: grids))
        var out = JSONWriter()
        out.beginObject()
        out.value("latitude", point.latitude)
        out.value("longitude", point.longitude)
        out.value("radius", radius / 1852)
        out.beginArray("currents")
        var lines: [String] = []
        var time = from
        while time <= from + options.hours * 3600 + 0.5 {
            let here = field.current(at: point, time: time)
            out.beginObject()
            out.value("time", SignalKTime.text(unixTime: time))
            if let here {
                let drift = (here.east * here.east + here.north * here.north).squareRoot()
                var set = atan2(here.east, here.north) * 180 / Double.pi
                if set < 0 { set += 360 }
                out.value("east", rounded(here.east, 4))
                out.value("north", rounded(here.north, 4))
                out.value("set", rounded(set, 1))
                out.value("drift", rounded(drift * 3600 / 1852, 3))
                switch here.source {
                case .tidal(let count):
                    out.value("source", "tidal")
                    out.value("stations", count)
                case .ocean: out.value("source", "ocean")
                }
                lines.append(
                    String(SignalKTime.text(unixTime: time).prefix(16)) + "  "
                        + FixedDecimal.text(set, decimals: 0) + "° "
                        + FixedDecimal.text(drift * 3600 / 1852, decimals: 2)
                        + " kn")
            } else {
                out.null("source")
                lines.append(String(SignalKTime.text(unixTime: time).prefix(16)) + "  no current known here")
            }
            out.endObject()
            time += options.step * 60
        }
        out.endArray()
        out.endObject()
        return options.json ? out.text + "\n" : lines.joined(separator: "\n") + "\n"
    }
}
