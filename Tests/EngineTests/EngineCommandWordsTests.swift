import Engine
import Marine
import Testing

/// What the log says of a crew's command: a few words, a route named and counted, never written out.
@Suite struct EngineCommandWordsTests {
    @Test("each command in a few words; a place to a metre; the anchor's words as the command line reads them")
    func words() {
        #expect(EngineCommand.route(.advance).words == "route advance")
        #expect(EngineCommand.race(.sync).words == "race sync")
        #expect(EngineCommand.acknowledge(.shallow).words == "acknowledge shallow")
        #expect(EngineCommand.clear(.crossTrack).words == "clear xte")
        #expect(
            EngineCommand.destination(GeoPoint(latitude: 46.512345, longitude: -6.6321)).words
                == "destination 46.51235,-6.63210")
        #expect(EngineCommand.arrivalCircle(50).words == "arrival circle 50 m")
        #expect(EngineCommand.routePoint(2).words == "route point 2")
        #expect(EngineCommand.button(.hold).words == "button hold")
        #expect(EngineCommand.anchor(.drop(radius: 40)).words == "anchor drop 40")
        #expect(EngineCommand.anchor(.raise).words == "anchor raise")
        #expect(
            EngineCommand.anchor(.position(GeoPoint(latitude: 50, longitude: -1))).words
                == "anchor at 50.00000,-1.00000")
        #expect(EngineCommand.clearTrack.words == "clear track")
    }

    @Test("a route of 500 points is said in one short line: its name (cut at 40 characters), its count, where from")
    func routeNamedNotWritten() {
        let points = (0..<500).map {
            Waypoint(id: "P\($0)", position: GeoPoint(latitude: 50 + Double($0) / 1000, longitude: -1))
        }
        let routed = Route(name: "Routed to Cherbourg", waypoints: points)
        #expect(
            EngineCommand.follow(routed, pointIndex: 1, reverse: false).words
                == "follow \"Routed to Cherbourg\" (500 points) from point 1")
        let long = Route(name: String(repeating: "n", count: 300), waypoints: Array(points.prefix(2)))
        let said = EngineCommand.follow(long, pointIndex: 0, reverse: true).words
        #expect(said == "follow \"" + String(repeating: "n", count: 39) + "…\" (2 points) from point 0, reversed")
        #expect(EngineCommand.follow(Route(waypoints: points), pointIndex: 3, reverse: false).words.utf8.count < 40)
    }

    @Test("a kind leaves out numbers, names and places: one kind for every destination, two for two alarms")
    func kinds() {
        let here = GeoPoint(latitude: 50, longitude: -1)
        let there = GeoPoint(latitude: 46.5, longitude: 6.6)
        #expect(EngineCommand.destination(here).kind == "destination")
        #expect(EngineCommand.destination(here).kind == EngineCommand.destination(there).kind)
        #expect(EngineCommand.anchor(.drop(radius: 40)).kind == EngineCommand.anchor(.drop(radius: nil)).kind)
        #expect(EngineCommand.anchor(.drop(radius: 40)).kind != EngineCommand.anchor(.radius(40)).kind)
        #expect(EngineCommand.anchor(.position(here)).kind == "anchor at")
        #expect(EngineCommand.acknowledge(.shallow).kind != EngineCommand.acknowledge(.overHeel).kind)
        #expect(EngineCommand.acknowledge(.shallow).kind != EngineCommand.silence(.shallow).kind)
        #expect(EngineCommand.route(.advance).kind == "route advance")
        #expect(EngineCommand.arrivalCircle(50).kind == EngineCommand.arrivalCircle(80).kind)
        #expect(EngineCommand.routePoint(2).kind == "route point")
        let points = [Waypoint(id: "1", position: here), Waypoint(id: "2", position: there)]
        let route = Route(name: "A", waypoints: points)
        let other = Route(name: "B", waypoints: points)
        #expect(
            EngineCommand.follow(route, pointIndex: 1, reverse: false).kind
                == EngineCommand.follow(other, pointIndex: 0, reverse: true).kind)
    }
}
