import Engine
import Marine

/// The HTTP requests' routes, as one table: where each path leads (discovery, the model and its branches, PUT, the
/// stream's upgrade, the access requests, the weather, the v2 APIs, the settings, the charts, the fleet, the bus), in
/// the order they are tried; what none of them takes is one of the panel's files.
extension SignalKServer {
    /// The NMEA 2000 bus's listing.
    static let busPath = "/telltale/v1/n2k"

    /// One request being answered: what was asked, on which connection, and the model and clocks of the turn.
    struct Exchange {
        let request: HTTPRequest
        let id: Int
        let model: SignalKModel
        let now: Double
        let unixTime: Double

        var keepAlive: Bool { request.keepsAlive }
        var isRead: Bool { request.method == "GET" || request.method == "HEAD" }
        var headOnly: Bool { request.method == "HEAD" }
    }

    /// A route: which paths it takes, and what it does with a request for one.
    struct Route: Sendable {
        enum Paths: Sendable {
            /// These paths exactly.
            case exact([String])
            /// This path, and everything under it (`path/...`).
            case tree(String)
            /// Every path that begins so.
            case prefix(String)
        }
        typealias Handler = @Sendable (inout SignalKServer, Exchange, inout Connection, (Action) -> Void) -> Void

        let paths: Paths
        let handle: Handler

        func takes(_ path: String) -> Bool {
            switch paths {
            case .exact(let names): names.contains(path)
            case .tree(let root):
                // `root` or `root/...`, compared by bytes (no string made for every route of every request).
                path.utf8.starts(with: root.utf8)
                    && (path.utf8.count == root.utf8.count || path.utf8.dropFirst(root.utf8.count).first == 47)
            case .prefix(let start): path.hasPrefix(start)
            }
        }
    }

    /// Every route, the first that takes a path answers it.
    static let routes: [Route] = [
        Route(paths: .exact(["/signalk/v1/stream", "/signalk/v1/stream/"])) { server, x, connection, act in
            guard x.request.method == "GET" else { return server.refuse(x, &connection, 405, "GET only", act) }
            server.upgrade(x.request, x.id, &connection, model: x.model, at: x.now, unixTime: x.unixTime, act)
        },
        Route(paths: .exact([playbackPath, playbackPath + "/"])) { server, x, connection, act in
            guard x.request.method == "GET" else { return server.refuse(x, &connection, 405, "GET only", act) }
            server.upgradePlayback(x.request, x.id, &connection, model: x.model, unixTime: x.unixTime, act)
        },
        Route(paths: .exact(["/signalk", "/signalk/"])) { server, x, connection, act in
            guard x.isRead else { return server.refuse(x, &connection, 405, "GET only", act) }
            let host = x.request.header("host") ?? "localhost"
            let body = SignalKModel.discovery(host: host, serverVersion: server.configuration.serverVersion)
            server.send(x, &connection, 200, body, act)
        },
        Route(paths: .exact([SignalKModel.trackPath])) { server, x, connection, act in
            // The track is read here; anything else asked of its path is the model's (a PUT, refused there).
            guard x.isRead else { return apiRoute.handle(&server, x, &connection, act) }
            server.send(x, &connection, 200, x.model.trackJSON(since: x.request.parameter("since")), act)
        },
        apiRoute,
        Route(paths: .prefix(accessRequestsPath)) { $0.access($1, &$2, $3) },
        Route(paths: .prefix(requestsPath)) { $0.access($1, &$2, $3) },
        Route(paths: .tree(accessAdminPath)) { $0.access($1, &$2, $3) },
        Route(paths: .tree(weatherAPIPath)) { server, x, connection, act in
            server.weatherAPI(x.request, x.id, &connection, unixTime: x.unixTime, keepAlive: x.keepAlive, act)
        },
        Route(paths: .tree(weatherPagePath)) { server, x, connection, act in
            server.weatherPage(
                x.request, x.id, &connection, model: x.model, unixTime: x.unixTime, keepAlive: x.keepAlive, act)
        },
        Route(paths: .tree(historyPath)) { server, x, connection, act in
            server.historyAPI(
                x.request, x.id, &connection, model: x.model, unixTime: x.unixTime, keepAlive: x.keepAlive, act)
        },
        Route(paths: .tree("/signalk/v2")) { server, x, connection, act in
            server.version2(x.request, x.id, &connection, model: x.model, keepAlive: x.keepAlive, act)
        },
        Route(paths: .exact([notesPath])) { server, x, connection, act in
            server.notes(x.request, x.id, &connection, keepAlive: x.keepAlive, act)
        },
        Route(paths: .tree(settingsPath)) { server, x, connection, act in
            server.settings(x.request, x.id, &connection, keepAlive: x.keepAlive, act)
        },
        Route(paths: .tree(chartsPath)) { server, x, connection, act in
            server.charts(x.request, x.id, &connection, keepAlive: x.keepAlive, act)
        },
        Route(paths: .exact(["/telltale/v1/fleet"])) { server, x, connection, act in
            guard x.isRead else { return server.refuse(x, &connection, 405, "GET only", act) }
            // A boat says it is none (every panel asks once at start, and a 404 there is an error in its console).
            if server.fleet != nil { server.fleetReads += 1 }
            if server.configuration.gate != nil {
                // Behind the door: the view of the viewer's own boats (the door let no one else this far).
                let scope = server.viewer(x.request)?.scope ?? ""
                return server.send(
                    x, &connection, 200,
                    server.fleetScoped[scope] ?? #"{"fleet":true,"time":0,"classes":[],"boats":[]}"#, act)
            }
            server.send(x, &connection, 200, server.fleet ?? #"{"fleet":false}"#, act)
        },
        Route(paths: .prefix("/telltale/v1/fleet/")) { server, x, connection, act in
            guard server.fleet != nil else { return server.file(x, &connection, act) }
            // An alert acknowledged and a phone's push subscription are the things written here.
            let writes = ["alerts/acknowledge", "push/subscribe", "push/unsubscribe"].map { "/telltale/v1/fleet/" + $0 }
            let writing = x.request.method == "POST" && writes.contains(x.request.path)
            guard x.isRead || writing else { return server.refuse(x, &connection, 405, "GET only", act) }
            var parameters: [String: String] = [:]
            for (name, value) in x.request.query.prefix(16) { parameters[name] = value }
            let path = String(x.request.path.dropFirst("/telltale/v1/fleet/".count))
            var asked = FleetRequest(path: path, parameters: parameters)
            if server.configuration.gate != nil {
                let viewer = server.viewer(x.request)
                asked.boats = viewer?.boats ?? []
                asked.role = viewer?.role ?? ""
                asked.name = viewer?.name
            }
            if writing { asked.body = Array(x.request.body.prefix(4096)) }
            server.ask(.fleet(asked), x.id, &connection, keepAlive: x.keepAlive, headOnly: x.headOnly, act)
        },
        Route(paths: .tree("/telltale/v1/tides")) { server, x, connection, act in
            guard x.isRead else { return server.refuse(x, &connection, 405, "GET only", act) }
            var parameters: [String: String] = [:]
            for (name, value) in x.request.query.prefix(16) { parameters[name] = value }
            let path = String(x.request.path.dropFirst("/telltale/v1/tides".count))
            let asked = FleetRequest(path: path, parameters: parameters)
            server.ask(.tides(asked), x.id, &connection, keepAlive: x.keepAlive, headOnly: x.headOnly, act)
        },
        Route(paths: .exact(["/telltale/v1/routing"])) { server, x, connection, act in
            // Reading the plan is open to every panel; planning and stopping are changes, as a PUT is.
            if !x.isRead {
                guard x.request.method == "POST" || x.request.method == "DELETE" else {
                    return server.refuse(x, &connection, 405, "GET, POST or DELETE", act)
                }
                if let refused = server.refusal(connection, token: Self.token(of: x.request)) {
                    server.counters.refused += 1
                    return server.refuse(x, &connection, refused.status, refused.message, act)
                }
            }
            let asked = JobAsk(method: x.isRead ? "GET" : x.request.method, body: x.request.body)
            server.ask(.routing(asked), x.id, &connection, keepAlive: x.keepAlive, headOnly: x.headOnly, act)
        },
        Route(
            paths: .exact([
                "/telltale/v1/calibration", "/telltale/v1/calibration/polar", "/telltale/v1/calibration/polar.csv",
                "/telltale/v1/calibration/polar.pol",
            ])
        ) { server, x, connection, act in
            // Reading is open to every panel; learning, applying, undoing and choosing the polar are changes, as a PUT
            // is.
            let rest = String(x.request.path.dropFirst("/telltale/v1/calibration".count))
            if !x.isRead {
                let allowed = rest.isEmpty ? ["POST", "PUT", "DELETE"] : rest == "/polar" ? ["PUT"] : []
                guard allowed.contains(x.request.method) else {
                    return server.refuse(
                        x, &connection, 405,
                        rest.isEmpty ? "GET, POST, PUT or DELETE" : rest == "/polar" ? "GET or PUT" : "GET only",
                        act)
                }
                if let refused = server.refusal(connection, token: Self.token(of: x.request)) {
                    server.counters.refused += 1
                    return server.refuse(x, &connection, refused.status, refused.message, act)
                }
            }
            let asked = JobAsk(method: x.isRead ? "GET" : x.request.method, body: x.request.body, rest: rest)
            server.ask(.calibration(asked), x.id, &connection, keepAlive: x.keepAlive, headOnly: x.headOnly, act)
        },
        Route(paths: .exact([busPath])) { server, x, connection, act in
            guard x.isRead else { return server.refuse(x, &connection, 405, "GET only", act) }
            server.ask(.bus, x.id, &connection, keepAlive: x.keepAlive, headOnly: x.headOnly, act)
        },
        Route(paths: .exact(["/telltale/v1/history"])) { server, x, connection, act in
            guard x.isRead else { return server.refuse(x, &connection, 405, "GET only", act) }
            server.send(x, &connection, 200, x.model.history.json(), act)
        },
    ]

    /// The model (`/signalk/v1/api/...`): a branch read, or a PUT.
    static let apiRoute = Route(paths: .tree("/signalk/v1/api")) { server, x, connection, act in
        let components = x.request.path.dropFirst("/signalk/v1/api".count).split(separator: "/").map(String.init)
        if x.request.method == "PUT" {
            return server.put(components, x.request, x.id, &connection, model: x.model, keepAlive: x.keepAlive, act)
        }
        guard x.isRead else { return server.refuse(x, &connection, 405, "GET and PUT only", act) }
        guard let body = x.model.branch(components) else {
            return server.refuse(x, &connection, 404, "no such path", act)
        }
        server.send(x, &connection, 200, body, act)
    }

    /// One HTTP request: to the first route that takes its path, or to the panel's files.
    mutating func handle(
        _ request: HTTPRequest, _ id: Int, _ connection: inout Connection, model: SignalKModel, at now: Double,
        unixTime: Double, _ act: (Action) -> Void
    ) {
        let exchange = Exchange(request: request, id: id, model: model, now: now, unixTime: unixTime)
        if request.method == "OPTIONS" {
            // A browser's CORS preflight, before a PUT from an app served from another origin (the reference server
            // answers it for every origin unless told otherwise: `src/cors.ts`).
            return reply(exchange, &connection, HTTPResponse.preflight(request, keepAlive: exchange.keepAlive), act)
        }
        if gated(exchange, &connection, act) { return }
        for route in Self.routes where route.takes(request.path) {
            return route.handle(&self, exchange, &connection, act)
        }
        file(exchange, &connection, act)
    }

    /// One of the panel's files (gzip-compressed ones only to a client that takes them).
    private mutating func file(_ x: Exchange, _ connection: inout Connection, _ act: (Action) -> Void) {
        guard x.isRead else { return refuse(x, &connection, 405, "GET only", act) }
        let path = x.request.path
        guard let file = configuration.files[path.hasSuffix("/") ? path + "index.html" : path] else {
            return refuse(x, &connection, 404, "not found", act)
        }
        let accepts = x.request.tokens("accept-encoding").contains { $0 == "gzip" || $0.hasPrefix("gzip;") }
        guard !file.gzipped || accepts else {
            return refuse(x, &connection, 406, "this file is served gzip-compressed only", act)
        }
        reply(
            x, &connection,
            HTTPResponse.make(
                status: 200, contentType: file.contentType, body: file.bytes, keepAlive: x.keepAlive,
                headers: file.gzipped ? [("Content-Encoding", "gzip")] : [], headOnly: x.headOnly), act)
    }

    private mutating func access(_ x: Exchange, _ connection: inout Connection, _ act: (Action) -> Void) {
        accessRoute(x.request, x.id, &connection, keepAlive: x.keepAlive, unixTime: x.unixTime, act)
    }

    /// The response's bytes; the connection closed after them unless it is kept alive.
    mutating func reply(
        _ x: Exchange, _ connection: inout Connection, _ bytes: [UInt8], _ act: (Action) -> Void
    ) {
        act(.send(connection: x.id, bytes: bytes))
        if !x.keepAlive { close(x.id, &connection, act) }
    }

    mutating func send(
        _ x: Exchange, _ connection: inout Connection, _ status: Int, _ body: String, _ act: (Action) -> Void
    ) {
        reply(
            x, &connection,
            HTTPResponse.make(status: status, body: Array(body.utf8), keepAlive: x.keepAlive, headOnly: x.headOnly),
            act)
    }

    mutating func refuse(
        _ x: Exchange, _ connection: inout Connection, _ status: Int, _ message: String, _ act: (Action) -> Void
    ) {
        reply(x, &connection, HTTPResponse.error(status, message, keepAlive: x.keepAlive), act)
    }
}
