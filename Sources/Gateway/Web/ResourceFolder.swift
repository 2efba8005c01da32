import Engine
import Marine
import Platform
import SignalK

/// The crew's resources on the card: `resources/<kind>/<id>.json` beside the state file, one file a resource, each
/// written whole or not at all (``POSIX/writeFileAtomically(_:_:mode:)``) and its folder synced after a delete, so a
/// power cut leaves every resource as it was or as it became. Nothing is held in memory between requests: a list
/// reads the folder, so the daemon's memory does not grow with what is kept.
///
/// Bounded: ``largestCount`` resources of a kind and ``largestBytes`` bytes of a kind (a list is read whole into
/// one answer, so this also bounds that answer). The route of `telltale.toml`'s GPX file is listed among the routes
/// under its own id, read-only (it is changed in its file).
final class ResourceFolder {
    static let largestCount = 200
    static let largestBytes = 1 << 20

    /// Nil: resources are kept in memory only for this run (no state file configured).
    let folder: String?
    /// The route of `telltale.toml`, as loaded (and reloaded).
    var configured: Route?
    let log: Log?
    /// Kept in memory when there is no folder: the same bounds.
    private var memory: [ResourceKind: [(id: String, text: String)]] = [:]

    init(folder: String?, configured: Route?, log: Log?) {
        self.folder = folder
        self.configured = configured
        self.log = log
        if let folder {
            for kind in ResourceKind.allCases where kind.isWritable {
                try? POSIX.makeDirectories(folder + "/" + kind.rawValue)
            }
        }
    }

    /// What the Resources API asked: a status and the JSON to answer.
    func answer(_ request: SignalKServer.ResourceRequest, unixTime: Double, random: () -> [UInt8]) -> (Int, String) {
        let kind = request.kind
        switch request.operation {
        case .list(let filter, let position):
            var entries: [(id: String, text: String)] = []
            for entry in all(kind) {
                guard let value = JSONValue.parse(Array(entry.text.utf8), maximumDepth: 10, maximumLength: 1 << 20),
                    Resources.passes(kind, value, filter, position: position)
                else { continue }
                entries.append(entry)
                if let limit = filter.limit, entries.count >= limit { break }
            }
            return (200, Resources.listJSON(entries))
        case .read(let id):
            guard let text = read(kind, id) else {
                return (404, Resources.result(404, message: "Resource not found! (\(id))"))
            }
            return (200, text)
        case .create(let body):
            let id = Resources.identifier(random: random())
            return write(kind, id, body, unixTime: unixTime, status: 201)
        case .replace(let id, let body):
            return write(kind, id, body, unixTime: unixTime, status: 200)
        case .delete(let id):
            if kind == .routes && id == SignalKModel.routeIdentifier && configured != nil {
                return (403, Resources.result(403, message: "the route of telltale.toml is changed in its file"))
            }
            guard read(kind, id) != nil else {
                return (404, Resources.result(404, message: "Resource not found! (\(id))"))
            }
            if let folder {
                let path = folder + "/" + kind.rawValue + "/" + id + ".json"
                guard POSIX.remove(path) else {
                    return (500, Resources.result(500, message: "the card refused to delete it"))
                }
                POSIX.syncFolder(folder + "/" + kind.rawValue)
            } else {
                memory[kind]?.removeAll { $0.id == id }
            }
            log?.info("resources.delete", "resources: \(kind.rawValue) \(id) deleted", [("id", id)])
            return (200, Resources.result(200, id: id))
        }
    }

    /// A route or waypoint kept, as the engine's command (the Course API by href); the refusal otherwise.
    func command(_ target: SignalKServer.CourseTarget) -> Result<EngineCommand, ResourceError> {
        switch target {
        case .waypoint(let id):
            guard let text = read(.waypoints, id), let value = JSONValue.parse(text),
                let waypoint = Resources.waypoint(value)
            else { return .failure(ResourceError("no waypoint \(id) is kept here")) }
            return .success(.destination(waypoint.point))
        case .route(let id, let index, let reverse):
            guard let text = read(.routes, id), let value = JSONValue.parse(Array(text.utf8), maximumLength: 1 << 20),
                let route = Resources.route(value, id: id)
            else { return .failure(ResourceError("no route \(id) is kept here")) }
            guard index < route.waypoints.count else {
                return .failure(ResourceError("the route's points are 0 to \(route.waypoints.count - 1)"))
            }
            if id == SignalKModel.routeIdentifier, var own = configured {
                own.reference = nil
                return .success(.follow(own, pointIndex: index, reverse: reverse))
            }
            return .success(.follow(route, pointIndex: index, reverse: reverse))
        }
    }

    // MARK: The files

    private func path(_ kind: ResourceKind, _ id: String) -> String? {
        folder.map { $0 + "/" + kind.rawValue + "/" + id + ".json" }
    }

    /// Every resource of a kind, in id order (the configured route first).
    private func all(_ kind: ResourceKind) -> [(id: String, text: String)] {
        var entries: [(id: String, text: String)] = []
        if kind == .routes, let configured {
            entries.append((SignalKModel.routeIdentifier, configuredText(configured)))
        }
        guard let folder else { return entries + (memory[kind] ?? []).sorted { $0.id < $1.id } }
        var read = 0
        for name in POSIX.list(folder + "/" + kind.rawValue).sorted() where name.hasSuffix(".json") {
            let id = String(name.dropLast(5))
            guard Resources.isIdentifier(id), read < Self.largestBytes,
                let bytes = try? POSIX.readFile(
                    folder + "/" + kind.rawValue + "/" + name, limit: Resources.largestBody * 2)
            else { continue }
            read += bytes.count
            entries.append((id, String(decoding: bytes, as: UTF8.self)))
        }
        return entries
    }

    private func configuredText(_ route: Route) -> String {
        Resources.routeJSON(route, description: "The route of telltale.toml (its GPX file)")
    }

    private func read(_ kind: ResourceKind, _ id: String) -> String? {
        if kind == .routes && id == SignalKModel.routeIdentifier, let configured { return configuredText(configured) }
        guard let path = path(kind, id) else { return memory[kind]?.first { $0.id == id }?.text }
        guard let bytes = try? POSIX.readFile(path, limit: Resources.largestBody * 2) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func write(_ kind: ResourceKind, _ id: String, _ body: JSONValue, unixTime: Double, status: Int)
        -> (Int, String)
    {
        if kind == .routes && id == SignalKModel.routeIdentifier && configured != nil {
            return (403, Resources.result(403, message: "the route of telltale.toml is changed in its file"))
        }
        let text = Resources.stored(body, timestamp: SignalKTime.text(unixTime: unixTime))
        // The bounds, counting what this write replaces as gone.
        var count = 1
        var bytes = text.utf8.count
        if let folder {
            for name in POSIX.list(folder + "/" + kind.rawValue) where name.hasSuffix(".json") && name != id + ".json" {
                count += 1
                bytes += POSIX.fileSize(folder + "/" + kind.rawValue + "/" + name) ?? 0
            }
        } else {
            for entry in memory[kind] ?? [] where entry.id != id {
                count += 1
                bytes += entry.text.utf8.count
            }
        }
        guard count <= Self.largestCount, bytes <= Self.largestBytes else {
            log?.warning(
                "resources.full", "resources: \(kind.rawValue) full (\(Self.largestCount) of them or 1 MB); refused",
                [("kind", kind.rawValue)])
            return (
                507,
                Resources.result(
                    507, message: "no room: at most \(Self.largestCount) \(kind.rawValue) and 1 MB of them; delete some"
                )
            )
        }
        if let path = path(kind, id) {
            do {
                try POSIX.writeFileAtomically(path, text)
            } catch {
                log?.error("resources.write", "resources: cannot keep \(kind.rawValue) \(id): \(error)", [("id", id)])
                return (500, Resources.result(500, message: "the card refused it: \(error)"))
            }
        } else {
            memory[kind, default: []].removeAll { $0.id == id }
            memory[kind, default: []].append((id, text))
        }
        log?.info("resources.write", "resources: \(kind.rawValue) \(id) kept", [("id", id)])
        return (status, Resources.result(status, id: id))
    }
}
