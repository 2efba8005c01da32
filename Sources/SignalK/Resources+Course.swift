import Marine

/// Resources as the Course API reads them: a waypoint's point and name, a route's points, a route written back.
extension Resources {

    // MARK: For the Course API

    /// A waypoint's point.
    public static func waypoint(_ value: JSONValue) -> (point: GeoPoint, name: String?)? {
        guard let coordinates = value["feature"]?["geometry"]?["coordinates"], let point = position(coordinates) else {
            return nil
        }
        return (point, value["name"]?.string)
    }

    /// A route resource as the engine's route, its points named from `coordinatesMeta` (else numbered), and the
    /// resource's id kept as its reference.
    public static func route(_ value: JSONValue, id: String) -> Route? {
        guard let coordinates = value["feature"]?["geometry"]?["coordinates"]?.array, coordinates.count >= 2 else {
            return nil
        }
        let meta = value["feature"]?["properties"]?["coordinatesMeta"]?.array ?? []
        var waypoints: [Waypoint] = []
        for (index, item) in coordinates.enumerated() {
            guard let point = position(item) else { return nil }
            let name = index < meta.count ? meta[index]["name"]?.string : nil
            waypoints.append(Waypoint(id: name ?? "WP\(index + 1)", position: point))
        }
        var route = Route(name: value["name"]?.string ?? "route", waypoints: waypoints)
        route.reference = id
        return route
    }

    /// A route as a resource (a GPX file's, or the one followed): a GeoJSON LineString with its points' names.
    public static func routeJSON(_ route: Route, description: String, timestamp: String? = nil) -> String {
        var json = JSONWriter()
        json.beginObject()
        json.value("name", route.name ?? "route")
        json.value("description", description)
        json.value("distance", route.legLengths.reduce(0, +))
        json.beginObject("feature")
        json.value("type", "Feature")
        json.beginObject("geometry")
        json.value("type", "LineString")
        json.beginArray("coordinates")
        for waypoint in route.waypoints {
            json.raw(
                nil,
                "[" + FixedDecimal.text(waypoint.position.longitude, decimals: 7) + ","
                    + FixedDecimal.text(waypoint.position.latitude, decimals: 7) + "]")
        }
        json.endArray()
        json.endObject()
        json.beginObject("properties")
        json.beginArray("coordinatesMeta")
        for waypoint in route.waypoints {
            json.beginObject()
            json.value("name", waypoint.id)
            json.endObject()
        }
        json.endArray()
        json.endObject()
        json.endObject()
        if let timestamp {
            json.value("timestamp", timestamp)
            json.value("$source", "telltale")
        }
        json.endObject()
        return json.text
    }
}
