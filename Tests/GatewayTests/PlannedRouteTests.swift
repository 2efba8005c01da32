import Marine
import SignalK
import Testing

@testable import Gateway

/// The plan the gateway keeps to follow: read from the router's `--waypoints` file, timed along its legs.
@Suite struct PlannedRouteTests {
    static let json = """
        {"departure":"2026-08-15T06:00:00Z","eta":"2026-08-15T10:00:00Z","duration_s":14400,"distance_nm":20,
        "waypoints":[{"lat":47,"lon":-3,"time":"2026-08-15T06:00:00Z"},
        {"lat":47.1,"lon":-3,"time":"2026-08-15T08:00:00Z","heading":0,"twa":-45},
        {"lat":47.1,"lon":-2.8,"time":"2026-08-15T10:00:00Z"}]}
        """

    @Test("the waypoints and their times; the time the plan has the boat at the foot of her place on the nearest leg")
    func timed() throws {
        let route = try #require(PlannedRoute(json: Array(Self.json.utf8)))
        #expect(route.eta == "2026-08-15T10:00:00Z")
        #expect(route.points.count == 3)
        let six = try #require(SignalKTime.unixTime("2026-08-15T06:00:00Z"))
        // A quarter of the way up the first leg, a little to the east of it: half an hour after the start.
        let quarter = try #require(route.time(nearest: GeoPoint(latitude: 47.025, longitude: -2.999)))
        #expect(abs(quarter - (six + 1800)) < 1)
        // Halfway along the second (eastward) leg: an hour after the turn.
        let half = try #require(route.time(nearest: GeoPoint(latitude: 47.101, longitude: -2.9)))
        #expect(abs(half - (six + 3 * 3600)) < 1)
        // Past the destination: its time.
        #expect(route.time(nearest: GeoPoint(latitude: 47.1, longitude: -2.5)) == six + 4 * 3600)
    }

    @Test("a file without two timed waypoints, a place off the Earth or a broken file: no route")
    func refused() {
        for text in [
            #"{"waypoints":[{"lat":47,"lon":-3,"time":"2026-08-15T06:00:00Z"}]}"#,
            #"{"waypoints":[{"lat":47,"lon":-3,"time":"2026-08-15T06:00:00Z"},{"lat":47.1,"lon":-3}]}"#,
            #"{"waypoints":[{"lat":97,"lon":-3,"time":"2026-08-15T06:00:00Z"},{"lat":47.1,"lon":-3,"time":"2026-08-15T08:00:00Z"}]}"#,
            #"{"waypoints":[{"lat":47,"lon":-3,"time":"2026-08-15T06:00:00Z"},"#, "", "[]",
        ] {
            #expect(PlannedRoute(json: Array(text.utf8)) == nil, "\(text)")
        }
    }

    @Test("as a route resource: a LineString lon,lat and the names Start, WP1, Destination")
    func resource() throws {
        let route = try #require(PlannedRoute(json: Array(Self.json.utf8)))
        let resource = try #require(JSONValue.parse(route.resource(to: GeoPoint(latitude: 47.1, longitude: -2.8))))
        let coordinates = resource["feature"]?["geometry"]?["coordinates"]?.array ?? []
        #expect(coordinates.count == 3)
        #expect(coordinates.first?.array?.compactMap(\.number) == [-3, 47])
        let names = resource["feature"]?["properties"]?["coordinatesMeta"]?.array?.compactMap { $0["name"]?.string }
        #expect(names == ["Start", "WP1", "Destination"])
        #expect(resource["description"]?.string == "Telltale's weather routing, ETA 2026-08-15T10:00:00Z")
    }
}
