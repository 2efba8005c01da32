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
            recorder?.record(sentence, source: device, unixTime: now + clock.unixOffset)
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
            // The code that took the file in and read the forecast, given back a minute after, as after a plan.
            chores.releaseAgainAt = now + 60
        case .tides(let stations):
            router.setTides(stations)
            // The search walked every station of the harmonics files: what it allocated is given back to the system
            // (malloc keeps freed memory otherwise), as after a history query.
            POSIX.trimHeap()
        case .routed:
            routed()
            POSIX.trimHeap()
            // The code that took the plan in, and that serves it to the panel for the next minute, given back after.
            chores.releaseAgainAt = now + 60
        case .shoreCommand(let command):
            uplink?.commandDone(router.command(command, at: time), at: now)
        case .calibrated(let calibration):
            router.setCalibration(calibration)
            chores.releaseAgainAt = now + 60
        }
    }

    /// One event from an input, at `now` on the monotonic clock.
    func handle(_ event: InputEvent, from input: InputService.Input, at now: Double) {
        let time = engineTime(now)
        switch event {
        case .sentence(let sentence):
            recorder?.record(sentence, source: input.name, unixTime: now + clock.unixOffset)
            router.ingest(sentence, from: input.source, at: time) { perform($0) }
        case .rejected(let reason):
            router.rejected(from: input.source, reason: reason)
        case .fix(let fix):
            router.ingest(fix.engineFix, motion: fix.motion, from: input.source, at: time) { perform($0) }
        case .imu(let sample, let sampleTime):
            router.ingest(
                gyroscope: sample.gyroscope, accelerometer: sample.accelerometer, magnetometer: sample.magnetometer,
                from: input.source, at: engineTime(sampleTime))
            recorder?.record(imu: sample, unixTime: sampleTime + clock.unixOffset)
        case .button(let gesture):
            let outcome = router.command(.button(gesture), at: time)
            // One message id an outcome, so that a reset is never held back behind the starts before it.
            log.notice(
                "button." + outcome.message, "race button: \(gesture.rawValue): \(outcome.message)",
                [("command", gesture.rawValue)])
        case .restarted(let lap):
            // A looping log starts its voyage again: so does the route.
            guard router.lapStarted(of: input.source) else { return }
            log.info("input.lap", "input \(input.name): lap \(lap + 1), route restarted", [("input", input.name)])
        }
    }

    /// The engine source of a device of the NMEA 2000 bus, registered the first time it is heard (and named in
    /// Signal K's `$source`).
    func busSource(_ device: String) -> SourceID {
        if let known = bus.byDevice[device] { return known }
        let source = router.source(named: device)
        bus.byDevice[device] = source
        bus.ids.insert(source)
        state?.feed.name(source, device)
        return source
    }

    /// Which of the values the engine uses in `report` came from the bus (not to be sent back to it).
    func fromBus(_ report: EngineReport) -> N2KOutbound.BusSources {
        let ids = bus.ids
        func onBus(_ source: SourceID?) -> Bool { source.map { ids.contains($0) } ?? false }
        return N2KOutbound.BusSources(
            wind: onBus(report.windSource), heading: onBus(report.headingSource),
            attitude: onBus(report.attitudeSource))
    }

    /// Carries out what the router decided.
    func perform(_ action: Router.Action) {
        let now = turn.now
        switch action {
        case .send(let index, let sentence, let computed):
            if index == bus.output {
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
            if let uplink { sendAshore(report, state.model, to: uplink, at: now) }
        case .input(let source, let name, let change, _, _):
            inputHealth(source, name, change)
            state?.feed.take(action)
        case .tides(let point):
            // Looked for at the tide service's turn (a search of the files' positions, a few milliseconds on a Pi,
            // a mile or two apart at most), not inside the router's tick.
            services.tides?.want(point)
        case .announce(let announcement):
            // Never held back: what was said aloud is always in the log.
            log(
                LogEvent(
                    .info, "voice.announce", "announce: \(announcement.text)", [("text", announcement.text)],
                    throttled: false))
            voice?.say(announcement.text, at: now)
        case .refused(let sentence, _, let error, let name):
            // Counted by the router (unreadable, implausible); the implausible said in the log here. Its input named
            // by the action: asking the router, whose `ingest` is running, was an access conflict that stopped the
            // gateway at the first implausible sentence (2026-11-24 to 2026-12-03).
            guard case .implausible(let quantity) = error else { return }
            guard quantity != .position else {
                logUnreachable("\(sentence)", from: name)
                return
            }
            log.warning(
                "input.implausible",
                "input \(name): implausible \(quantity) (outside \(quantity.range.lowerBound)"
                    + "...\(quantity.range.upperBound) \(quantity.unit)) in \(sentence); not used, not passed on",
                [("input", name), ("quantity", "\(quantity)")])
        case .refusedFix(let fix, _, let name):
            let point =
                "\(FixedDecimal.text(fix.point.latitude, decimals: 5)), "
                + FixedDecimal.text(fix.point.longitude, decimals: 5)
            logUnreachable("gpsd's fix at " + point, from: name)
        }
    }

    private func logUnreachable(_ what: String, from name: String) {
        log.warning(
            "input.implausible",
            "input \(name): implausible position, out of a boat's reach from the fix before, in \(what); not used, "
                + "not passed on", [("input", name), ("quantity", "position")])
    }

    /// The uplink's samples on the records' clock, none while it is not known (a batch never mixes the machine's day
    /// with the voyage's); a boat with no GPS and no synchronized clock after two minutes is sent on the system clock
    /// as it is, said once, rather than not at all.
    private func sendAshore(_ report: EngineReport, _ model: SignalKModel, to uplink: UplinkService, at now: Double) {
        var time = clock.fromFixes ? report.unixTime : clock.system(at: now)
        if time == nil && now - clock.startTime > 120 {
            if !clock.uplinkOnSystemClock {
                clock.uplinkOnSystemClock = true
                log.warning(
                    "uplink.clock",
                    "uplink: no GPS time and the system clock is not synchronized: samples go ashore on the system "
                        + "clock as it is", [])
            }
            time = POSIX.unixTime()
        }
        guard let time else { return }
        var stamped = report
        stamped.unixTime = time
        uplink.report(model, stamped, at: now)
    }
}
