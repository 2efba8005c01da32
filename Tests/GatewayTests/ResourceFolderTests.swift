import Engine
import Marine
import Platform
import SignalK
import TestSupport
import Testing

@testable import Gateway

/// The crew's resources on the card (#40): kept one file each, read back after a restart, bounded, broken files
/// survived, the configured route read-only among them, and the Course API's hrefs turned into the engine's commands.
@Suite struct ResourceFolderTests {
    typealias Request = SignalKServer.ResourceRequest

    static let route = JSONValue.parse(
        #"{"name":"Passage","feature":{"type":"Feature","geometry":{"type":"LineString","coordinates":"#
            + #"[[-1.3,50.76],[-1.25,50.78],[-1.2,50.75]]},"properties":{"coordinatesMeta":[{"name":"A"},"#
            + #"{"name":"B"},{"name":"C"}]}}}"#)!
    static func waypoint(_ longitude: Double) -> JSONValue {
        JSONValue.parse(
            #"{"name":"W","feature":{"type":"Feature","geometry":{"type":"Point","coordinates":[\#(longitude),50.7]}}}"#
        )!
    }

    func random() -> [UInt8] { (0..<16).map { _ in UInt8.random(in: 0...255) } }

    func id(_ answer: (Int, String)) -> String? { JSONValue.parse(answer.1)?["id"]?.string }

    @Test("made, listed, read, replaced and deleted on the card; there after a restart; each write whole")
    func lifecycle() throws {
        let folder = temporaryFolder("resources")
        let configured = Route(
            name: "Configured",
            waypoints: [
                Waypoint(id: "X", position: GeoPoint(latitude: 50, longitude: -1)),
                Waypoint(id: "Y", position: GeoPoint(latitude: 50.1, longitude: -1)),
            ])
        var resources = ResourceFolder(folder: folder, configured: configured, log: nil)
        let made = resources.answer(
            Request(kind: .routes, operation: .create(Self.route)), unixTime: 1.75e9, random: random)
        #expect(made.0 == 201)
        let routeId = try #require(id(made))
        #expect(Resources.isIdentifier(routeId))
        #expect(POSIX.exists(folder + "/routes/" + routeId + ".json"))
        #expect(POSIX.list(folder + "/routes").allSatisfy { !$0.contains(".tmp") })

        // Another run of the gateway finds it, with its time.
        resources = ResourceFolder(folder: folder, configured: configured, log: nil)
        let read = resources.answer(Request(kind: .routes, operation: .read(id: routeId)), unixTime: 0, random: random)
        let kept = try #require(JSONValue.parse(read.1))
        #expect(
            read.0 == 200 && kept["name"]?.string == "Passage" && kept["timestamp"]?.string?.hasPrefix("2025-") == true)
        let list = try #require(
            JSONValue.parse(
                resources.answer(
                    Request(kind: .routes, operation: .list(ResourceFilter(), position: nil)), unixTime: 0,
                    random: random
                ).1))
        // The configured route is one among them, read-only.
        #expect(list[routeId] != nil && list[SignalKModel.routeIdentifier]?["name"]?.string == "Configured")
        #expect(
            resources.answer(
                Request(kind: .routes, operation: .delete(id: SignalKModel.routeIdentifier)), unixTime: 0,
                random: random
            ).0 == 403)
        #expect(
            resources.answer(
                Request(kind: .routes, operation: .replace(id: SignalKModel.routeIdentifier, Self.route)), unixTime: 0,
                random: random
            ).0 == 403)

        // Replaced whole under its id; a PUT to an id not there makes it.
        var renamed = Self.route
        if case .object(var members) = renamed {
            members[0] = ("name", .string("Renamed"))
            renamed = .object(members)
        }
        #expect(
            resources.answer(
                Request(kind: .routes, operation: .replace(id: routeId, renamed)), unixTime: 0, random: random
            ).0 == 200)
        let again = resources.answer(Request(kind: .routes, operation: .read(id: routeId)), unixTime: 0, random: random)
        #expect(JSONValue.parse(again.1)?["name"]?.string == "Renamed")
        let fresh = Resources.identifier(random: random())
        #expect(
            resources.answer(
                Request(kind: .waypoints, operation: .replace(id: fresh, Self.waypoint(-1.2))), unixTime: 0,
                random: random
            ).0 == 200)

        // Deleted: gone from the card and the list; a second delete is a 404.
        #expect(
            resources.answer(Request(kind: .routes, operation: .delete(id: routeId)), unixTime: 0, random: random).0
                == 200)
        #expect(!POSIX.exists(folder + "/routes/" + routeId + ".json"))
        #expect(
            resources.answer(Request(kind: .routes, operation: .delete(id: routeId)), unixTime: 0, random: random).0
                == 404)
        #expect(
            resources.answer(Request(kind: .routes, operation: .read(id: routeId)), unixTime: 0, random: random).0
                == 404)
    }

    @Test("broken files on the card are left out, not fatal; the count and size bounds refuse more with 507")
    func brokenAndBounded() throws {
        let folder = temporaryFolder("resources-bounds")
        let resources = ResourceFolder(folder: folder, configured: nil, log: nil)
        let good = resources.answer(
            Request(kind: .waypoints, operation: .create(Self.waypoint(-1.25))), unixTime: 0, random: random)
        let goodId = try #require(id(good))
        // A torn file, a file that is not JSON, and a name that is not an id, as a bad card or a hand might leave them.
        try POSIX.writeFileAtomically(
            folder + "/waypoints/" + Resources.identifier(random: random()) + ".json", "{\"na")
        try POSIX.writeFileAtomically(
            folder + "/waypoints/" + Resources.identifier(random: random()) + ".json", "\0\u{1}")
        try POSIX.writeFileAtomically(folder + "/waypoints/notes.txt", "hello")
        let listed = resources.answer(
            Request(kind: .waypoints, operation: .list(ResourceFilter(), position: nil)), unixTime: 0, random: random)
        let list = try #require(JSONValue.parse(listed.1))
        guard case .object(let members) = list else { throw Failure("not an object") }
        #expect(members.map(\.0) == [goodId])

        // Filtered by distance from the boat, and limited.
        var near = ResourceFilter()
        near.distance = 5_000
        for longitude in [-1.0, -1.5, -2.0] {
            _ = resources.answer(
                Request(kind: .waypoints, operation: .create(Self.waypoint(longitude))), unixTime: 0, random: random)
        }
        let boat = GeoPoint(latitude: 50.7, longitude: -1.26)
        let nearby = JSONValue.parse(
            resources.answer(
                Request(kind: .waypoints, operation: .list(near, position: boat)), unixTime: 0, random: random
            ).1)
        if case .object(let found)? = nearby { #expect(found.map(\.0) == [goodId]) } else { Issue.record("no list") }
        var two = ResourceFilter()
        two.limit = 2
        if case .object(let found)? = JSONValue.parse(
            resources.answer(
                Request(kind: .waypoints, operation: .list(two, position: nil)), unixTime: 0, random: random
            ).1)
        {
            #expect(found.count == 2)
        }

        // The count bound: the broken files count as taken room until someone deletes them (they are on the card).
        var answers: [Int] = []
        for _ in 0..<ResourceFolder.largestCount {
            answers.append(
                resources.answer(
                    Request(kind: .waypoints, operation: .create(Self.waypoint(-1.25))), unixTime: 0, random: random
                ).0)
        }
        #expect(answers.filter { $0 == 201 }.count == ResourceFolder.largestCount - 6)
        #expect(answers.last == 507)
        #expect(POSIX.list(folder + "/waypoints").filter { $0.hasSuffix(".json") }.count == ResourceFolder.largestCount)
        // The other kinds are not full.
        #expect(
            resources.answer(Request(kind: .routes, operation: .create(Self.route)), unixTime: 0, random: random).0
                == 201)
    }

    @Test("the Course API by href: a waypoint kept is a destination, a route kept is followed, reversed, from a point")
    func course() throws {
        let folder = temporaryFolder("resources-course")
        let resources = ResourceFolder(folder: folder, configured: nil, log: nil)
        let routeId = try #require(
            id(resources.answer(Request(kind: .routes, operation: .create(Self.route)), unixTime: 0, random: random)))
        let pointId = try #require(
            id(
                resources.answer(
                    Request(kind: .waypoints, operation: .create(Self.waypoint(-1.25))), unixTime: 0, random: random)))
        guard case .success(.destination(let point)) = resources.command(.waypoint(id: pointId)) else {
            Issue.record("no destination")
            return
        }
        #expect(point == GeoPoint(latitude: 50.7, longitude: -1.25))
        guard
            case .success(.follow(let route, let index, let reverse)) = resources.command(
                .route(id: routeId, pointIndex: 1, reverse: true))
        else {
            Issue.record("no route")
            return
        }
        #expect(route.reference == routeId && route.waypoints.map(\.id) == ["A", "B", "C"] && index == 1 && reverse)
        guard case .failure = resources.command(.route(id: routeId, pointIndex: 3, reverse: false)),
            case .failure = resources.command(.waypoint(id: routeId))
        else {
            Issue.record("a point past the end, or a route taken for a waypoint, was taken")
            return
        }

        // The engine follows it: reversed, heading for point 1 of the reversed route (B), the href reported.
        var engine = Engine()
        let followed = engine.follow(route, pointIndex: 1, reverse: true)
        #expect(followed)
        #expect(engine.route.route?.waypoints.map(\.id) == ["C", "B", "A"])
        #expect(engine.route.route?.reference == routeId)
    }
}

struct Failure: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
