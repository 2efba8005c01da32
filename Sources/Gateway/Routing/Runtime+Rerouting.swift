import Engine
import Marine
import Platform
import SignalK

/// A plan kept as a route resource and, under way, planned again and followed on.
extension Runtime {
    /// The router ended: a plan (not a window) is kept as a route resource (any app sees it; the Course API follows
    /// it); when the route before it was being followed, the new one is followed from its first leg.
    func routed() {
        guard let routing = services.routing, case .planned(let job, let json, _) = routing.state, job.window == nil,
            let plan = JSONValue.parse(Array(json.utf8), maximumDepth: 8, maximumLength: 8 << 20),
            let waypoints = plan["waypoints"]?.array, waypoints.count >= 2
        else { return }
        let following = routing.routeID != nil && lastReport?.values.navigationLeg?.routeReference == routing.routeID
        let eta = plan["eta"]?.string ?? ""
        guard let body = JSONValue.parse(Self.routeResource(waypoints, to: job.to, eta: eta)) else { return }
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
            "routing.kept", "routing: the route to \(RoutingService.place(job.to)) is kept (ETA \(eta))",
            [("route", id)])
        guard following,
            case .success(let command) = library.resources.command(.route(id: id, pointIndex: 1, reverse: false))
        else { return }
        _ = carryOut(command, at: turn.now)
        voice?.say("re-routed: \(job.reason)", at: turn.now)
    }

    /// A route resource of the plan's waypoints: Start, WP1..., the destination.
    static func routeResource(_ waypoints: [JSONValue], to: GeoPoint, eta: String) -> String {
        var out = JSONWriter()
        out.beginObject()
        out.value("name", "Routed to " + RoutingService.place(to))
        out.value("description", "Telltale's weather routing, ETA " + eta)
        out.beginObject("feature")
        out.value("type", "Feature")
        out.beginObject("geometry")
        out.value("type", "LineString")
        out.beginArray("coordinates")
        for point in waypoints {
            out.raw(nil, "[\(point["lon"]?.number ?? 0),\(point["lat"]?.number ?? 0)]")
        }
        out.endArray()
        out.endObject()
        out.beginObject("properties")
        out.beginArray("coordinatesMeta")
        for index in waypoints.indices {
            out.beginObject()
            out.value(
                "name", index == 0 ? "Start" : index == waypoints.count - 1 ? "Destination" : "WP\(index)")
            out.endObject()
        }
        out.endArray()
        out.endObject()
        out.endObject()
        out.endObject()
        return out.text
    }

    /// Once a second: a route planned here and being followed is planned again from the boat when a new forecast
    /// has come, or when she is `[routing] behind_minutes` behind the plan.
    func keepRouting() {
        guard let routing = services.routing, !routing.isRunning, let id = routing.routeID,
            case .planned(let job, let json, let at) = routing.state, turn.unixTime - at > 10,
            lastReport?.values.navigationLeg?.routeReference == id, let here = lastReport?.values.position?.point
        else { return }
        var reason: String?
        if routing.forecastSignature() != routing.forecastUsed {
            reason = "a new forecast"
        } else if routing.configuration.behindMinutes > 0, let planned = Self.plannedTime(json, at: here),
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

    /// When the plan has the boat at the point of its route nearest `point`: along that leg, in proportion.
    static func plannedTime(_ json: String, at point: GeoPoint) -> Double? {
        guard let plan = JSONValue.parse(Array(json.utf8), maximumDepth: 8, maximumLength: 8 << 20),
            let waypoints = plan["waypoints"]?.array
        else { return nil }
        let points = waypoints.compactMap { w -> (GeoPoint, Double)? in
            guard let lat = w["lat"]?.number, let lon = w["lon"]?.number, let time = w["time"]?.string,
                let unix = SignalKTime.unixTime(time)
            else { return nil }
            return (GeoPoint(latitude: lat, longitude: lon), unix)
        }
        var best: (distance: Double, time: Double)?
        for (a, b) in zip(points, points.dropFirst()) {
            // On a flat chart round the leg: the fraction along it of the point's foot, and how far off it is.
            let shrink = cos(a.0.latitude * Double.pi / 180)
            let bx = (b.0.longitude - a.0.longitude) * shrink
            let by = b.0.latitude - a.0.latitude
            let px = (point.longitude - a.0.longitude) * shrink
            let py = point.latitude - a.0.latitude
            let length = bx * bx + by * by
            let fraction = length > 0 ? min(max((px * bx + py * by) / length, 0), 1) : 0
            let dx = px - fraction * bx
            let dy = py - fraction * by
            let distance = dx * dx + dy * dy
            if best.map({ distance < $0.distance }) ?? true {
                best = (distance, a.1 + fraction * (b.1 - a.1))
            }
        }
        return best?.time
    }
}
