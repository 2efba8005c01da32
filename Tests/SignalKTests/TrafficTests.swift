import Engine
import Marine
import NMEA
import TestSupport
import Testing

@testable import SignalK

/// AIS stations in Signal K as signalk-server keeps them: each under its own context by MMSI, in the REST model
/// beside the own vessel, and on the streams that follow other contexts (subscribe=all, or a subscribe for `*`,
/// `vessels.*` or the station's context), never on a stream that follows this boat alone.
@Suite struct TrafficTests {
    typealias Harness = StreamTests.Harness

    static func targets() -> [AISTarget] {
        var ship = AISTarget(mmsi: 235_000_001, station: .vessel, lastHeard: 9)
        ship.position = GeoPoint(latitude: 50.75, longitude: -1.25)
        ship.speedOverGround = 5
        ship.courseOverGround = 90
        ship.heading = 92
        ship.navigationStatus = 0
        ship.name = "EVER DIADEM"
        ship.callsign = "3FOF8"
        ship.toBow = 225
        ship.toStern = 70
        ship.toPort = 1
        ship.toStarboard = 31
        ship.shipType = 70
        ship.positionTime = 9
        var mark = AISTarget(mmsi: 992_351_234, station: .aidToNavigation, lastHeard: 8)
        mark.position = GeoPoint(latitude: 50.668, longitude: -0.9535)
        mark.name = "NAB TOWER"
        mark.aid = AISReport.AidToNavigation(type: 9, isVirtual: false, isOffPosition: false)
        return [ship, mark]
    }

    static func upgrade(_ query: String) -> String {
        "GET /signalk/v1/stream?\(query) HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    }

    @Test(
        "deltas by context: vessels., atons.; SI units; a station unchanged sends nothing again; a forgotten one goes")
    func deltas() throws {
        var model = SignalKModel(urn: "urn:mrn:signalk:uuid:6b0e776f-811a-4b35-980e-b93405371bc5")
        model.take(traffic: Self.targets(), at: 10, unixTime: 1_764_000_010)
        let deltas = model.takeTrafficDeltas()
        #expect(deltas.map(\.context) == ["vessels.urn:mrn:imo:mmsi:235000001", "atons.urn:mrn:imo:mmsi:992351234"])
        let ship = try #require(JSONValue.parse(deltas[0].text))
        let values = ship["updates"]?.array?.first?["values"]?.array ?? []
        func value(_ path: String) -> JSONValue? { values.first { $0["path"]?.string == path }?["value"] }
        #expect(ship["updates"]?.array?.first?["$source"]?.string == "telltale.ais")
        #expect(ship["updates"]?.array?.first?["timestamp"]?.string == "2025-11-24T16:00:09.000Z")
        #expect(value("navigation.speedOverGround")?.number == 5)
        #expect(abs((value("navigation.courseOverGroundTrue")?.number ?? 0) - .pi / 2) < 1e-6)
        #expect(value("navigation.state")?.string == "motoring" && value("design.length")?["overall"]?.number == 295)
        #expect(
            value("design.aisShipType")?["name"]?.string == "Cargo ship" && value("sensors.ais.class")?.string == "A")
        #expect(values.contains { $0["path"]?.string == "" && $0["value"]?["name"]?.string == "EVER DIADEM" })
        model.take(traffic: Self.targets(), at: 11, unixTime: 1_764_000_011)
        #expect(model.takeTrafficDeltas().isEmpty, "nothing new, nothing sent")
        model.take(traffic: [Self.targets()[0]], at: 12, unixTime: 1_764_000_012)
        #expect(model.traffic.stations.map(\.mmsi) == [235_000_001])
    }

    @Test("REST: the vessels beside the own, a station's branch and leaf, the aids under atons; 404 for one not heard")
    func rest() throws {
        var h = Harness()
        h.model.take(traffic: Self.targets(), at: 10, unixTime: 1_764_000_010)
        h.server.opened(1, peer: [127, 0, 0, 1], at: 0)
        h.send(1, AppsTests.request("GET", "/signalk/v1/api/vessels"))
        let vessels = try #require(AccessTests.body(h.text(1)))
        #expect(vessels["urn:mrn:imo:mmsi:235000001"]?["name"]?.string == "EVER DIADEM")
        #expect(vessels["urn:mrn:imo:mmsi:235000001"]?["mmsi"]?.string == "235000001")
        #expect(vessels["urn:mrn:signalk:uuid:6b0e776f-811a-4b35-980e-b93405371bc5"] != nil)
        #expect(vessels["urn:mrn:imo:mmsi:992351234"] == nil, "an aid to navigation is not a vessel")
        h.sent[1] = []
        h.send(1, AppsTests.request("GET", "/signalk/v1/api/vessels/urn:mrn:imo:mmsi:235000001/navigation/position"))
        #expect(
            h.text(1).hasPrefix("HTTP/1.1 200") && h.text(1).contains(#""value":{"latitude":50.75,"longitude":-1.25}"#))
        #expect(h.text(1).contains(#""$source":"telltale.ais""#))
        h.sent[1] = []
        h.send(1, AppsTests.request("GET", "/signalk/v1/api/atons/urn:mrn:imo:mmsi:992351234"))
        #expect(h.text(1).contains(#""name":"NAB TOWER""#) && h.text(1).contains(#""atonType":{"value":{"id":9}"#))
        h.sent[1] = []
        h.send(1, AppsTests.request("GET", "/signalk/v1/api/vessels/urn:mrn:imo:mmsi:235999999"))
        #expect(h.text(1).hasPrefix("HTTP/1.1 404"))
        h.sent[1] = []
        h.send(1, AppsTests.request("GET", "/signalk/v1/api/"))
        #expect(h.text(1).contains(#""atons":{"urn:mrn:imo:mmsi:992351234":"#))
    }

    @Test("streams: self never gets AIS; all does; vessels.* with a path, one vessel's context, unsubscribe *")
    func streams() {
        var h = Harness()
        for (id, query) in [(1, "subscribe=self"), (2, "subscribe=all"), (3, "subscribe=none"), (4, "subscribe=none")] {
            h.server.opened(id, peer: [127, 0, 0, 1], at: 0)
            h.send(id, Self.upgrade(query))
        }
        h.send(3, AppsTests.frame(#"{"context":"vessels.*","subscribe":[{"path":"navigation.position"}]}"#))
        h.send(4, AppsTests.frame(#"{"context":"atons.urn:mrn:imo:mmsi:992351234","subscribe":[{"path":"*"}]}"#))
        for id in 1...4 { h.sent[id] = [] }
        var model = h.model
        model.take(traffic: Self.targets(), at: 10, unixTime: 1_764_000_010)
        let deltas = model.takeTrafficDeltas()
        h.drive(at: 10) { server, _, act in server.publishTraffic(deltas, act) }
        #expect(!h.text(1).contains("mmsi"), "a stream on this boat alone gets no AIS")
        #expect(h.text(2).contains("vessels.urn:mrn:imo:mmsi:235000001") && h.text(2).contains("atons.urn:mrn:imo"))
        #expect(h.text(3).contains("vessels.urn:mrn:imo:mmsi:235000001") && !h.text(3).contains("atons."))
        #expect(!h.text(4).contains("vessels.urn:mrn:imo") && h.text(4).contains("atons.urn:mrn:imo:mmsi:992351234"))
        h.send(2, AppsTests.frame(#"{"context":"*","unsubscribe":[{"path":"*"}]}"#))
        h.sent[2] = []
        model.take(
            traffic: Self.targets().map {
                var t = $0
                t.lastHeard += 1
                return t
            }, at: 11, unixTime: 1_764_000_011)
        let again = model.takeTrafficDeltas()
        h.drive(at: 11) { server, _, act in server.publishTraffic(again, act) }
        #expect(again.count == 2 && !h.text(2).contains("mmsi"), "unsubscribed from everything")
    }

    @Test("every AIS ship type is named as the specification's schema lists it, and one it does not list is left out")
    func shipTypes() throws {
        // The schema copied under Tests/Interop/signalk-schemas (CC BY-SA 2.0): design.aisShipType's allowed pairs.
        let path = projectFixtures() + "/../Tests/Interop/signalk-schemas/groups/design.json"
        let schema = try #require(readFile(path).flatMap { JSONValue.parse(String(decoding: $0, as: UTF8.self)) })
        func allowed(_ value: JSONValue) -> [JSONValue]? {
            if let list = value["enum"]?.array, list.first?["id"] != nil { return list }
            var children = value.array ?? []
            if case .object(let members) = value { children = members.map { $0.1 } }
            for child in children {
                if let found = allowed(child) { return found }
            }
            return nil
        }
        let pairs = try #require(allowed(schema))
        var names: [Int: String] = [:]
        for pair in pairs {
            names[Int(try #require(pair["id"]?.number))] = try #require(pair["name"]?.string)
        }
        #expect(names.count == 78)
        for id in 0...255 {
            #expect(SignalKTraffic.shipType(id) == names[id], "type \(id)")
        }
    }
}
