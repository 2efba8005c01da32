import Engine
import Marine

/// Signal K's version 2 paths that the crew's apps use: the Course API (`/signalk/v2/api/vessels/self/navigation/
/// course`, as signalk-server's `src/api/course/index.ts` serves it and `docs/develop/rest-api/course_api.md`
/// describes it) and `/signalk/v2/features`. The course is the engine's route follower: a destination set here is a
/// leg from where the boat is, the active route is the one route Telltale follows (``SignalKModel/routeHref``),
/// and what is read back is what the engine publishes under `navigation.course.*`.
extension SignalKServer {
    static let coursePath = "/signalk/v2/api/vessels/self/navigation/course"

    mutating func version2(
        _ request: HTTPRequest, _ id: Int, _ connection: inout Connection, model: SignalKModel, keepAlive: Bool,
        _ act: (Action) -> Void
    ) {
        func reply(_ status: Int, _ json: String) { respond(id, &connection, status, json, keepAlive: keepAlive, act) }
        func refuse(_ status: Int, _ message: String) {
            self.reply(id, &connection, status, message, keepAlive: keepAlive, act)
        }
        let path = request.path.hasSuffix("/") ? String(request.path.dropLast()) : request.path
        let isRead = request.method == "GET" || request.method == "HEAD"
        if path == "/signalk/v2/features" {
            guard isRead else { return refuse(405, "GET only") }
            // The History API is listed where the history is kept (the panel asks here before drawing from it).
            // The Autopilot API where pilots can be commanded (an NMEA 2000 bus written to).
            var apis = configuration.commandsPilots ? ["autopilot", "course"] : ["course"]
            if configuration.keepsHistory { apis.append("history") }
            apis += ["resources", "weather"]
            return reply(200, #"{"apis":["# + apis.map(JSONWriter.quoted).joined(separator: ",") + #"],"plugins":[]}"#)
        }
        if path == Self.autopilotsPath || path.hasPrefix(Self.autopilotsPath + "/") {
            return autopilotAPI(request, id, &connection, keepAlive: keepAlive, act)
        }
        if path == Self.resourcesPath || path.hasPrefix(Self.resourcesPath + "/") {
            return resources(request, id, &connection, model: model, keepAlive: keepAlive, act)
        }
        guard path == Self.coursePath || path.hasPrefix(Self.coursePath + "/") else {
            return refuse(404, "not found")
        }
        let action = path.dropFirst(Self.coursePath.count).split(separator: "/").joined(separator: "/")
        switch (request.method, action) {
        case ("GET", ""), ("HEAD", ""):
            return reply(200, Self.courseJSON(model))
        case ("GET", "calcValues"):
            return reply(200, Self.calcValuesJSON(model))
        case ("DELETE", ""):
            return command(.route(.stop), request, id, &connection, keepAlive: keepAlive, act)
        case ("PUT", "destination"):
            let body = JSONValue.parse(request.body)
            if let href = body?["href"] {
                guard let target = href.string.flatMap(Resources.reference), target.kind == .waypoints else {
                    return refuse(400, "href: /resources/waypoints/<id> of a waypoint kept here")
                }
                return course(.waypoint(id: target.id), request, id, &connection, keepAlive: keepAlive, act)
            }
            guard let latitude = body?["position"]?["latitude"]?.number,
                let longitude = body?["position"]?["longitude"]?.number, latitude.isFinite, longitude.isFinite,
                abs(latitude) <= 90, abs(longitude) <= 180
            else {
                return refuse(
                    400, "the body must be {\"position\": {\"latitude\": ..., \"longitude\": ...}} or {\"href\": ...}")
            }
            return command(
                .destination(GeoPoint(latitude: latitude, longitude: longitude)), request, id, &connection,
                keepAlive: keepAlive, act)
        case ("PUT", "activeRoute"):
            let body = JSONValue.parse(request.body)
            guard let target = body?["href"]?.string.flatMap(Resources.reference), target.kind == .routes else {
                return refuse(400, "href: /resources/routes/<id> of a route kept here")
            }
            let index = body?["pointIndex"]?.number ?? 0
            guard index >= 0, index < 10_000, index == index.rounded() else {
                return refuse(400, "pointIndex: the point's index, 0 the first")
            }
            let reverse = body?["reverse"]?.bool ?? false
            return course(
                .route(id: target.id, pointIndex: Int(index), reverse: reverse), request, id, &connection,
                keepAlive: keepAlive, act)
        case ("PUT", "activeRoute/nextPoint"):
            // signalk-server's steps: +1 (the default) or -1 for the point before.
            let steps = JSONValue.parse(request.body)?["value"]?.number ?? 1
            guard steps == 1 || steps == -1 else {
                return refuse(400, "the route goes on one point at a time: {\"value\": 1} or -1")
            }
            return command(.route(steps == 1 ? .advance : .back), request, id, &connection, keepAlive: keepAlive, act)
        case ("PUT", "activeRoute/pointIndex"):
            guard let index = JSONValue.parse(request.body)?["value"]?.number, index >= 0, index < 10_000,
                index == index.rounded()
            else { return refuse(400, "the body must be {\"value\": <the point's index, 0 the first>}") }
            return command(.routePoint(Int(index)), request, id, &connection, keepAlive: keepAlive, act)
        case ("PUT", "activeRoute/reverse"):
            return command(.route(.reverse), request, id, &connection, keepAlive: keepAlive, act)
        case ("PUT", "restart"):
            return command(.route(.rejoin), request, id, &connection, keepAlive: keepAlive, act)
        case ("PUT", "arrivalCircle"):
            guard let metres = JSONValue.parse(request.body)?["value"]?.number, metres.isFinite, metres >= 0 else {
                return refuse(400, "the body must be {\"value\": <metres>}")
            }
            return command(.arrivalCircle(metres), request, id, &connection, keepAlive: keepAlive, act)
        case ("GET", "arrivalCircle/meta"):
            return reply(
                200,
                #"{"arrivalCircle":{"description":"The circle which indicates arrival when vessel position is "#
                    + #"within its radius.","units":"m"}}"#)
        case ("PUT", "targetArrivalTime"):
            return refuse(501, "not supported by Telltale's route follower")
        case (_, ""), (_, "destination"), (_, "activeRoute"), (_, "activeRoute/nextPoint"), (_, "calcValues"),
            (_, "activeRoute/pointIndex"), (_, "activeRoute/reverse"), (_, "restart"), (_, "arrivalCircle"),
            (_, "targetArrivalTime"):
            return refuse(405, "not with \(request.method)")
        default:
            return refuse(404, "not found")
        }
    }

    /// A command from a Course API request: only from where changes are accepted; the answer waits for the engine.
    /// A destination or route by href: the shell reads it from the resources kept and gives the engine its command.
    private mutating func course(
        _ target: CourseTarget, _ request: HTTPRequest, _ id: Int, _ connection: inout Connection, keepAlive: Bool,
        _ act: (Action) -> Void
    ) {
        if let refused = refusal(connection, token: Self.token(of: request)) {
            counters.refused += 1
            return reply(id, &connection, refused.status, refused.message, keepAlive: keepAlive, act)
        }
        counters.puts += 1
        ask(.course(target), id, &connection, keepAlive: keepAlive, act)
    }

    private mutating func command(
        _ command: EngineCommand, _ request: HTTPRequest, _ id: Int, _ connection: inout Connection, keepAlive: Bool,
        _ act: (Action) -> Void
    ) {
        if let refused = refusal(connection, token: Self.token(of: request)) {
            counters.refused += 1
            return reply(id, &connection, refused.status, refused.message, keepAlive: keepAlive, act)
        }
        counters.puts += 1
        awaitCommand(command, id, &connection, keepAlive: keepAlive, act)
    }

    /// The course as `GET .../navigation/course` gives it: nulls when no course is set.
    static func courseJSON(_ model: SignalKModel) -> String {
        var json = JSONWriter()
        json.beginObject()
        json.null("startTime")
        json.null("targetArrivalTime")
        for key in ["arrivalCircle", "activeRoute", "nextPoint", "previousPoint"] {
            let value = model.computed("navigation.course." + key)
            if let value {
                value.write(key, to: &json)
            } else if key == "arrivalCircle" {
                json.value(key, 0)
            } else {
                json.null(key)
            }
        }
        json.endObject()
        return json.text
    }

    static func calcValuesJSON(_ model: SignalKModel) -> String {
        var json = JSONWriter()
        json.beginObject()
        let prefix = "navigation.course.calcValues."
        for path in model.entries.keys.sorted() where path.hasPrefix(prefix) {
            model.computed(path)?.write(String(path.dropFirst(prefix.count)), to: &json)
        }
        json.endObject()
        return json.text
    }
}

extension SignalKModel {
    /// The engine's own value of `path`, if it has one.
    func computed(_ path: String) -> SignalKValue? {
        entries[path]?.first { $0.source == Self.computedSource }?.value
    }
}
