import Marine
import NMEA
import Platform
import SignalK

/// `telltale weather import` and `telltale weather show`.
public enum WeatherCommand {
    /// What the command prints.
    public static func run(_ options: WeatherOptions, now: Double = POSIX.unixTime()) throws(CommandError) -> String {
        switch options.action {
        case .import?: return try importFiles(options)
        case .show?: return try show(options, now: now)
        case nil: return ""
        }
    }

    /// The grid file a GRIB file becomes in `folder`.
    public static func gridPath(for grib: String, in folder: String) -> String {
        folder + "/" + POSIX.baseName(grib) + WeatherLibrary.gridExtension
    }

    static func folder(_ options: WeatherOptions) throws(CommandError) -> String {
        if let into = options.into { return into }
        guard let path = options.config else { throw CommandError("weather: say --into DIR or --config FILE") }
        let configuration: GatewayConfiguration
        do { configuration = try ConfigurationFile.load(path: path) } catch {
            throw CommandError("weather: \(path): \(error)", status: 78)
        }
        guard let folder = configuration.weather.folder(stateFile: configuration.stateFile) else {
            throw CommandError("weather: \(path) has no state_file nor [weather] folder", status: 78)
        }
        return folder
    }

    static func importFiles(_ options: WeatherOptions) throws(CommandError) -> String {
        let folder = try folder(options)
        do { try POSIX.makeDirectories(folder) } catch { throw CommandError("weather import: \(error)", status: 73) }
        var lines: [String] = []
        for file in options.files {
            let summary = try GRIBImport.run(file, output: gridPath(for: file, in: folder), name: options.name)
            lines.append(summary.text)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func show(_ options: WeatherOptions, now: Double) throws(CommandError) -> String {
        var grids: [ForecastGrid] = []
        for path in options.files {
            do throws(WeatherLibrary.LoadError) { grids.append(try WeatherLibrary.open(path)) } catch {
                throw CommandError("weather show: \(path): \(error)", status: 65)
            }
        }
        let forecast = Forecast(grids: grids)
        let time = options.time ?? now
        var samples: [ForecastSample] = []
        if let point = options.at {
            if let hours = options.hours {
                for t in forecast.times(at: point, from: time, hours: hours) {
                    if let sample = forecast.sample(at: point, time: t) { samples.append(sample) }
                }
            } else if let sample = forecast.sample(at: point, time: time) {
                samples.append(sample)
            }
        }
        if options.json { return json(forecast, samples: samples, at: options.at, time: time) + "\n" }
        var lines: [String] = []
        for (index, grid) in grids.enumerated() {
            lines.append(
                "\(grid.label): run \(SignalKTime.text(unixTime: grid.runTime)), \(grid.times.count) times to "
                    + "\(SignalKTime.text(unixTime: grid.times[grid.times.count - 1])), "
                    + "\(FixedDecimal.text(grid.south, decimals: 2))..\(FixedDecimal.text(grid.north, decimals: 2)) N "
                    + "\(FixedDecimal.text(grid.west, decimals: 2))..\(FixedDecimal.text(grid.east, decimals: 2)) E: "
                    + forecast.use(of: index, at: options.at, time: time).words)
        }
        for sample in samples { lines.append(WeatherLibrary.words(sample)) }
        if options.at != nil && samples.isEmpty { lines.append("no forecast covers that place and time") }
        return lines.joined(separator: "\n") + "\n"
    }

    static func json(_ forecast: Forecast, samples: [ForecastSample], at point: GeoPoint?, time: Double) -> String {
        var out = JSONWriter()
        out.beginObject()
        out.beginArray("grids")
        for (index, grid) in forecast.grids.enumerated() {
            out.beginObject()
            out.value("label", grid.label)
            out.value("run", grid.runTime)
            out.value("times", grid.times.count)
            out.value("from", grid.times[0])
            out.value("to", grid.times[grid.times.count - 1])
            out.value("south", grid.south)
            out.value("west", grid.west)
            out.value("north", grid.north)
            out.value("east", grid.east)
            out.beginArray("fields")
            for field in grid.fields { out.value(nil, field.name) }
            out.endArray()
            out.value("use", forecast.use(of: index, at: point, time: time).words)
            out.endObject()
        }
        out.endArray()
        out.beginArray("samples")
        for sample in samples { sample.write(nil, to: &out) }
        out.endArray()
        out.endObject()
        return out.text
    }
}
