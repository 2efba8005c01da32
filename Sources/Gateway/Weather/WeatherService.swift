import CPosix
import Marine
import Platform
import SignalK

/// The forecasts on board, inside `telltale run`: the GRIB files of `[weather] grib` (a file or a folder) and those
/// uploaded from the panel are imported as they come and whenever they change, each by `telltale weather import` in
/// a short process of its own (ecCodes and its tables never enter the gateway, and a GRIB that crashes ecCodes ends
/// only that process); the grid files of the weather folder are mapped and handed to the engine and the Signal K
/// server whenever one comes, changes or goes.
///
/// One import at a time, looked for every ``WeatherConfiguration/interval`` seconds on the loop; no thread.
final class WeatherService: Service {
    let name = "weather"
    let folder: String
    let grib: String?
    let interval: Double
    private let log: Log
    /// The forecasts changed since they were last emitted (for the router and the web server).
    private var changed = false
    private var next = 0.0
    /// The import running: its process, the GRIB file, when it started.
    private var child: (pid: Int32, file: String, started: Double)?
    /// The GRIB files as last imported (or refused): an unchanged file is not imported again.
    private var imported: [String: POSIX.FileStamp] = [:]
    /// The grid files as last mapped, and those that could not be (said once per change).
    private var grids: [String: POSIX.FileStamp] = [:]
    private(set) var forecast = Forecast()
    /// Seconds an import may take before it is ended.
    static let importLimit = 300.0

    init(configuration: WeatherConfiguration, folder: String, log: Log) {
        self.folder = folder
        grib = configuration.grib
        interval = configuration.interval
        self.log = log
    }

    /// Where the panel's uploads wait for their import.
    var incoming: String { folder + "/incoming" }

    func start(_ turn: inout Turn) {
        do throws(POSIX.Failure) { try POSIX.makeDirectories(incoming) } catch {
            log.warning("weather.folder", "weather: \(error); no forecast can be imported", [("path", folder)])
        }
        look(at: turn.now)
        emit(&turn)
    }

    func nextDue(now: Double) -> Double? { next }

    func service(_ turn: inout Turn) {
        guard turn.now >= next else { return }
        look(at: turn.now)
        emit(&turn)
    }

    /// The forecasts, when they changed, for the router and the web server.
    private func emit(_ turn: inout Turn) {
        guard changed else { return }
        changed = false
        turn.emit(.forecast(forecast))
    }

    func stop(deadline: Double) {
        // An import still running finishes on its own: it writes its grid atomically.
        child = nil
    }

    /// One look: the import running, the GRIB files to import, the grid files to map.
    func look(at now: Double) {
        next = now + (child == nil ? interval : 0.5)
        if let running = child {
            if let status = POSIX.reap(running.pid) {
                finished(running.file, status: status)
                child = nil
            } else if now - running.started > Self.importLimit {
                POSIX.kill(running.pid)
                log.warning(
                    "weather.import-slow", "weather: the import of \(running.file) took over 5 minutes; ended",
                    [("path", running.file)])
                return
            } else {
                return
            }
        }
        for file in gribFiles() {
            guard let stamp = POSIX.stamp(file), imported[file] != stamp else { continue }
            // Written a moment ago: the upload or the copy may not be whole yet.
            if Double(stamp.seconds) > POSIX.unixTime() - 2 { continue }
            imported[file] = stamp
            begin(file, at: now)
            break
        }
        mapGrids()
    }

    /// The GRIB files to keep imported: the configured file, or the files of the configured folder, and the uploads.
    func gribFiles() -> [String] {
        var files: [String] = []
        if let grib {
            if POSIX.isDirectory(grib) {
                files += POSIX.list(grib).filter(Self.isGRIBName).sorted().map { grib + "/" + $0 }
            } else if POSIX.exists(grib) {
                files.append(grib)
            }
        }
        files += POSIX.list(incoming).filter { !$0.hasPrefix(".") }.sorted().map { incoming + "/" + $0 }
        return files
    }

    /// A name a GRIB file has (Saildocs sends `.grb`, NOAA `.grib2`, others `.grb2`, `.grib`, `.bin`).
    static func isGRIBName(_ name: String) -> Bool {
        guard !name.hasPrefix(".") else { return false }
        let lower = name.lowercased()
        return [".grb", ".grib", ".grb2", ".grib2", ".grb1", ".grib1", ".bin"].contains { lower.hasSuffix($0) }
    }

    private func begin(_ file: String, at now: Double) {
        guard let program = POSIX.executablePath() else {
            log.error("weather.import", "weather: cannot find this program to import \(file)", [("path", file)])
            return
        }
        let arguments = [program, "weather", "import", file, "--into", folder]
        switch POSIX.spawn(arguments, log: folder + "/.import.log") {
        case .success(let pid):
            child = (pid, file, now)
            next = now + 0.5
            log.info("weather.import", "weather: importing \(file)", [("path", file)])
        case .failure(let failure):
            log.error("weather.import", "weather: cannot import \(file): \(failure)", [("path", file)])
        }
    }

    /// An import ended: what it said goes into the log.
    private func finished(_ file: String, status: Int32) {
        let said = (try? POSIX.readFile(folder + "/.import.log", limit: 16_384)).map {
            String(decoding: $0, as: UTF8.self)
        }
        // ecCodes says what it could not read on standard error too: the import's own words are the rest.
        let text = (said ?? "").split(separator: "\n").map { String($0) }.filter { !$0.hasPrefix("ECCODES") }
            .joined(separator: "; ")
        if status == 0 {
            log.notice("weather.imported", "weather: " + text, [("path", file)])
        } else if status > 128 {
            log.error(
                "weather.import-failed",
                "weather: the import of \(file) was killed by signal \(status - 128) (a GRIB ecCodes cannot read?)",
                [("path", file)])
        } else {
            log.warning(
                "weather.import-failed", "weather: " + (text.isEmpty ? "\(file): not imported" : text), [("path", file)]
            )
        }
    }

    /// What each forecast is to the boat at `point` at `time` (UNIX seconds): said in the log when it changes (a
    /// forecast that has run out, or does not reach where the boat now is, is said so and not used).
    func judge(at point: GeoPoint?, time: Double) {
        var uses: [String] = []
        for index in forecast.grids.indices {
            uses.append(forecast.use(of: index, at: point, time: time).words)
        }
        guard uses != lastUses else { return }
        for (index, use) in uses.enumerated() where index >= lastUses.count || lastUses[index] != use {
            let label = forecast.grids[index].label
            log.notice("weather.use", "weather: \(label): \(use)", [("forecast", label)])
        }
        lastUses = uses
    }

    private var lastUses: [String] = []

    /// Maps the weather folder's grids again when one came, changed or went, and hands them over.
    func mapGrids() {
        var stamps: [String: POSIX.FileStamp] = [:]
        for name in WeatherLibrary.gridFiles(in: folder) {
            let path = folder + "/" + name
            if let stamp = POSIX.stamp(path) { stamps[path] = stamp }
        }
        guard stamps != grids else { return }
        grids = stamps
        var loaded: [ForecastGrid] = []
        for path in stamps.keys.sorted() {
            do throws(WeatherLibrary.LoadError) {
                loaded.append(try WeatherLibrary.open(path))
            } catch {
                log.warning("weather.unreadable", "weather: \(path): \(error); not used", [("path", path)])
            }
        }
        forecast = Forecast(grids: loaded)
        lastUses = []
        let names = loaded.map { "\($0.label) to \(SignalKTime.text(unixTime: $0.times[$0.times.count - 1]))" }
        // Said each time, however soon after the last: what the boat has on board is never held back.
        log(
            LogEvent(
                .notice, "weather.forecasts",
                "weather: \(loaded.count) forecast\(loaded.count == 1 ? "" : "s") on board"
                    + (names.isEmpty ? "" : ": " + names.joined(separator: ", ")), [("path", folder)], throttled: false)
        )
        changed = true
    }
}
