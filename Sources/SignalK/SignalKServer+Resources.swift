import Engine
import Marine

/// The Resources API v2 (`/signalk/v2/api/resources/<kind>[/<id>]`): the crew's routes, waypoints, notes and regions,
/// kept by the shell on the data partition, and the offline charts listed as chart resources. Reads are open to every
/// device that may read; writes (POST, PUT, DELETE) only to those that may change things (the access rules of PUT).
/// What is written is checked here against the reference's schemas before the shell sees it.
extension SignalKServer {
    static let resourcesPath = "/signalk/v2/api/resources"

    /// A request about the resources kept, for the shell.
    public struct ResourceRequest: Hashable, Sendable {
        public enum Operation: Hashable, Sendable {
            /// The list, narrowed; `position` is the boat's (for `distance` without a `position` of its own).
            case list(ResourceFilter, position: GeoPoint?)
            case read(id: String)
            /// A new resource, checked: the shell makes its id.
            case create(JSONValue)
            /// A resource written whole under its id (made if it was not there), checked.
            case replace(id: String, JSONValue)
            case delete(id: String)
        }

        public var kind: ResourceKind
        public var operation: Operation

        public init(kind: ResourceKind, operation: Operation) {
            self.kind = kind
            self.operation = operation
        }
    }

    /// What the Course API asks the shell to go to by href: a waypoint kept, or a route kept.
    public enum CourseTarget: Hashable, Sendable {
        case waypoint(id: String)
        case route(id: String, pointIndex: Int, reverse: Bool)
    }

    mutating func resources(
        _ request: HTTPRequest, _ id: Int, _ connection: inout Connection, model: SignalKModel, keepAlive: Bool,
        _ act: (Action) -> Void
    ) {
        func refuse(_ status: Int, _ message: String) {
            respond(id, &connection, status, Resources.result(status, message: message), keepAlive: keepAlive, act)
        }
        let path = request.path.hasSuffix("/") ? String(request.path.dropLast()) : request.path
        let parts = path.dropFirst(Self.resourcesPath.count).split(separator: "/").map(String.init)
        let isRead = request.method == "GET" || request.method == "HEAD"
        if parts.isEmpty {
            guard isRead else { return refuse(405, "GET only") }
            var json = JSONWriter()
            json.beginObject()
            for kind in ResourceKind.allCases {
                json.beginObject(kind.rawValue)
                json.value("description", "Telltale's \(kind.rawValue)")
                json.value("$source", "telltale")
                json.endObject()
            }
            json.endObject()
            return respond(id, &connection, 200, json.text, keepAlive: keepAlive, act)
        }
        guard parts.count <= 2 else { return refuse(404, "no such resource path") }
        guard let kind = ResourceKind(rawValue: parts[0]) else {
            return refuse(404, "Resource type not found! (\(parts[0]))")
        }
        let resourceId = parts.count == 2 ? parts[1] : nil
        if let resourceId, kind != .charts, !Resources.isIdentifier(resourceId) {
            return refuse(isRead ? 404 : 400, "Invalid resource id provided (\(resourceId))")
        }
        if !isRead {
            guard kind.isWritable else { return refuse(405, "charts are the MBTiles files of the chart folder") }
            if let refused = refusal(connection, token: Self.token(of: request)) {
                counters.refused += 1
                return refuse(refused.status, refused.message)
            }
        }
        // If-chains rather than a switch over (method, id?): such a switch matched nothing in Embedded Swift.
        let operation: ResourceRequest.Operation
        let method = request.method
        if isRead {
            if let resourceId {
                operation = .read(id: resourceId)
            } else {
                switch ResourceFilter.parse(request.query) {
                case .success(let filter): operation = .list(filter, position: model.position)
                case .failure(let error): return refuse(400, error.message)
                }
            }
        } else if (method == "POST" && resourceId == nil) || (method == "PUT" && resourceId != nil) {
            guard let body = JSONValue.parse(request.body, maximumDepth: 8, maximumLength: Resources.largestBody)
            else { return refuse(400, "the body is not JSON (at most \(Resources.largestBody) bytes)") }
            if let why = Resources.problem(kind, body) { return refuse(400, why) }
            operation = resourceId.map { .replace(id: $0, body) } ?? .create(body)
        } else if method == "DELETE", let resourceId {
            operation = .delete(id: resourceId)
        } else if method == "POST" {
            return refuse(405, "POST to the list makes a new one; PUT writes one by its id")
        } else if method == "PUT" || method == "DELETE" {
            return refuse(405, "\(method) needs a resource's id")
        } else {
            return refuse(405, "not with \(method)")
        }
        if !isRead { counters.puts += 1 }
        ask(
            .resource(ResourceRequest(kind: kind, operation: operation)), id, &connection, keepAlive: keepAlive,
            headOnly: request.method == "HEAD", act)
    }
}

extension SignalKModel {
    /// The boat's position now (the preferred source's), for the resources' `distance` filter.
    var position: GeoPoint? {
        let found = entries["navigation.position"] ?? []
        let preferred = preferredSource("navigation.position")
        guard let entry = found.first(where: { $0.source == preferred }) ?? found.first else { return nil }
        if case .position(let latitude, let longitude) = entry.value {
            return GeoPoint(latitude: latitude, longitude: longitude)
        }
        return nil
    }
}
