import Marine
import Platform
import SignalK

/// Regions to avoid, read for the router: a GeoJSON file (a FeatureCollection, a Feature or a bare Polygon or
/// MultiPolygon), a Signal K region resource (`{"name", "feature": {...}}`), or the Resources API's list of them
/// (`{"ID": {...}, ...}`). Each polygon's outer ring, (latitude, longitude); its holes are left closed too.
enum RouteRegions {
    static func outlines(_ path: String) throws(CommandError) -> [[GeoPoint]] {
        let bytes: [UInt8]
        do { bytes = try POSIX.readFile(path, limit: 8 << 20) } catch {
            throw CommandError("route plan: \(error)", status: 66)
        }
        guard let json = JSONValue.parse(bytes, maximumDepth: 12, maximumLength: 8 << 20) else {
            throw CommandError("route plan: \(path): not JSON (GeoJSON or Signal K regions)", status: 65)
        }
        var out: [[GeoPoint]] = []
        collect(json, into: &out, depth: 0)
        guard !out.isEmpty else { throw CommandError("route plan: \(path): no polygon in it", status: 65) }
        return out
    }

    static func collect(_ value: JSONValue, into out: inout [[GeoPoint]], depth: Int) {
        guard depth < 4 else { return }
        if let type = value["type"]?.string {
            switch type {
            case "FeatureCollection":
                for feature in value["features"]?.array ?? [] { collect(feature, into: &out, depth: depth + 1) }
            case "Feature":
                if let geometry = value["geometry"] { collect(geometry, into: &out, depth: depth + 1) }
            case "Polygon":
                if let ring = value["coordinates"]?.array?.first { append(ring, to: &out) }
            case "MultiPolygon":
                for polygon in value["coordinates"]?.array ?? [] {
                    if let ring = polygon.array?.first { append(ring, to: &out) }
                }
            default: break
            }
            return
        }
        if let feature = value["feature"] {
            collect(feature, into: &out, depth: depth + 1)
            return
        }
        // The Resources API's list: each entry a region resource.
        if case .object(let entries) = value {
            for (_, entry) in entries.prefix(500) { collect(entry, into: &out, depth: depth + 1) }
        }
    }

    static func append(_ ring: JSONValue, to out: inout [[GeoPoint]]) {
        let points = (ring.array ?? []).prefix(100_000).compactMap { pair -> GeoPoint? in
            guard let values = pair.array, values.count >= 2, let lon = values[0].number, let lat = values[1].number,
                abs(lat) <= 90, abs(lon) <= 360
            else { return nil }
            return GeoPoint(latitude: lat, longitude: lon > 180 ? lon - 360 : lon)
        }
        if points.count >= 3 { out.append(points) }
    }
}
