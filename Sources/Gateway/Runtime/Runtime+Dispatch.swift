import Engine
import Marine
import NMEA
import Platform
import Router
import SignalK

/// What the loop does with what happens: an input's events and the tick into the router, the router's actions out to
/// the outputs, the Signal K server, the voice and the log, a client's command through the router and back.
extension Runtime {
    /// One event from an input, at `now` on the monotonic clock.
    func handle(_ event: InputEvent, from input: InputService.Input, at now: Double) {
        let time = engineTime(now)
        switch event {
        case .sentence(let sentence):
            recorder?.record(sentence, source: input.name, unixTime: now + unixOffset)
            router.ingest(sentence, from: input.source, at: time) { perform($0, now: now) }
        case .rejected:
            router.rejected(from: input.source)
        case .fix(let fix):
            router.ingest(fix.engineFix, motion: fix.motion, from: input.source, at: time) { perform($0, now: now) }
        case .imu(let sample, let sampleTime):
            router.ingest(
                gyroscope: sample.gyroscope, accelerometer: sample.accelerometer, magnetometer: sample.magnetometer,
                from: input.source, at: engineTime(sampleTime))
            recorder?.record(imu: sample, unixTime: sampleTime + unixOffset)
        case .button(let gesture):
            let outcome = router.command(.button(gesture), at: time)
            // One message id an outcome, so that a reset is never held back behind the starts before it.
            log.notice(
                "button." + outcome.message, "race button: \(gesture.rawValue): \(outcome.message)",
                [("command", gesture.rawValue)])
        case .restarted(let lap):
            // A looping log starts its voyage again: so does the route.
            guard router.lapStarted() else { return }
            log.info("input.lap", "input \(input.name): lap \(lap + 1), route restarted", [("input", input.name)])
        }
    }

    /// The engine's tick, at `now` on the monotonic clock.
    func tick(at now: Double) {
        router.tick(at: engineTime(now)) { perform($0, now: now) }
    }

    /// A client of output `index` came or went.
    func clientChanged(output index: Int, _ change: ClientChange, at now: Double) {
        switch change {
        case .connected: router.clientConnected(output: index) { perform($0, now: now) }
        case .gone: router.clientGone(output: index) { perform($0, now: now) }
        }
    }

    /// A crew's command (from a Signal K client or the panel), carried out through the router at `now`, logged.
    func carryOut(_ command: EngineCommand, at now: Double) -> CommandOutcome {
        let outcome = router.command(command, at: engineTime(now))
        log.notice(
            "web.command", "web: \(outcome.message)" + (outcome.isDone ? "" : " (refused)"),
            [("command", "\(command)")])
        return outcome
    }

    /// Whether the web's work should stop for the inputs: a sentence waiting on one, or, with `includingDue`, an
    /// input or the tick come due.
    func shouldYield(includingDue: Bool) -> Bool {
        if includingDue {
            let due = min(engine.nextDue(now: 0) ?? .infinity, inputs.nextInputDue)
            if POSIX.monotonic() >= due { return true }
        }
        return inputs.isWaiting()
    }

    /// Carries out what the router decided.
    func perform(_ action: Router.Action, now: Double) {
        switch action {
        case .send(let index, let sentence, let computed):
            outputs.send(sentence, to: index, computed: computed, now: now)
        case .notice(let index?, let id, let text):
            let name = outputs.outputs[index].name
            log.info(id, "output \(name): " + text, [("output", name)])
        case .notice(nil, let id, let text):
            log.notice(id, text)
        case .observed, .observedFix:
            web?.take(action, now: now)
            uplink?.take(action, model: nil, now: now)
        case .report(let report):
            // Kept for the status line without the track (holding it would make the engine copy it at its next point).
            var kept = report
            kept.track = nil
            lastReport = kept
            keepAnchor(report.values.anchor?.set)
            web?.take(action, now: now)
            uplink?.take(action, model: web?.feed.model, now: now)
        case .announce(let announcement):
            log.info("voice.announce", "announce: \(announcement.text)", [("text", announcement.text)])
            voice?.say(announcement.text, at: now)
        case .refused(let sentence, let source, let error):
            // Counted by the router (unreadable, implausible); the implausible said in the log here.
            guard case .implausible(let quantity) = error else { return }
            let name = router.name(of: source)
            log.warning(
                "input.implausible",
                "input \(name): implausible \(quantity) (outside \(quantity.range.lowerBound)"
                    + "...\(quantity.range.upperBound) \(quantity.unit)) in \(sentence); not used, not passed on",
                [("input", name), ("quantity", "\(quantity)")])
        }
    }
}

/// What the runtime sets up before its loop: the calibration, the engine, the route.
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
        guard let file = anchorFile else { return }
        do throws(ConfigurationFile.Error) {
            guard let set = try file.load() else { return }
            savedAnchor = set
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
        guard let file = anchorFile, set != savedAnchor else { return }
        savedAnchor = set
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
            log.notice(
                "route.loaded", "route: following \(route.name ?? path) (\(route.waypoints.count) waypoints)",
                [("path", path)])
        } catch {
            log.error("route.unreadable", "route: \(error)", [("path", path)])
        }
        routeFile = file
    }
}
