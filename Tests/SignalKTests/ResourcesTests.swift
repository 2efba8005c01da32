import Engine
import Marine
import TestSupport
import Testing

@testable import SignalK

/// The Resources API's pure half (#40): what each kind must hold (the reference's schemas), the list filters, the
/// ids, what is kept, and the routes and waypoints the Course API goes to by href.
@Suite struct ResourcesTests {
    typealias Harness = StreamTests.Harness

    static let route = #"""
        {"name":"To the bay","description":"Saturday","feature":{"type":"Feature","geometry":{"type":"LineString",
        "coordinates":[[-1.30,50.76],[-1.25,50.78],[-1.20,50.75]]},"properties":{"coordinatesMeta":[{"name":"Start"},
        {"name":"Mark"},{"href":"/resources/waypoints/ac3a3b2d-07e8-4f25-92bc-98e7c92f7f1a"}]}}}
        """#
    static let waypoint =
        #"{"name":"Anchorage","feature":{"type":"Feature","geometry":{"type":"Point","coordinates":[-1.25,50.78]}}}"#
    static let region = #"""
        {"name":"No anchoring","feature":{"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[-1.3,50.7],
        [-1.2,50.7],[-1.2,50.8],[-1.3,50.7]]]}}}
        """#

    func json(_ text: String) throws -> JSONValue { try #require(JSONValue.parse(text)) }

    @Test("a resource of each kind as the reference's schemas have it is taken; each broken one says what is wrong")
    func shapes() throws {
        #expect(Resources.problem(.routes, try json(Self.route)) == nil)
        #expect(Resources.problem(.waypoints, try json(Self.waypoint)) == nil)
        #expect(Resources.problem(.regions, try json(Self.region)) == nil)
        #expect(
            Resources.problem(
                .notes,
                try json(#"{"title":"Fuel","position":{"latitude":50.7,"longitude":-1.3},"mimeType":"text/plain"}"#))
                == nil)
        let broken: [(ResourceKind, String, String)] = [
            (.routes, #"{"name":"x"}"#, "feature"),
            (.routes, #"{"feature":{"geometry":{"type":"LineString","coordinates":[[1,2]]}}}"#, "coordinates"),
            (.routes, #"{"feature":{"geometry":{"type":"Point","coordinates":[1,2]}}}"#, "LineString"),
            (.routes, #"{"feature":{"geometry":{"type":"LineString","coordinates":[[1,2],[181,2]]}}}"#, "coordinates"),
            (.routes, #"{"feature":{"geometry":{"type":"LineString","coordinates":[[1,2],[3,91]]}}}"#, "coordinates"),
            (.routes, #"{"feature":{"geometry":{"type":"LineString","coordinates":[[1,2],[3,4,5]]}}}"#, "coordinates"),
            (.routes, #"{"feature":{"geometry":{"type":"LineString","coordinates":[[1,2],["3",4]]}}}"#, "coordinates"),
            (
                .routes, #"{"distance":-3,"feature":{"geometry":{"type":"LineString","coordinates":[[1,2],[3,4]]}}}"#,
                "distance"
            ),
            (
                .routes,
                #"{"feature":{"geometry":{"type":"LineString","coordinates":[[1,2],[3,4]]},"properties":{"coordinatesMeta":[{"x":1}]}}}"#,
                "coordinatesMeta"
            ),
            (.routes, #"{"name":5,"feature":{"geometry":{"type":"LineString","coordinates":[[1,2],[3,4]]}}}"#, "name"),
            (.waypoints, #"{"feature":{"geometry":{"type":"Point","coordinates":[1]}}}"#, "coordinates"),
            (.waypoints, #"[1,2]"#, "object"),
            (
                .regions, #"{"feature":{"geometry":{"type":"Polygon","coordinates":[[[1,2],[2,2],[1,2]]]}}}"#,
                "coordinates"
            ),
            (.notes, #"{"href":"/resources/routes/elsewhere"}"#, "href"),
            (.notes, #"{"position":{"latitude":95,"longitude":0}}"#, "position"),
            (.charts, #"{"identifier":"x","type":"tilelayer"}"#, "MBTiles"),
        ]
        for (kind, text, word) in broken {
            let why = Resources.problem(kind, try json(text))
            #expect(why?.contains(word) == true, "\(kind) \(text): \(why ?? "taken")")
        }
        // A geometry longer than the bound is refused, whatever the body's size allows.
        let long =
            #"{"feature":{"geometry":{"type":"LineString","coordinates":["#
            + Array(repeating: "[1,2]", count: Resources.largestGeometry + 1).joined(separator: ",") + "]}}}"
        let parsed = try #require(JSONValue.parse(Array(long.utf8), maximumLength: 1 << 20))
        #expect(Resources.problem(.routes, parsed)?.contains("at most") == true)
    }

    @Test("the list's filters: limit, bbox (also across the antimeridian), distance from a position or the boat")
    func filters() throws {
        func filter(_ query: [(String, String)]) -> ResourceFilter? {
            if case .success(let filter) = ResourceFilter.parse(query) { return filter }
            return nil
        }
        let waypoint = try json(Self.waypoint)
        let route = try json(Self.route)
        let around = try #require(filter([("bbox", "[-1.3,50.77,-1.2,50.79]")]))
        #expect(Resources.passes(.waypoints, waypoint, around, position: nil))
        #expect(Resources.passes(.routes, route, around, position: nil))
        let elsewhere = try #require(filter([("bbox", "-1.0,50.0,0.0,50.5")]))
        #expect(!Resources.passes(.waypoints, waypoint, elsewhere, position: nil))
        // West greater than east: the box crosses 180°.
        let pacific = try #require(filter([("bbox", "[170,-20,-170,-10]")]))
        let fiji = try json(#"{"feature":{"geometry":{"type":"Point","coordinates":[179.5,-17]}}}"#)
        let tahiti = try json(#"{"feature":{"geometry":{"type":"Point","coordinates":[-149.5,-17.5]}}}"#)
        #expect(Resources.passes(.waypoints, fiji, pacific, position: nil))
        #expect(!Resources.passes(.waypoints, tahiti, pacific, position: nil))
        // 0.02° of latitude is 2.2 km: within 3 km of the boat, not within 1 km.
        let boat = GeoPoint(latitude: 50.76, longitude: -1.25)
        #expect(Resources.passes(.waypoints, waypoint, try #require(filter([("distance", "3000")])), position: boat))
        #expect(!Resources.passes(.waypoints, waypoint, try #require(filter([("distance", "1000")])), position: boat))
        // With no position known, a distance passes nothing rather than everything.
        #expect(!Resources.passes(.waypoints, waypoint, try #require(filter([("distance", "3000")])), position: nil))
        // The query's own position wins over the boat's.
        let there = try #require(filter([("distance", "3000"), ("position", "[10,10]")]))
        #expect(!Resources.passes(.waypoints, waypoint, there, position: boat))
        #expect(filter([("limit", "20")])?.limit == 20)
        // Hostile or mistaken queries: each refused with the parameter's name.
        for (name, value) in [
            ("limit", "-1"), ("limit", "1e9"), ("limit", "2.5"), ("bbox", "[1,2,3]"), ("bbox", "[0,60,1,50]"),
            ("bbox", "[1,2,3,nan]"), ("bbox", "[" + Array(repeating: "1", count: 100).joined(separator: ",") + "]"),
            ("distance", "-5"), ("distance", "1e400"), ("distance", "x"), ("position", "[200,0]"),
            ("href", "/resources/routes/x"), ("paths", "a,b,c"),
        ] {
            guard case .failure(let error) = ResourceFilter.parse([(name, value)]) else {
                Issue.record("\(name)=\(value) taken")
                continue
            }
            #expect(error.message.hasPrefix(name), "\(error.message)")
        }
    }

    @Test("ids are version 4 UUIDs; what is kept gets its time and source; a route resource becomes the engine's route")
    func keptAndConverted() throws {
        let id = Resources.identifier(random: Array(0..<16))
        #expect(Resources.isIdentifier(id) && id == "00010203-0405-4607-8809-0a0b0c0d0e0f")
        #expect(!Resources.isIdentifier("00010203-0405-1607-8809-0a0b0c0d0e0f"))
        #expect(!Resources.isIdentifier("../../etc/passwd"))
        #expect(Resources.reference("/resources/waypoints/" + id)?.kind == .waypoints)
        #expect(Resources.reference("/signalk/v2/api/resources/routes/" + id)?.id == id)
        #expect(Resources.reference("/resources/boats/" + id) == nil)

        let body = try json(
            #"{"name":"A","timestamp":"1999","$source":"elsewhere","feature":{"geometry":"#
                + #"{"type":"Point","coordinates":[1.5,-2.25]}}}"#)
        let kept = try json(Resources.stored(body, timestamp: "2026-06-21T10:00:00.000Z"))
        #expect(kept["timestamp"]?.string == "2026-06-21T10:00:00.000Z" && kept["$source"]?.string == "telltale")
        #expect(kept["feature"] == body["feature"] && kept["name"]?.string == "A")
        #expect(Resources.waypoint(kept)?.point == GeoPoint(latitude: -2.25, longitude: 1.5))

        let route = try #require(Resources.route(try json(Self.route), id: id))
        #expect(route.name == "To the bay" && route.reference == id)
        // Names from coordinatesMeta; a point given by href (no name) is numbered.
        #expect(route.waypoints.map(\.id) == ["Start", "Mark", "WP3"])
        #expect(route.waypoints[1].position == GeoPoint(latitude: 50.78, longitude: -1.25))
        // And back: the route as a resource reads as the same route.
        let again = try #require(Resources.route(try json(Resources.routeJSON(route, description: "d")), id: id))
        #expect(again.waypoints == route.waypoints)
        #expect(JSONValue.parse(try json(Self.region).text) == (try json(Self.region)))
    }

    @Test(
        "the HTTP side: reads for all, writes checked first and only from who may change things, hrefs for the course")
    func server() throws {
        var h = Harness()
        h.server.opened(1, peer: [127, 0, 0, 1], at: 0)
        h.send(1, AppsTests.request("POST", "/signalk/v2/api/resources/waypoints", Self.waypoint))
        #expect(h.text(1).hasPrefix("HTTP/1.1 200"))
        guard case .create(let body) = h.resources.last?.operation, h.resources.last?.kind == .waypoints else {
            Issue.record("no create: \(h.resources)")
            return
        }
        #expect(body == (try json(Self.waypoint)))

        // Broken, or to the wrong place: refused here, the shell never asked.
        let asked = h.resources.count
        for (method, path, text, status) in [
            ("POST", "/signalk/v2/api/resources/waypoints", #"{"feature":{}}"#, "400"),
            ("POST", "/signalk/v2/api/resources/waypoints", "not json", "400"),
            ("PUT", "/signalk/v2/api/resources/routes/not-an-id", Self.route, "400"),
            ("PUT", "/signalk/v2/api/resources/routes", Self.route, "405"),
            ("DELETE", "/signalk/v2/api/resources/routes", "", "405"),
            ("POST", "/signalk/v2/api/resources/charts", #"{"identifier":"x"}"#, "405"),
            ("GET", "/signalk/v2/api/resources/boats", "", "404"),
            ("GET", "/signalk/v2/api/resources/routes?limit=-4", "", "400"),
            ("GET", "/signalk/v2/api/resources/routes/a/b", "", "404"),
        ] {
            h.sent[1] = []
            h.send(1, AppsTests.request(method, path, text))
            #expect(h.text(1).hasPrefix("HTTP/1.1 " + status), "\(method) \(path): \(h.text(1).prefix(60))")
        }
        #expect(h.resources.count == asked)

        // A body larger than the bound is refused before it is read.
        h.sent[1] = []
        h.send(
            1,
            "POST /signalk/v2/api/resources/routes HTTP/1.1\r\nContent-Length: \(Resources.largestBody + 1)\r\n\r\n")
        #expect(h.text(1).hasPrefix("HTTP/1.1 413"))

        // A device on the boat's Wi-Fi that was not approved reads, and may not write.
        var wifi = Harness()
        wifi.server.opened(2, peer: [192, 168, 4, 20], at: 0)
        wifi.send(2, AppsTests.request("GET", "/signalk/v2/api/resources/routes?bbox=[-2,50,-1,51]&limit=5"))
        guard case .list(let filter, _) = wifi.resources.last?.operation else {
            Issue.record("no list")
            return
        }
        #expect(filter.limit == 5 && filter.box == [-2, 50, -1, 51])
        wifi.sent[2] = []
        wifi.send(
            2, AppsTests.request("DELETE", "/signalk/v2/api/resources/routes/" + Resources.identifier(random: [])))
        #expect(wifi.text(2).hasPrefix("HTTP/1.1 401") && wifi.resources.count == 1)

        // The Course API by href: the shell is asked for the waypoint or route kept.
        let id = Resources.identifier(random: Array(repeating: 7, count: 16))
        h.server.opened(3, peer: [127, 0, 0, 1], at: 0)
        h.sent[3] = []
        h.send(
            3,
            AppsTests.request(
                "PUT", "/signalk/v2/api/vessels/self/navigation/course/destination",
                #"{"href":"/resources/waypoints/\#(id)"}"#))
        h.send(
            3,
            AppsTests.request(
                "PUT", "/signalk/v2/api/vessels/self/navigation/course/activeRoute",
                #"{"href":"/resources/routes/\#(id)","pointIndex":2,"reverse":true}"#))
        #expect(h.courses == [.waypoint(id: id), .route(id: id, pointIndex: 2, reverse: true)])
        h.sent[3] = []
        h.send(
            3,
            AppsTests.request(
                "PUT", "/signalk/v2/api/vessels/self/navigation/course/activeRoute", #"{"href":"/resources/routes/x"}"#)
        )
        #expect(h.text(3).hasPrefix("HTTP/1.1 400") && h.courses.count == 2)
    }
}
