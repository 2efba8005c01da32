import Marine
import Platform
import SignalK

/// The weather router on board: `telltale route plan` run as a child process of the gateway (this same program), so
/// that the search and its memory never touch the 10 Hz loop or the daemon's few megabytes. One plan at a time; its
/// answer (JSON) is written to a file in the routing folder, read only when the panel asks for it; of a plan the
/// gateway may follow it reads the small file of its waypoints once, when the child has ended, and hands the runtime
/// an event (``ServiceEvent/routed(_:)``).
final class RoutingService: Service {
    let name = "routing"

    /// A passage to plan, and why (the crew asked, a new forecast came, the boat fell behind).
    struct Job: Sendable {
        var from: GeoPoint
        var to: GeoPoint
        var depart: Double
        var window: Double?
        var every = 3.0
        var reason = "asked"
    }

    /// What the router is doing or last did.
    enum State {
        case idle
        case running(pid: Int32, job: Job, started: Double)
        /// A plan made (its waypoints, for one departure) or a window tried (the route nil); the answer in ``plan``.
        case planned(job: Job, route: PlannedRoute?, at: Double)
        case failed(job: Job, message: String, at: Double)
    }

    let configuration: RoutingConfiguration
    let folder: String
    /// The Resources API's regions (one file a region): avoided by every plan.
    let regions: String
    let polar: String?
    /// The polar learnt from the boat's sailing (the calibration's learner writes it), taken over `polar` where it has
    /// data when `[routing] learnt_polar` is on and the file is there.
    let learntPolar: String?
    let weatherFolder: String?
    let basemap: String?
    let tideFiles: [String]
    private let log: Log
    private(set) var state = State.idle
    /// The route kept for the last plan (its id in the Resources API), and the forecasts it was planned on.
    var routeID: String?
    var forecastUsed = ""
    /// The forecasts the plan being made was given (``forecastSignature()`` when it started).
    var forecastGiven = ""
    /// Whether the plan being made, or the last one, took the learnt polar (decided when it started).
    private(set) var learntTaken = false
    /// When the crew was last told the boat is behind the plan (said once a plan).
    var behindSaid = false

    init(
        configuration: RoutingConfiguration, stateFolder: String, polar: String?, weatherFolder: String?,
        basemap: String?, tideFiles: [String], learntPolar: String? = nil, log: Log
    ) {
        self.configuration = configuration
        folder = stateFolder + "/routing"
        regions = stateFolder + "/resources/regions"
        self.polar = polar
        self.learntPolar = configuration.learntPolar ? learntPolar : nil
        self.weatherFolder = weatherFolder
        self.basemap = basemap
        self.tideFiles = tideFiles
        self.log = log
    }

    /// The router's answer (its standard output and errors): the plan or the window as JSON, or why not.
    var plan: String { folder + "/.plan.json" }
    /// The times and waypoints of the last plan alone.
    var waypoints: String { folder + "/.route.json" }

    /// The learnt polar when the router takes it (the file there now).
    /// The learnt polar when the router takes it: the file there and a table with at least one cell (a learner that
    /// found no steady minute writes an empty one).
    var learntPolarUsed: String? {
        learntPolar.flatMap { (try? PolarFile.load($0)) == nil ? nil : $0 }
    }

    var isRunning: Bool {
        if case .running = state { return true }
        return false
    }

    /// The forecast files the router is given, as a word that changes when one comes, goes or is replaced (their
    /// names, times and sizes: the same files as the plan read, not the forecasts the weather service has loaded by
    /// then, which may come a moment after an import has written the file).
    func forecastSignature() -> String {
        guard let weatherFolder else { return "" }
        return WeatherLibrary.gridFiles(in: weatherFolder).map { name in
            let stamp = POSIX.stamp(weatherFolder + "/" + name)
            return "\(name)@\(stamp?.seconds ?? 0).\(stamp?.nanoseconds ?? 0)/\(stamp?.size ?? 0)"
        }.joined(separator: ";")
    }

    /// Why a plan cannot be made here, or nil when it can.
    var missing: String? {
        if polar == nil { return "no polar: set `polar` in the configuration" }
        if basemap == nil { return "no base map on board (telltale basemap)" }
        if weatherFolder.map({ WeatherLibrary.gridFiles(in: $0).isEmpty }) ?? true {
            return "no forecast on board: send a GRIB from the Weather layout or put one in the weather folder"
        }
        return nil
    }

    /// Starts the child for `given` (its places to a millionth of a degree, as the child is told them); the words
    /// said when it cannot.
    func start(_ given: Job, now: Double) -> String? {
        if let missing { return missing }
        var job = given
        job.from = Self.rounded(job.from)
        job.to = Self.rounded(job.to)
        guard !isRunning else { return "a plan is being made: wait for it, or stop it" }
        guard let program = POSIX.executablePath(), let polar, let weatherFolder, let basemap else {
            return "cannot find this program to route"
        }
        do { try POSIX.makeDirectories(folder) } catch { return "\(error)" }
        var arguments = [
            // The departure to the millisecond, as the plan then reports it: `telltale route plan --depart` with the
            // plan's own departure gives the same plan (a fraction of a millisecond more moved its ETA by one).
            program, "route", "plan", "--from", Self.place(job.from), "--to", Self.place(job.to), "--depart",
            SignalKTime.text(unixTime: job.depart), "--polar", polar, "--basemap", basemap, "--json",
            "--margin", String(configuration.margin), "--performance", String(configuration.performance),
            "--step", String(configuration.stepMinutes),
        ]
        for grid in WeatherLibrary.gridFiles(in: weatherFolder) { arguments += ["--grib", weatherFolder + "/" + grid] }
        forecastGiven = forecastSignature()
        for file in tideFiles { arguments += ["--tide-file", file] }
        let learnt = learntPolarUsed
        if let learnt { arguments += ["--learnt-polar", learnt] }
        _ = POSIX.remove(waypoints)
        for file in POSIX.list(regions).filter({ $0.hasSuffix(".json") && !$0.hasPrefix(".") }).sorted() {
            arguments += ["--avoid", regions + "/" + file]
        }
        if let window = job.window {
            arguments += ["--window", String(window), "--every", String(job.every)]
        } else {
            arguments += ["--waypoints", waypoints]
        }
        switch POSIX.spawn(arguments, log: plan) {
        case .success(let pid):
            state = .running(pid: pid, job: job, started: now)
            learntTaken = learnt != nil
            // Planned again under way is said under its own id: the log's limiter never holds it back behind the
            // crew's own plans.
            log.notice(
                job.reason == "asked" ? "routing.start" : "routing.again",
                "routing: planning \(Self.place(job.from)) to \(Self.place(job.to)) (\(job.reason))",
                [("reason", job.reason)])
            return nil
        case .failure(let failure):
            return "cannot start the router: \(failure)"
        }
    }

    /// Stops a plan being made.
    func stop() {
        guard case .running(let pid, let job, _) = state else { return }
        POSIX.kill(pid)
        _ = POSIX.reap(pid)
        state = .failed(job: job, message: "stopped", at: POSIX.unixTime())
    }

    func nextDue(now: Double) -> Double? { isRunning ? now + 0.25 : nil }

    func service(_ turn: inout Turn) {
        guard case .running(let pid, let job, let started) = state, let status = POSIX.reap(pid) else { return }
        let seconds = FixedDecimal.text(turn.now - started, decimals: 1)
        let route =
            job.window == nil
            ? (try? POSIX.readFile(waypoints, limit: 1 << 20)).flatMap { PlannedRoute(json: $0) } : nil
        if status == 0, job.window != nil || route != nil {
            state = .planned(job: job, route: route, at: turn.unixTime)
            behindSaid = false
            log.notice("routing.planned", "routing: planned in \(seconds) s", [("seconds", seconds)])
        } else {
            // What the router said last (its error is its last line; a failing router says little).
            let text =
                status == 0
                ? "" : (try? POSIX.readFile(plan, limit: 1 << 20)).map { String(decoding: $0, as: UTF8.self) } ?? ""
            let said =
                status == 0
                ? "the router's waypoints could not be read"
                : text.split(separator: "\n").last.map { String($0) } ?? "the router ended with \(status)"
            let message = said.hasPrefix("telltale: route plan: ") ? String(said.dropFirst(22)) : said
            state = .failed(job: job, message: message, at: turn.unixTime)
            log.warning("routing.failed", "routing: no route: \(message)", [("status", "\(status)")])
        }
        turn.emit(.routed)
    }

    func stop(deadline: Double) { stop() }

    static func rounded(_ point: GeoPoint) -> GeoPoint {
        GeoPoint(
            latitude: (point.latitude * 1e6).rounded() / 1e6, longitude: (point.longitude * 1e6).rounded() / 1e6)
    }

    static func place(_ point: GeoPoint) -> String {
        FixedDecimal.text(point.latitude, decimals: 6) + "," + FixedDecimal.text(point.longitude, decimals: 6)
    }
}
