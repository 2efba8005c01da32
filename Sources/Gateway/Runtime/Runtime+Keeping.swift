import Engine
import Marine
import Platform
import Router

/// What the runtime keeps across its starts: the IMU's calibration, the engine as configured (its race timer and
/// start line), the anchor watch, the route file (watched for changes).
extension Runtime {
    /// The configuration with what `telltale calibrate level` learnt applied, for the IMU it was made with.
    static func calibrated(_ configuration: GatewayConfiguration, log: Log) -> GatewayConfiguration {
        var configuration = configuration
        guard let path = configuration.stateFile, configuration.imu != nil else { return configuration }
        do {
            if let message = try StateFile.load(path).apply(to: &configuration) {
                log.info("state.loaded", message, [("path", path)])
            }
        } catch {
            log.warning("state.unreadable", "state: \(error); the IMU runs uncalibrated", [("path", path)])
        }
        return configuration
    }

    /// The engine as configured: its race timer, and the start line from its file when there is one.
    static func engine(_ configuration: GatewayConfiguration, log: Log) -> Engine {
        var engine = Engine(configuration: configuration.engine)
        if let problem = configuration.polarUnreadable {
            let instead =
                configuration.engine.polar == nil ? "no polar targets nor performance" : "the learnt polar's targets"
            log.warning("polar.unreadable", "configuration \(problem); \(instead)")
        }
        engine.raceTimer = RaceTimer(
            sequenceMinutes: configuration.race.sequenceMinutes, announceSeconds: configuration.race.announceSeconds)
        if let path = configuration.race.line {
            do throws(CommandError) {
                engine.startLine = try StartLineFile.load(path)
                log.info("race.line", "race: the start line from \(path)", [("path", path)])
            } catch {
                log.warning("race.line", "\(error); ping the ends instead", [("path", path)])
            }
        }
        return engine
    }

    /// The anchor watch as it was before the gateway stopped (a restart, a power cut), set again; the log says what
    /// was found.
    func restoreAnchor() {
        guard let file = anchor.file else { return }
        do throws(ConfigurationFile.Error) {
            guard let set = try file.load() else { return }
            anchor.saved = set
            let outcome = router.command(.anchor(.restore(set)), at: 0)
            log.notice("anchor.restored", "anchor: \(outcome.message)", [("path", file.path)])
        } catch {
            log.error(
                "anchor.unreadable", "anchor: \(error); the anchor watch is OFF until the anchor is dropped again",
                [("path", file.path)])
        }
    }

    /// Saves the anchor watch when it changed (dropped, moved, a new circle, raised).
    func keepAnchor(_ set: AnchorSet?) {
        guard let file = anchor.file, set != anchor.saved else { return }
        anchor.saved = set
        do throws(POSIX.Failure) {
            try file.save(set)
        } catch {
            log.error(
                "anchor.unsaved", "anchor: \(error); the watch is not kept across a restart", [("path", file.path)])
        }
    }

    /// The configured route, loaded and followed; watched for changes from then on.
    func loadRoute() {
        guard let path = configuration.route else { return }
        var file = RouteFile(path: path)
        do {
            let route = try file.load()
            router.follow(route)
            library.resources.configured = route
            log.notice(
                "route.loaded", "route: following \(route.name ?? path) (\(route.waypoints.count) waypoints)",
                [("path", path)])
        } catch {
            log.error("route.unreadable", "route: \(error)", [("path", path)])
        }
        routeFile = file
    }

    /// The route file again, when it changed on disk; a file that does not parse leaves the route as it was.
    func reloadRoute() {
        guard var file = routeFile else { return }
        do {
            if let route = try file.reloadIfChanged() {
                let leg = router.replaceRoute(with: route)
                library.resources.configured = route
                log.notice(
                    "route.reloaded", "route: reloaded \(file.path), leg \(leg + 1) of \(route.legCount)",
                    [("path", file.path)])
            }
        } catch {
            log.warning("route.unreadable", "route: \(error); keeping the previous route", [("path", file.path)])
        }
        routeFile = file
    }
}
