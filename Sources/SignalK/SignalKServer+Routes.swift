import Engine
import Marine

/// The HTTP requests' routes.
extension SignalKServer {
    /// The NMEA 2000 bus's listing.
    static let busPath = "/telltale/v1/n2k"

    /// One HTTP request: where its path leads (discovery, the model and its branches, PUT, the stream's upgrade, the
    /// access requests, the weather, the v2 APIs, the settings, the charts, the fleet, the panel's files).
    mutating func handle(
        _ request: HTTPRequest, _ id: Int, _ connection: inout Connection, model: SignalKModel, at now: Double,
        unixTime: Double, _ act: (Action) -> Void
    ) {
        let keepAlive = request.keepsAlive
        func reply(_ bytes: [UInt8]) {
            act(.send(connection: id, bytes: bytes))
            if !keepAlive { close(id, &connection, act) }
        }
        let path = request.path
        let isRead = request.method == "GET" || request.method == "HEAD"
        if request.method == "OPTIONS" {
            // A browser's CORS preflight, before a PUT from an app served from another origin (the reference server
            // answers it for every origin unless told otherwise: `src/cors.ts`).
            return reply(HTTPResponse.preflight(request, keepAlive: keepAlive))
        }
        if path == "/signalk/v1/stream" || path == "/signalk/v1/stream/" {
            guard request.method == "GET" else {
                return reply(HTTPResponse.error(405, "GET only", keepAlive: keepAlive))
            }
            return upgrade(request, id, &connection, model: model, at: now, unixTime: unixTime, act)
        }
        if path == Self.playbackPath || path == Self.playbackPath + "/" {
            guard request.method == "GET" else {
                return reply(HTTPResponse.error(405, "GET only", keepAlive: keepAlive))
            }
            return upgradePlayback(request, id, &connection, model: model, unixTime: unixTime, act)
        }
        if path == "/signalk" || path == "/signalk/" {
            guard isRead else { return reply(HTTPResponse.error(405, "GET only", keepAlive: keepAlive)) }
            let host = request.header("host") ?? "localhost"
            let body = SignalKModel.discovery(host: host, serverVersion: configuration.serverVersion)
            return reply(
                HTTPResponse.make(
                    status: 200, body: Array(body.utf8), keepAlive: keepAlive, headOnly: request.method == "HEAD"))
        }
        if path == SignalKModel.trackPath && isRead {
            return reply(
                HTTPResponse.make(
                    status: 200, body: Array(model.trackJSON(since: request.parameter("since")).utf8),
                    keepAlive: keepAlive,
                    headOnly: request.method == "HEAD"))
        }
        if path == "/signalk/v1/api" || path.hasPrefix("/signalk/v1/api/") {
            let components = path.dropFirst("/signalk/v1/api".count).split(separator: "/").map(String.init)
            if request.method == "PUT" {
                return put(
                    components, request, id, &connection, model: model, keepAlive: keepAlive, act)
            }
            guard isRead else { return reply(HTTPResponse.error(405, "GET and PUT only", keepAlive: keepAlive)) }
            guard let body = model.branch(components) else {
                return reply(HTTPResponse.error(404, "no such path", keepAlive: keepAlive))
            }
            return reply(
                HTTPResponse.make(
                    status: 200, body: Array(body.utf8), keepAlive: keepAlive, headOnly: request.method == "HEAD"))
        }
        if path.hasPrefix(Self.accessRequestsPath) || path.hasPrefix(Self.requestsPath) || path == Self.accessAdminPath
            || path.hasPrefix(Self.accessAdminPath + "/")
        {
            return accessRoute(request, id, &connection, keepAlive: keepAlive, unixTime: unixTime, act)
        }
        if path == Self.weatherAPIPath || path.hasPrefix(Self.weatherAPIPath + "/") {
            return weatherAPI(request, id, &connection, unixTime: unixTime, keepAlive: keepAlive, act)
        }
        if path == Self.weatherPagePath || path.hasPrefix(Self.weatherPagePath + "/") {
            return weatherPage(request, id, &connection, model: model, unixTime: unixTime, keepAlive: keepAlive, act)
        }
        if path == Self.historyPath || path.hasPrefix(Self.historyPath + "/") {
            return historyAPI(request, id, &connection, model: model, unixTime: unixTime, keepAlive: keepAlive, act)
        }
        if path == "/signalk/v2" || path.hasPrefix("/signalk/v2/") {
            return version2(request, id, &connection, model: model, keepAlive: keepAlive, act)
        }
        if path == Self.notesPath { return notes(request, id, &connection, keepAlive: keepAlive, act) }
        if path == Self.settingsPath || path.hasPrefix(Self.settingsPath + "/") {
            return settings(request, id, &connection, keepAlive: keepAlive, act)
        }
        if path == Self.chartsPath || path.hasPrefix(Self.chartsPath + "/") {
            return charts(request, id, &connection, keepAlive: keepAlive, act)
        }
        guard isRead else { return reply(HTTPResponse.error(405, "GET only", keepAlive: keepAlive)) }
        if path == "/telltale/v1/fleet" {
            // A boat says it is none (every panel asks once at start, and a 404 there is an error in its console).
            let body = fleet ?? #"{"fleet":false}"#
            if fleet != nil { fleetReads += 1 }
            return reply(
                HTTPResponse.make(
                    status: 200, body: Array(body.utf8), keepAlive: keepAlive, headOnly: request.method == "HEAD"))
        }
        if fleet != nil, path.hasPrefix("/telltale/v1/fleet/") {
            var parameters: [String: String] = [:]
            for (name, value) in request.query.prefix(16) { parameters[name] = value }
            let asked = FleetRequest(path: String(path.dropFirst("/telltale/v1/fleet/".count)), parameters: parameters)
            return ask(.fleet(asked), id, &connection, keepAlive: keepAlive, headOnly: request.method == "HEAD", act)
        }
        if path == Self.busPath {
            return ask(.bus, id, &connection, keepAlive: keepAlive, headOnly: request.method == "HEAD", act)
        }
        if path == "/telltale/v1/history" {
            return reply(
                HTTPResponse.make(
                    status: 200, body: Array(model.history.json().utf8), keepAlive: keepAlive,
                    headOnly: request.method == "HEAD"))
        }
        let name = path.hasSuffix("/") ? path + "index.html" : path
        guard let file = configuration.files[name] else {
            return reply(HTTPResponse.error(404, "not found", keepAlive: keepAlive))
        }
        let accepts = request.tokens("accept-encoding").contains { $0 == "gzip" || $0.hasPrefix("gzip;") }
        guard !file.gzipped || accepts else {
            return reply(HTTPResponse.error(406, "this file is served gzip-compressed only", keepAlive: keepAlive))
        }
        reply(
            HTTPResponse.make(
                status: 200, contentType: file.contentType, body: file.bytes, keepAlive: keepAlive,
                headers: file.gzipped ? [("Content-Encoding", "gzip")] : [], headOnly: request.method == "HEAD"))
    }
}
