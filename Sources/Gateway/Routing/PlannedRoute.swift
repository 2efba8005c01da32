import Marine
import SignalK

/// What the gateway keeps of a plan it may follow: its waypoints and when the plan has the boat at each. Read once,
/// when the router ends, from the small file it writes beside the plan (`route plan --waypoints`): the plan itself
/// (its isochrones, tens of kilobytes) stays on the card and is read only when the panel asks for it.
struct PlannedRoute: Sendable {
    struct Point: Sendable {
        var place: GeoPoint
        var time: Double
    }

    var eta: String
    var points: [Point]

    /// The route of the router's `--waypoints` JSON; nil when it holds fewer than two waypoints with places and times.
    init?(json bytes: [UInt8]) {
        guard let plan = JSONValue.parse(bytes, maximumDepth: 4, maximumLength: 1 << 20),
            let waypoints = plan["waypoints"]?.array
        else { return nil }
        points = waypoints.compactMap { w -> Point? in
            guard let lat = w["lat"]?.number, let lon = w["lon"]?.number, abs(lat) <= 90, abs(lon) <= 180,
                let time = w["time"]?.string, let unix = SignalKTime.unixTime(time)
            else { return nil }
            return Point(place: GeoPoint(latitude: lat, longitude: lon), time: unix)
        }
        guard points.count >= 2, points.count == waypoints.count else { return nil }
        eta = plan["eta"]?.string ?? ""
    }

    /// When the plan has the boat at the point of its route nearest `point`: along that leg, in proportion.
    func time(nearest point: GeoPoint) -> Double? {
        var best: (distance: Double, time: Double)?
        for (a, b) in zip(points, points.dropFirst()) {
            // On a flat chart round the leg: the fraction along it of the point's foot, and how far off it is.
            let shrink = cos(a.place.latitude * Double.pi / 180)
            let bx = (b.place.longitude - a.place.longitude) * shrink
            let by = b.place.latitude - a.place.latitude
            let px = (point.longitude - a.place.longitude) * shrink
            let py = point.latitude - a.place.latitude
            let length = bx * bx + by * by
            let fraction = length > 0 ? min(max((px * bx + py * by) / length, 0), 1) : 0
            let dx = px - fraction * bx
            let dy = py - fraction * by
            let distance = dx * dx + dy * dy
            if best.map({ distance < $0.distance }) ?? true {
                best = (distance, a.time + fraction * (b.time - a.time))
            }
        }
        return best?.time
    }

    /// The route as a Signal K route resource: Start, WP1..., Destination.
    func resource(to: GeoPoint) -> String {
        var out = JSONWriter()
        out.beginObject()
        out.value("name", "Routed to " + RoutingService.place(to))
        out.value("description", "Telltale's weather routing, ETA " + eta)
        out.beginObject("feature")
        out.value("type", "Feature")
        out.beginObject("geometry")
        out.value("type", "LineString")
        out.beginArray("coordinates")
        for point in points { out.raw(nil, "[\(point.place.longitude),\(point.place.latitude)]") }
        out.endArray()
        out.endObject()
        out.beginObject("properties")
        out.beginArray("coordinatesMeta")
        for index in points.indices {
            out.beginObject()
            out.value("name", index == 0 ? "Start" : index == points.count - 1 ? "Destination" : "WP\(index)")
            out.endObject()
        }
        out.endArray()
        out.endObject()
        out.endObject()
        out.endObject()
        return out.text
    }
}
