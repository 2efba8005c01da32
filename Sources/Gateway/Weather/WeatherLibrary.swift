import Marine
import Platform
import SignalK

/// Forecast grid files as the gateway and `telltale weather show` open them: mapped read-only, so a forecast of
/// megabytes costs the gateway the few pages an interpolation touches; checked whole before the first value is read.
public enum WeatherLibrary {
    /// What `telltale weather import` names its grids: `gfs.grb` becomes `gfs.grb.ttwx`.
    public static let gridExtension = ".ttwx"
    /// The largest grid mapped (a five-day, 0.25° forecast of 1,000 NM square is about 3 MB).
    static let sizeLimit = 256 << 20

    public enum LoadError: Error, CustomStringConvertible {
        case file(POSIX.Failure)
        case format(ForecastGrid.FormatError)

        public var description: String {
            switch self {
            case .file(let failure): "\(failure)"
            case .format(let error): "\(error)"
            }
        }
    }

    /// The grid file at `path`, mapped and checked.
    public static func open(_ path: String) throws(LoadError) -> ForecastGrid {
        let bytes: UnsafeRawBufferPointer
        do { bytes = try POSIX.map(path, limit: sizeLimit) } catch { throw .file(error) }
        do {
            return try ForecastGrid(GridBytes(bytes: bytes) { POSIX.unmap($0) })
        } catch {
            throw .format(error)
        }
    }

    /// The grid files of a folder, by name.
    public static func gridFiles(in folder: String) -> [String] {
        POSIX.list(folder).filter { $0.hasSuffix(gridExtension) && !$0.hasPrefix(".") }.sorted()
    }

    /// One line: the time, wind, gust, pressure, rain and cloud.
    public static func words(_ sample: ForecastSample) -> String {
        var parts = [SignalKTime.text(unixTime: sample.time)]
        if let speed = sample.windSpeed, let direction = sample.windDirection {
            parts.append(
                "wind \(FixedDecimal.text(direction, decimals: 0))° \(FixedDecimal.text(Units.knots(metresPerSecond: speed), decimals: 1)) kn"
            )
        }
        if let gust = sample.gust {
            parts.append("gust \(FixedDecimal.text(Units.knots(metresPerSecond: gust), decimals: 1)) kn")
        }
        if let pressure = sample.pressure { parts.append("\(FixedDecimal.text(pressure / 100, decimals: 1)) hPa") }
        if let rain = sample.precipitation { parts.append("rain \(FixedDecimal.text(rain, decimals: 1)) mm/h") }
        if let cloud = sample.cloud { parts.append("cloud \(FixedDecimal.text(cloud, decimals: 0)) %") }
        parts.append("(run \(SignalKTime.text(unixTime: sample.runTime)))")
        return parts.joined(separator: ", ")
    }
}
