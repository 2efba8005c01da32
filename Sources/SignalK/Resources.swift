import Marine

/// Signal K's resources, as the Resources API v2 serves them (`/signalk/v2/api/resources/<kind>`, signalk-server's
/// `src/api/resources` and the shapes of `packages/server-api/src/typebox/resources-schemas.ts`): what a resource of
/// each kind must hold, the list filters (`bbox`, `distance`, `limit`, `href`), and the conversions the Course API
/// needs (a waypoint to a point, a route to the engine's ``Route``). Pure: the shell keeps the files.
public enum ResourceKind: String, CaseIterable, Hashable, Sendable {
    case routes, waypoints, notes, regions, charts

    /// Whether the crew can write this kind here (the charts are the MBTiles files of the chart folder).
    public var isWritable: Bool { self != .charts }
}

/// Why a resource or a query was refused: the words of a 400.
public struct ResourceError: Error, Hashable, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

/// What the Resources API checks and converts.
public enum Resources {
    /// The bounds of one resource: a body larger is refused before it is read, a geometry longer is refused.
    public static let largestBody = 65_536
    public static let largestGeometry = 4_000

    /// A version 4 UUID as Signal K writes a resource's id.
    public static func isIdentifier(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            switch index {
            case 8, 13, 18, 23: guard byte == UInt8(ascii: "-") else { return false }
            case 14: guard byte == UInt8(ascii: "4") else { return false }
            case 19: guard "89abAB".utf8.contains(byte) else { return false }
            default: guard isHex(byte) else { return false }
            }
        }
        return true
    }

    static func isHex(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x66) || (byte >= 0x41 && byte <= 0x46)
    }

    /// A version 4 UUID from 16 random bytes (the shell draws them).
    public static func identifier(random: [UInt8]) -> String {
        var bytes = Array(random.prefix(16))
        while bytes.count < 16 { bytes.append(0) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The kind and id of `/resources/<kind>/<id>` (also with `/signalk/v2/api` before it); nil otherwise.
    public static func reference(_ href: String) -> (kind: ResourceKind, id: String)? {
        let parts = href.split(separator: "/").map(String.init)
        guard parts.count >= 3, parts[parts.count - 3] == "resources",
            let kind = ResourceKind(rawValue: parts[parts.count - 2]), isIdentifier(parts[parts.count - 1])
        else { return nil }
        return (kind, parts[parts.count - 1])
    }

    // MARK: What each kind holds

    /// Nil when `body` is a resource of `kind` as the reference's schemas have it; else what is wrong.
    public static func problem(_ kind: ResourceKind, _ body: JSONValue) -> String? {
        guard case .object = body else { return "a resource is a JSON object" }
        for key in ["name", "description", "type", "title", "mimeType", "url"] {
            if let value = body[key], value.string == nil { return "\(key): a string" }
        }
        switch kind {
        case .routes:
            if let distance = body["distance"], !(distance.number.map { $0 >= 0 && $0.isFinite } ?? false) {
                return "distance: metres, not negative"
            }
            guard let feature = body["feature"] else { return "feature: the route's GeoJSON feature is missing" }
            if let why = geometryProblem(feature, ["LineString"]) { return why }
            if let properties = feature["properties"] {
                guard case .object = properties else { return "feature.properties: an object" }
                if let meta = properties["coordinatesMeta"] {
                    guard let items = meta.array else { return "feature.properties.coordinatesMeta: an array" }
                    for item in items {
                        let named = item["name"]?.string != nil
                        let linked = item["href"]?.string.flatMap(reference) != nil
                        guard named || linked else {
                            return "feature.properties.coordinatesMeta: each {\"name\": ...} or {\"href\": ...}"
                        }
                    }
                }
            }
        case .waypoints:
            guard let feature = body["feature"] else { return "feature: the waypoint's GeoJSON feature is missing" }
            if let why = geometryProblem(feature, ["Point"]) { return why }
            if let properties = feature["properties"], !isObject(properties) { return "feature.properties: an object" }
        case .regions:
            guard let feature = body["feature"] else { return "feature: the region's GeoJSON feature is missing" }
            if let why = geometryProblem(feature, ["Polygon", "MultiPolygon"]) { return why }
            if let properties = feature["properties"], !isObject(properties) { return "feature.properties: an object" }
        case .notes:
            if let href = body["href"], href.string.flatMap(reference) == nil {
                return "href: /resources/<kind>/<id>"
            }
            if let position = body["position"], point(position) == nil {
                return "position: {\"latitude\": -90…90, \"longitude\": -180…180}"
            }
            if let properties = body["properties"], !isObject(properties) { return "properties: an object" }
        case .charts:
            return "charts are the MBTiles files of the chart folder, not written here"
        }
        return nil
    }

    static func isObject(_ value: JSONValue) -> Bool {
        if case .object = value { return true }
        return false
    }

    /// Nil when `feature.geometry` is one of `types` with good coordinates.
    static func geometryProblem(_ feature: JSONValue, _ types: [String]) -> String? {
        guard isObject(feature) else { return "feature: an object" }
        if let type = feature["type"], type.string != "Feature" { return "feature.type: \"Feature\"" }
        guard let geometry = feature["geometry"], let type = geometry["type"]?.string, types.contains(type) else {
            return "feature.geometry: a GeoJSON " + types.joined(separator: " or ")
        }
        guard let coordinates = geometry["coordinates"] else { return "feature.geometry.coordinates: missing" }
        var count = 0
        func positions(_ value: JSONValue, least: Int) -> Bool {
            guard let items = value.array, items.count >= least else { return false }
            count += items.count
            return count <= largestGeometry && items.allSatisfy { position($0) != nil }
        }
        let good: Bool
        switch type {
        case "Point": good = position(coordinates) != nil
        case "LineString": good = positions(coordinates, least: 2)
        case "Polygon": good = coordinates.array.map { $0.allSatisfy { positions($0, least: 4) } } ?? false
        default:
            good =
                coordinates.array.map { $0.allSatisfy { $0.array?.allSatisfy { positions($0, least: 4) } ?? false } }
                ?? false
        }
        guard good else {
            return "feature.geometry.coordinates: [longitude, latitude] pairs in degrees as a GeoJSON \(type) has them"
                + (count > largestGeometry ? " (at most \(largestGeometry) points)" : "")
        }
        return nil
    }

    /// `[longitude, latitude]` as a point; nil when it is not exactly that, in range.
    public static func position(_ value: JSONValue) -> GeoPoint? {
        guard let pair = value.array, pair.count == 2, let longitude = pair[0].number, let latitude = pair[1].number,
            abs(longitude) <= 180, abs(latitude) <= 90
        else { return nil }
        return GeoPoint(latitude: latitude, longitude: longitude)
    }

    /// `{"latitude": ..., "longitude": ...}` as a point.
    public static func point(_ value: JSONValue) -> GeoPoint? {
        guard let latitude = value["latitude"]?.number, let longitude = value["longitude"]?.number,
            abs(latitude) <= 90, abs(longitude) <= 180
        else { return nil }
        if let altitude = value["altitude"], altitude.number?.isFinite != true { return nil }
        return GeoPoint(latitude: latitude, longitude: longitude)
    }

    // MARK: Kept and listed

    /// The resource as kept: `body` with the time it was written and its source (those two replaced if sent).
    public static func stored(_ body: JSONValue, timestamp: String) -> String {
        guard case .object(var members) = body else { return body.text }
        members.removeAll { $0.0 == "timestamp" || $0.0 == "$source" }
        members.append(("timestamp", .string(timestamp)))
        members.append(("$source", .string("telltale")))
        return JSONValue.object(members).text
    }

    /// The points a resource is drawn with, for the filters.
    static func points(_ kind: ResourceKind, _ value: JSONValue) -> [GeoPoint] {
        if kind == .notes { return value["position"].flatMap(point).map { [$0] } ?? [] }
        guard let coordinates = value["feature"]?["geometry"]?["coordinates"] else { return [] }
        var found: [GeoPoint] = []
        func walk(_ value: JSONValue, depth: Int) {
            if let point = position(value) { return found.append(point) }
            guard depth < 4, let items = value.array else { return }
            for item in items { walk(item, depth: depth + 1) }
        }
        walk(coordinates, depth: 0)
        return found
    }

    /// Whether a kept resource passes `filter`; `position` is where distances are measured from (the query's, else
    /// the boat's; with neither, `distance` passes nothing).
    public static func passes(
        _ kind: ResourceKind, _ value: JSONValue, _ filter: ResourceFilter, position: GeoPoint?
    ) -> Bool {
        if let href = filter.href {
            guard let own = value["href"]?.string.flatMap(reference), let asked = reference(href),
                own.kind == asked.kind, own.id == asked.id
            else { return false }
        }
        guard filter.box != nil || filter.distance != nil else { return true }
        let points = points(kind, value)
        if let box = filter.box {
            let inside = points.contains { point in
                let west = box[0]
                let east = box[2]
                let longitude = point.longitude
                let across =
                    west <= east ? longitude >= west && longitude <= east : longitude >= west || longitude <= east
                return across && point.latitude >= box[1] && point.latitude <= box[3]
            }
            guard inside else { return false }
        }
        if let distance = filter.distance {
            guard let from = filter.position ?? position else { return false }
            let geodesic = Geodesic.wgs84
            guard points.contains(where: { geodesic.inverse(from, $0).distance <= distance }) else { return false }
        }
        return true
    }

    /// `{"<id>": <resource>, ...}` from kept texts.
    public static func listJSON(_ entries: [(id: String, text: String)]) -> String {
        var json = JSONWriter()
        json.beginObject()
        for entry in entries { json.raw(entry.id, entry.text) }
        json.endObject()
        return json.text
    }

    /// Signal K's answer to a write: `{"state": "COMPLETED", "statusCode": 201, "id": ...}` and the like.
    public static func result(_ status: Int, id: String? = nil, message: String? = nil) -> String {
        var json = JSONWriter()
        json.beginObject()
        json.value("state", status < 300 ? "COMPLETED" : "FAILED")
        json.value("statusCode", status)
        if let id { json.value("id", id) }
        if let message { json.value("message", message) }
        json.endObject()
        return json.text
    }
}
