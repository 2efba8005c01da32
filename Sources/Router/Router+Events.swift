import Engine
import Marine

/// What changes the engine besides its inputs, each a typed event: the crew's commands, the clock, the route, the
/// clients of outputs coming and going.
extension Router {
    /// A crew's command (from the panel, a Signal K app, the command line, the race button), carried out at engine
    /// time `time`; what was done, or why it could not be, for the log and for whoever asked.
    public mutating func command(_ command: EngineCommand, at time: Double) -> CommandOutcome {
        let outcome = engine.apply(command, at: time)
        if outcome.isDone { counters.commands += 1 } else { counters.commandsRefused += 1 }
        return outcome
    }

    /// Which UTC instant (UNIX seconds) engine time `time` is: the system clock when running live, the log's in a
    /// replay (until a fix with a date gives the GNSS clock).
    public mutating func setClock(unixTime: Double, at time: Double) {
        engine.setClock(unixTime: unixTime, at: time)
    }

    /// The forecasts on board from now on: every grid the shell has mapped (none, to forget them).
    public mutating func setForecast(_ forecast: Forecast) { engine.setForecast(forecast) }

    /// The default autopilot's state, each second (nil: none heard), for the autopilot alarm.
    public mutating func pilot(_ report: PilotReport?) { engine.pilot(report) }

    /// The barometer's record for the panel: a point every `step` minutes for the last `hours`, oldest first.
    public func barograph(at time: Double, hours: Int = 24, step: Int = 10) -> [(minutesAgo: Int, pascals: Double)] {
        engine.barograph(at: time, hours: hours, step: step)
    }

    /// Follows a local route (a configured file, loaded), from its first leg.
    public mutating func follow(_ route: Route) { engine.follow(route) }

    /// The route file changed: the new route, keeping the active leg when it still exists. The leg now active.
    public mutating func replaceRoute(with route: Route) -> Int {
        engine.replaceRoute(with: route)
        counters.routeReloads += 1
        return engine.route.leg
    }

    /// A looping log started its voyage again: so does the local route. True when there was one to restart. Its first
    /// fix is taken wherever the voyage starts (not refused as out of reach of the last one of the lap before).
    public mutating func lapStarted(of source: SourceID) -> Bool {
        engine.forgetFixes(from: source)
        guard let route = engine.route.route else { return false }
        engine.follow(route)
        return true
    }

    /// A client connected to output `output`.
    public mutating func clientConnected(output: Int, _ act: (Action) -> Void) {
        clients[output] += 1
        act(.notice(output: output, id: "output.client-connected", text: "a client connected (\(clientText(output)))"))
    }

    /// A client of output `output` went away (closed, failed, or dropped for not reading).
    public mutating func clientGone(output: Int, _ act: (Action) -> Void) {
        clients[output] = max(0, clients[output] - 1)
        act(.notice(output: output, id: "output.client-gone", text: "a client went away (\(clientText(output)))"))
    }

    private func clientText(_ output: Int) -> String {
        "\(clients[output]) client" + (clients[output] == 1 ? "" : "s")
    }
}
