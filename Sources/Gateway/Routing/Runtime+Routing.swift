import Engine
import Marine
import Platform
import SignalK

/// The weather router on board, as the panel and the Resources API see it: `/telltale/v1/routing` plans a passage
/// (from the boat's position, or a place given) in the router's own process; each plan is kept as a route resource
/// that any app sees and the Course API can follow; under way a route planned here is planned again from the boat
/// when a new forecast comes or she falls behind it, and followed on.
extension Runtime {
    func answerRouting(_ ask: SignalKServer.JobAsk) -> SignalKServer.ShellReply {
        guard let routing = services.routing else {
            return .message(status: 404, "routing is off ([routing] enabled = false, or no state folder)")
        }
        switch ask.method {
        case "POST":
            guard let body = JSONValue.parse(ask.body, maximumDepth: 4, maximumLength: 4096) else {
                return .message(status: 400, "say {\"to\": {\"latitude\", \"longitude\"}} as JSON")
            }
            guard let to = Self.point(body["to"]) else {
                return .message(status: 400, "to: {\"latitude\", \"longitude\"} in degrees")
            }
            guard let from = Self.point(body["from"]) ?? lastReport?.values.position?.point else {
                return .message(status: 409, "no position: say from, or wait for a fix")
            }
            let depart = body["depart"].flatMap { $0.number ?? $0.string.flatMap { WeatherOptions.time($0) } }
            guard depart.map({ $0.isFinite && abs($0 - turn.unixTime) < 30 * 86_400 }) ?? true else {
                return .message(status: 400, "depart: UNIX seconds or an RFC 3339 time within 30 days")
            }
            var job = RoutingService.Job(from: from, to: to, depart: depart ?? turn.unixTime)
            if let hours = body["window"]?.number {
                guard hours > 0, hours <= 96 else { return .message(status: 400, "window: 1 to 96 hours") }
                job.window = hours
                job.every = min(max(body["every"]?.number ?? 3, 1), 24)
            }
            if let refused = routing.start(job, now: turn.now) { return .message(status: 409, refused) }
            return .json(status: 202, routingJSON(routing))
        case "DELETE":
            routing.stop()
            return .json(status: 200, routingJSON(routing))
        default:
            return .json(status: 200, routingJSON(routing))
        }
    }

    static func point(_ value: JSONValue?) -> GeoPoint? {
        guard let latitude = value?["latitude"]?.number, let longitude = value?["longitude"]?.number,
            abs(latitude) <= 85, abs(longitude) <= 180
        else { return nil }
        return GeoPoint(latitude: latitude, longitude: longitude)
    }

    func routingJSON(_ routing: RoutingService) -> String {
        var out = JSONWriter()
        out.beginObject()
        if let missing = routing.missing { out.value("missing", missing) }
        out.value("polar", routing.learntTaken ? "learnt" : "configured")
        switch routing.state {
        case .idle:
            out.value("state", "idle")
        case .running(_, let job, let started):
            out.value("state", "running")
            Self.job(job, into: &out)
            out.value("seconds", ((turn.now - started) * 10).rounded() / 10)
        case .planned(let job, _, let at):
            out.value("state", "planned")
            Self.job(job, into: &out)
            out.value("at", SignalKTime.text(unixTime: at))
            if let id = routing.routeID { out.value("route", "/resources/routes/" + id) }
            // The answer as the router wrote it, read from the card now (the gateway does not keep it).
            if let bytes = try? POSIX.readFile(routing.plan, limit: 8 << 20), bytes.first == UInt8(ascii: "{") {
                out.raw(job.window == nil ? "plan" : "window", String(decoding: bytes, as: UTF8.self).trimmingSuffix())
            }
        case .failed(let job, let message, let at):
            out.value("state", "failed")
            Self.job(job, into: &out)
            out.value("at", SignalKTime.text(unixTime: at))
            out.value("message", message)
        }
        out.endObject()
        return out.text
    }

    static func job(_ job: RoutingService.Job, into out: inout JSONWriter) {
        out.beginObject("job")
        out.beginObject("from")
        out.value("latitude", job.from.latitude)
        out.value("longitude", job.from.longitude)
        out.endObject()
        out.beginObject("to")
        out.value("latitude", job.to.latitude)
        out.value("longitude", job.to.longitude)
        out.endObject()
        out.value("depart", SignalKTime.text(unixTime: job.depart))
        if let window = job.window { out.value("window", window) }
        out.value("reason", job.reason)
        out.endObject()
    }
}

extension String {
    /// The text without its trailing newlines.
    func trimmingSuffix() -> String {
        var text = self
        while text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}
