import Engine
import Marine
import Platform
import SignalK

/// A plan kept as a route resource and, under way, planned again and followed on.
extension Runtime {
    /// The router ended: a plan (not a window) is kept as a route resource (any app sees it; the Course API follows
    /// it); when the route before it was being followed, the new one is followed from its first leg.
    func routed() {
        guard let routing = services.routing, case .planned(let job, let route?, _) = routing.state else { return }
        let following = routing.routeID != nil && lastReport?.values.navigationLeg?.routeReference == routing.routeID
        guard let body = JSONValue.parse(route.resource(to: job.to)) else { return }
        let (status, answer) = library.resources.answer(
            SignalKServer.ResourceRequest(kind: .routes, operation: .create(body)), unixTime: turn.unixTime
        ) { (try? POSIX.randomBytes(16)) ?? Array(String(turn.unixTime).utf8) }
        guard status == 201, let id = JSONValue.parse(answer)?["id"]?.string else {
            log.warning("routing.keep", "routing: the plan could not be kept as a route (\(status))")
            return
        }
        routing.routeID = id
        routing.forecastUsed = routing.forecastGiven
        log.notice(
            "routing.kept", "routing: the route to \(RoutingService.place(job.to)) is kept (ETA \(route.eta))",
            [("route", id)])
        guard following,
            case .success(let command) = library.resources.command(.route(id: id, pointIndex: 1, reverse: false))
        else { return }
        _ = carryOut(command, at: turn.now)
        voice?.say("re-routed: \(job.reason)", at: turn.now)
    }

    /// Once a second: a route planned here and being followed is planned again from the boat when a new forecast
    /// has come, or when she is `[routing] behind_minutes` behind the plan.
    func keepRouting() {
        guard let routing = services.routing, !routing.isRunning, let id = routing.routeID,
            case .planned(let job, let route?, let at) = routing.state, turn.unixTime - at > 10,
            lastReport?.values.navigationLeg?.routeReference == id, let here = lastReport?.values.position?.point
        else { return }
        var reason: String?
        if routing.forecastSignature() != routing.forecastUsed {
            reason = "a new forecast"
        } else if routing.configuration.behindMinutes > 0, let planned = route.time(nearest: here),
            turn.unixTime - planned > routing.configuration.behindMinutes * 60
        {
            reason = "\(Int((turn.unixTime - planned) / 60)) minutes behind the plan"
        }
        guard let reason else { return }
        let again = RoutingService.Job(from: here, to: job.to, depart: turn.unixTime, reason: reason)
        if let refused = routing.start(again, now: turn.now) {
            log.warning("routing.again", "routing: cannot plan again (\(reason)): \(refused)")
        }
    }
}
