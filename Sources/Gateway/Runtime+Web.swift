import Engine
import Platform
import Router
import SignalK

/// The Signal K server inside `telltale run`: the model fed from the router's events and the engine's values, the
/// server's sockets serviced in the same loop, PUT commands applied to the engine.
extension Runtime {
    /// Opens the server when `[web]` is on.
    static func makeWeb(_ settings: WebConfiguration?, log: Log) throws(POSIX.Failure) -> (WebServer, SignalKModel)? {
        guard let settings else { return nil }
        var server = SignalKServer.Configuration()
        server.serverVersion = TelltaleVersion.string
        var networks: [NetworkRule.Network] = []
        for word in settings.putNetworks {
            switch word {
            case "loopback": networks += NetworkRule.loopback
            case "local":
                networks += POSIX.localNetworks().map { NetworkRule.Network(address: $0.address, prefix: $0.prefix) }
            default: if let network = NetworkRule.Network(word) { networks.append(network) }
            }
        }
        server.putRule = NetworkRule(networks: networks)
        let admitted = networks.map { network in
            NetworkRule.Network.text(network.address) + "/\(network.prefix)"
        }
        log.info(
            "web.put-networks", "web: changes (PUT) accepted from " + admitted.joined(separator: ", "),
            [("networks", "\(admitted.count)")])
        server.files = PanelFiles.all
        let web = try WebServer(settings: settings, server: SignalKServer(configuration: server), log: log)
        let urn = settings.urn ?? SignalKModel.urn(seed: machineIdentity())
        log.notice(
            "web.listening",
            "web: Signal K on http://\(Endpoint.bracketed(settings.host)):\(web.port)/signalk (self \(urn))",
            [("port", "\(web.port)")])
        return (web, SignalKModel(urn: urn, name: settings.name))
    }

    /// This machine's stable identity (systemd's machine id), so the boat's URN survives restarts.
    static func machineIdentity() -> String {
        for path in ["/etc/machine-id", "/var/lib/dbus/machine-id"] {
            if let bytes = try? POSIX.readFile(path), bytes.count >= 16 {
                return String(decoding: bytes, as: UTF8.self)
            }
        }
        return "telltale"
    }

    /// At each engine tick: the derived values at the configured rate, stale values withdrawn, the updates to the
    /// stream clients, and what their subscriptions owe.
    func webTick(now: Double) {
        guard let web, signalK != nil else { return }
        let time = now - startTime
        let unix = router.engine.unixTime(at: time) ?? now + unixOffset
        if now >= nextWebUpdate || router.engine.alarmRevision != webAlarmRevision {
            webAlarmRevision = router.engine.alarmRevision
            signalK!.update(
                router.engine.values, alarms: router.engine.alarms,
                timeToStart: router.engine.raceTimer.timeToStart(at: time), at: time, unixTime: unix)
            signalK!.expire(at: time, unixTime: unix)
            if now >= nextWebUpdate { nextWebUpdate = max(nextWebUpdate + 1 / webUpdateRate, now) }
        }
        // Between one client and the next, a sentence waiting on an input goes first; the clients not reached are
        // served in the next turns of the loop (`WebServer.resume`), before anything newer.
        let updates = signalK!.takeUpdates()
        web.publish(updates, model: signalK!, now: now, yield: inputWaiting)
        web.tick(model: signalK!, now: now, yield: inputWaiting)
    }

    /// Accepts, reads and writes the server's clients, yielding the loop back to the inputs as soon as one has a
    /// sentence waiting (or a timed input or the tick comes due, at `inputsDue`): the web's clients never stand
    /// between a sentence and the plotter for longer than one client's turn.
    func serviceWeb(now: Double, inputsDue: Double) {
        guard let web, let model = signalK else { return }
        let unix = router.engine.unixTime(at: now - startTime) ?? now + unixOffset
        web.service(
            model: model, now: now, unixTime: unix,
            yield: { POSIX.monotonic() >= inputsDue || inputWaiting() },
            command: { command in apply(command) })
    }

    /// Whether an input has bytes waiting (its descriptors of this turn polled again, without waiting): the web's
    /// work stops between two clients for it.
    func inputWaiting() -> Bool {
        guard !inputDescriptors.isEmpty else { return false }
        return POSIX.poll(&inputDescriptors, milliseconds: 0) > 0
    }

    /// A PUT's command, applied to the engine.
    func apply(_ command: SignalKServer.Command) -> Bool {
        let done: Bool
        switch command {
        case .route(let word):
            done = router.withEngine { engine in
                switch word {
                case "start": return engine.restartRoute()
                case "pause":
                    engine.pauseRoute()
                    return engine.route.route != nil
                case "resume":
                    engine.resumeRoute()
                    return engine.route.route != nil
                case "stop":
                    engine.stopRoute()
                    return true
                case "advance": return engine.advanceRoute()
                default: return false
                }
            }
            log.notice("web.route", "web: route \(word)" + (done ? "" : " (not possible now)"), [("command", word)])
        case .race(let word):
            let time = POSIX.monotonic() - startTime
            done = router.withEngine { engine in
                switch word {
                case "start": engine.raceTimer.start(at: time)
                case "pause": engine.raceTimer.pause(at: time)
                case "reset": engine.raceTimer.reset()
                case "sync": engine.raceTimer.sync(at: time)
                case "port": return engine.pingStartLine(.port)
                case "starboard": return engine.pingStartLine(.starboard)
                default: return false
                }
                return true
            }
            log.notice("web.race", "web: race timer \(word)", [("command", word)])
        case .acknowledge(let path):
            done = router.withEngine { $0.acknowledgeAlarm(path: path) }
            log.notice(
                "web.acknowledge", "web: alarm \(path) acknowledged" + (done ? "" : " (not active)"), [("alarm", path)])
        }
        return done
    }
}
