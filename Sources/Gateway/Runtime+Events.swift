import Engine
import NMEA
import Platform
import Router

/// What the loop does with what happens: an input's events into the router, the router's actions out to the
/// outputs and the log, clients coming and going.
extension Runtime {
    /// Services every output; clients coming and going are the router's events.
    func serviceOutputs(now: Double) {
        for (index, output) in outputs.enumerated() {
            output.transport.service(now: now) { change in
                switch change {
                case .connected: router.clientConnected(output: index) { perform($0, now: now) }
                case .gone: router.clientGone(output: index) { perform($0, now: now) }
                }
            }
        }
    }

    /// One event from an input, at `now` on the monotonic clock.
    func handle(_ event: InputEvent, from source: SourceID, name: String, at now: Double) {
        switch event {
        case .sentence(let sentence):
            counters.sentencesIn += 1
            received[source, default: 0] += 1
            recorder?.record(sentence, source: name, unixTime: now + unixOffset)
            router.ingest(sentence, from: source, at: now - startTime) { action in perform(action, now: now) }
            if !observed.isEmpty { takeObserved(now: now) }
        case .rejected:
            counters.rejected += 1
        case .fix(let fix):
            counters.sentencesIn += 1
            received[source, default: 0] += 1
            router.ingest(fix.engineFix, motion: fix.motion, from: source, at: now - startTime)
            signalK?.observe(
                fix: fix.engineFix, motion: fix.motion, input: name, at: now - startTime,
                unixTime: router.engine.unixTime(at: now - startTime) ?? now + unixOffset)
        case .imu(let sample, let time):
            received[source, default: 0] += 1
            router.ingest(
                gyroscope: sample.gyroscope, accelerometer: sample.accelerometer, magnetometer: sample.magnetometer,
                from: source, at: time - startTime)
            recorder?.record(imu: sample, unixTime: time + unixOffset)
        case .button(let gesture):
            let word = router.withEngine { $0.raceButton(gesture, at: now - startTime) }
            // One message id a command, so that a reset is never held back behind the starts before it.
            log.notice("button." + word, "race button: \(gesture.rawValue), timer \(word)", [("command", word)])
        case .restarted(let lap):
            // A looping log starts its voyage again: so does the route.
            guard let route = engine.route.route else { return }
            router.withEngine { $0.follow(route) }
            log.info("input.lap", "input \(name): lap \(lap + 1), route restarted", [("input", name)])
        }
    }

    /// The sentences the router said the engine accepted, into the Signal K model.
    func takeObserved(now: Double) {
        let time = now - startTime
        let unix = router.engine.unixTime(at: time) ?? now + unixOffset
        for (sentence, source) in observed {
            let name = inputs.first { $0.source == source }?.name ?? "?"
            signalK?.observe(sentence, input: name, at: time, unixTime: unix)
        }
        observed.removeAll(keepingCapacity: true)
    }

    /// Carries out what the router decided.
    func perform(_ action: Router.Action, now: Double) {
        switch action {
        case .send(let index, let sentence, let computed):
            wire.removeAll(keepingCapacity: true)
            sentence.appendWire(to: &wire)
            wire.withUnsafeBytes { outputs[index].send($0, computed: computed, now: now) }
            counters.sentencesOut += 1
        case .notice(let index, let id, let text):
            let name = outputs[index].name
            log.info(id, "output \(name): " + text, [("output", name)])
        case .observed(let sentence, let source):
            // Taken into the model once the router has finished with the sentence (it cannot be read meanwhile).
            if signalK != nil { observed.append((sentence, source)) }
        case .refused(let sentence, let source, let error):
            // Counted by the router (unreadable, implausible); per input and in the log here.
            guard case .implausible(let quantity) = error else { return }
            implausibleBySource[source, default: 0] += 1
            let name = inputs.first { $0.source == source }?.name ?? "?"
            log.warning(
                "input.implausible",
                "input \(name): implausible \(quantity) (outside \(quantity.range.lowerBound)"
                    + "...\(quantity.range.upperBound) \(quantity.unit)) in \(sentence); not used, not passed on",
                [("input", name), ("quantity", "\(quantity)")])
        }
    }
}
