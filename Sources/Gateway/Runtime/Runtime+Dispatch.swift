import Bridge
import Engine
import Marine
import NMEA
import Platform
import Router
import SignalK

/// The one dispatcher: every event a service emits is routed here, in one `switch` (an input's events and the tick
/// into the router, a web request to the engine, the settings, the charts, the uploads or the access registry, a
/// forecast to the router and the web server, a command from shore through the router and back), and every action
/// the router decides is carried out here (``perform(_:)``).
extension Runtime {
    /// One event a service emitted this turn.
    func dispatch(_ event: ServiceEvent) {
        let now = turn.now
        let time = engineTime(now)
        switch event {
        case .input(let event, let input):
            handle(event, from: input, at: now)
        case .bus(let sentence, let device):
            let source = busSource(device)
            recorder?.record(sentence, source: device, unixTime: now + unixOffset)
            router.ingest(sentence, from: source, at: time) { perform($0) }
        case .client(let index, .connected):
            router.clientConnected(output: index) { perform($0) }
        case .client(let index, .gone):
            router.clientGone(output: index) { perform($0) }
        case .tick:
            router.tick(at: time) { perform($0) }
        case .housekeeping:
            housekeeping(at: now)
        case .request(let request):
            answer(request)
        case .forecast(let forecast):
            router.setForecast(forecast)
            web?.setForecast(forecast)
        case .shoreCommand(let command):
            uplink?.commandDone(router.command(command, at: time), at: now)
        }
    }

    /// A web request only the shell can answer, answered; then any the answer let the client send.
    func answer(_ request: SignalKServer.ShellRequest) {
        guard let web else { return }
        let now = turn.now
        let reply: SignalKServer.ShellReply
        switch request.kind {
        case .command(let command):
            reply = .outcome(carryOut(command, at: now))
        case .settings(let kind):
            let answer = answerSettings(kind, at: now)
            reply = .json(status: answer.status, answer.json)
        case .chart(let kind):
            let (status, contentType, body) = charts.answer(kind, now: now)
            reply = .file(status: status, contentType: contentType, body: body)
        case .upload(let piece):
            let (status, message) = uploads.receive(piece)
            reply = .message(status: status, message)
        case .bus:
            reply =
                if let n2k {
                    .json(status: 200, n2k.listing(now: now, sources: busSources))
                } else {
                    .message(status: 404, "no NMEA 2000 bus: [n2k] is not configured")
                }
        case .resource(let asked):
            if asked.kind == .charts {
                let (status, json) = charts.resources(asked.operation, now: now)
                reply = .json(status: status, json)
            } else {
                let (status, json) = resources.answer(asked, unixTime: turn.unixTime) {
                    (try? POSIX.randomBytes(16)) ?? Array(String(turn.unixTime).utf8)
                }
                reply = .json(status: status, json)
            }
        case .course(let target):
            switch resources.command(target) {
            case .success(let command): reply = .outcome(carryOut(command, at: now))
            case .failure(let error): reply = .message(status: 404, error.message)
            }
        case .history(let asked):
            reply = answerHistory(asked)
        case .autopilot(let device, let command):
            let (status, message) = commandPilot(device, command, at: now)
            reply = .message(status: status, message)
        case .fleet:
            reply = .message(status: 404, "not a fleet's server")
        case .keepAccess(let text):
            return web.keepAccess(text)
        }
        web.answer(request.id, reply, now: now, unixTime: turn.unixTime)
        // A history query's buckets and answer are freed once sent: their pages given back, not kept resident. So are
        // the base map's bins and the gazetteer's places (copied out of their mappings for the answer).
        if case .history = request.kind { POSIX.trimHeap() }
        if case .chart(let kind) = request.kind {
            switch kind {
            case .baseMap, .places: POSIX.trimHeap()
            case .list, .tile: break
            }
        }
        while let next = web.server.takeRequest() { answer(next) }
    }

    /// The History API from the history on the card.
    func answerHistory(_ asked: SignalKServer.HistoryRequest) -> SignalKServer.ShellReply {
        guard let history, let state else {
            return .message(status: 404, "no history is kept: [history] needs state_file and [web]")
        }
        let own = "vessels." + state.model.urn
        switch asked {
        case .values(let query):
            return .json(status: 200, history.answer(query, context: own))
        case .paths(let from, let to, let context):
            let paths = history.paths(from: from, to: to, context: context)
            return .json(status: 200, "[" + paths.map(JSONWriter.quoted).joined(separator: ",") + "]")
        case .contexts(let from, let to):
            let contexts = history.contexts(from: from, to: to).map { $0 ?? own }
            return .json(status: 200, "[" + contexts.map(JSONWriter.quoted).joined(separator: ",") + "]")
        case .playback(let from, let to):
            guard let bytes = history.blocks(from: from, to: to) else {
                return .message(status: 404, "nothing is kept from then on")
            }
            return .file(status: 200, contentType: "application/octet-stream", body: bytes)
        }
    }

    /// One event from an input, at `now` on the monotonic clock.
    func handle(_ event: InputEvent, from input: InputService.Input, at now: Double) {
        let time = engineTime(now)
        switch event {
        case .sentence(let sentence):
            recorder?.record(sentence, source: input.name, unixTime: now + unixOffset)
            router.ingest(sentence, from: input.source, at: time) { perform($0) }
        case .rejected:
            router.rejected(from: input.source)
        case .fix(let fix):
            router.ingest(fix.engineFix, motion: fix.motion, from: input.source, at: time) { perform($0) }
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

    /// The engine source of a device of the NMEA 2000 bus, registered the first time it is heard (and named in
    /// Signal K's `$source`).
    func busSource(_ device: String) -> SourceID {
        if let known = busSources[device] { return known }
        let source = router.source(named: device)
        busSources[device] = source
        busSourceIDs.insert(source)
        state?.feed.name(source, device)
        return source
    }

    /// Which of the values the engine uses in `report` came from the bus (not to be sent back to it).
    func fromBus(_ report: EngineReport) -> N2KOutbound.BusSources {
        func bus(_ source: SourceID?) -> Bool { source.map { busSourceIDs.contains($0) } ?? false }
        return N2KOutbound.BusSources(
            wind: bus(report.windSource), heading: bus(report.headingSource), attitude: bus(report.attitudeSource))
    }

    /// A crew's command (from a Signal K client or the panel), carried out through the router at `now`, logged.
    func carryOut(_ command: EngineCommand, at now: Double) -> CommandOutcome {
        let outcome = router.command(command, at: engineTime(now))
        log.notice(
            "web.command", "web: \(outcome.message)" + (outcome.isDone ? "" : " (refused)"),
            [("command", "\(command)")])
        return outcome
    }

    /// Carries out what the router decided.
    func perform(_ action: Router.Action) {
        let now = turn.now
        switch action {
        case .send(let index, let sentence, let computed):
            if index == n2kOutput {
                n2k?.passed(sentence, now: now)
            } else {
                outputs.send(sentence, to: index, computed: computed, now: now)
            }
        case .notice(let index?, let id, let text):
            let name = index < outputs.outputs.count ? outputs.outputs[index].name : "n2k"
            log.info(id, "output \(name): " + text, [("output", name)])
        case .notice(nil, let id, let text):
            log.notice(id, text)
        case .observed, .observedFix:
            state?.feed.take(action)
        case .report(let report):
            // Kept for the status line without the track (holding it would make the engine copy it at its next point).
            var kept = report
            kept.track = nil
            lastReport = kept
            keepAnchor(report.values.anchor?.set)
            n2k?.report(report, fromBus: fromBus(report), now: now)
            guard let state else { return }
            state.feed.take(action)
            let updates = state.feed.takeUpdates()
            let traffic = state.feed.takeTrafficDeltas()
            web?.publish(updates, traffic: traffic, now: now, budget: &turn.budget)
            // The uplink's samples on the records' clock, none while it is not known (a batch never mixes the machine's
            // day with the voyage's); a boat with no GPS and no synchronized clock after two minutes is sent on the
            // system clock as it is, said once, rather than not at all.
            if let uplink {
                var clock = fixesClock ? report.unixTime : systemRecordClock(at: now)
                if clock == nil && now - startTime > 120 {
                    if !uplinkOnSystemClock {
                        uplinkOnSystemClock = true
                        log.warning(
                            "uplink.clock",
                            "uplink: no GPS time and the system clock is not synchronized: samples go ashore on the "
                                + "system clock as it is", [])
                    }
                    clock = POSIX.unixTime()
                }
                if let clock {
                    var stamped = report
                    stamped.unixTime = clock
                    uplink.report(state.model, stamped, at: now)
                }
            }
        case .announce(let announcement):
            // Never held back: what was said aloud is always in the log.
            log(
                LogEvent(
                    .info, "voice.announce", "announce: \(announcement.text)", [("text", announcement.text)],
                    throttled: false))
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
            resources.configured = route
            log.notice(
                "route.loaded", "route: following \(route.name ?? path) (\(route.waypoints.count) waypoints)",
                [("path", path)])
        } catch {
            log.error("route.unreadable", "route: \(error)", [("path", path)])
        }
        routeFile = file
    }
}
