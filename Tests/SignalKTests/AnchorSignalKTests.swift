import Engine
import Marine
import Testing

@testable import SignalK

/// The anchor watch and the track in Signal K: PUTs as signalk-anchoralarm-plugin takes them, the paths it
/// publishes, the track as @signalk/tracks-plugin serves it.
@Suite struct AnchorSignalKTests {
    func command(_ path: String, _ json: String) -> EngineCommand? {
        var server = SignalKServer(configuration: SignalKServer.Configuration())
        guard case .command(let command) = server.request(path, value: JSONValue.parse(json), refusal: nil) else {
            return nil
        }
        return command
    }

    @Test("PUT navigation.anchor.*: position (null raises), maxRadius, rodeLength; the words of telltale.anchor")
    func puts() {
        #expect(command("navigation.anchor.position", "null") == .anchor(.raise))
        #expect(
            command("navigation.anchor.position", #"{"latitude":50.5,"longitude":-1.25,"altitude":-4}"#)
                == .anchor(.position(GeoPoint(latitude: 50.5, longitude: -1.25))))
        #expect(command("navigation.anchor.maxRadius", "45") == .anchor(.radius(45)))
        #expect(command("navigation.anchor.rodeLength", "30") == .anchor(.rode(30)))
        #expect(command("telltale.anchor.command", #""drop 35""#) == .anchor(.drop(radius: 35)))
        #expect(command("telltale.track.command", #""clear""#) == .clearTrack)
        for (path, json) in [
            ("navigation.anchor.position", #"{"latitude":"x"}"#), ("navigation.anchor.maxRadius", #""far""#),
            ("navigation.anchor.currentRadius", "3"), ("telltale.anchor.command", #""weigh""#),
            ("telltale.track.command", #""save""#),
        ] {
            #expect(command(path, json) == nil, "\(path) \(json)")
        }
        // What the command line sends is what the server reads.
        for anchor: AnchorCommand in [.drop(radius: nil), .drop(radius: 40), .raise, .radius(nil), .rode(25)] {
            let put = EngineCommand.anchor(anchor).signalKPut!
            #expect(command(put.path.split(separator: "/").joined(separator: "."), put.value) == .anchor(anchor))
        }
    }

    @Test("the watch's paths in SI, withdrawn when raised; the drag alarm an emergency")
    func paths() throws {
        var model = SignalKModel(urn: "urn:mrn:signalk:uuid:c0d79334-4e25-4245-8892-54e8ccc8021d")
        var values = InstrumentValues()
        values.anchor = AnchorStatus(
            set: AnchorSet(position: GeoPoint(latitude: 50.5, longitude: -1.25), radius: 40, droppedAt: 0, rode: 30),
            distance: 12.5, bearing: 90, trackFrom: 0)
        let alarm = AlarmStatus(
            path: AlarmKind.anchorDrag.path, number: 171, isActive: true, isAcknowledged: false,
            message: "Anchor dragging")
        model.update(values, alarms: [alarm], at: 1, unixTime: 1_764_000_000)
        #expect(model.entries["navigation.anchor.maxRadius"]?.first?.value == .number(40))
        #expect(model.entries["navigation.anchor.currentRadius"]?.first?.value == .number(12.5))
        #expect(model.entries["navigation.anchor.rodeLength"]?.first?.value == .number(30))
        #expect(
            model.entries["navigation.anchor.position"]?.first?.value == .position(latitude: 50.5, longitude: -1.25))
        guard case .notification(let state, _, _)? = model.entries["notifications.navigation.anchor"]?.first?.value
        else {
            Issue.record("no notification")
            return
        }
        #expect(state == "emergency")
        values.anchor = nil
        model.update(values, alarms: [], at: 2, unixTime: 1_764_000_001)
        #expect(model.entries["navigation.anchor.maxRadius"]?.first == nil)
    }

    @Test("the track as a MultiLineString, one line a segment, since a moment or since the anchor")
    func track() {
        var model = SignalKModel(urn: "urn:mrn:signalk:uuid:c0d79334-4e25-4245-8892-54e8ccc8021d")
        var log = TrackLog(hours: 24, capacity: 100, spacing: 1)
        let start = GeoPoint(latitude: 50, longitude: -1)
        for second in 0..<3 {
            log.add(
                Geodesic.wgs84.direct(from: start, azimuth: 90, distance: Double(second) * 5).point, at: Double(second))
        }
        log.add(start, at: 200)
        model.track = log
        model.trackClockOffset = 1000
        #expect(
            model.trackJSON()
                == #"{"type":"MultiLineString","coordinates":[[[-1.000000,50.000000],[-0.999930,50.000000],[-0.999861,50.000000]],[[-1.000000,50.000000]]]}"#
        )
        #expect(
            model.trackJSON(since: "1001")
                == #"{"type":"MultiLineString","coordinates":[[[-0.999930,50.000000],[-0.999861,50.000000]],[[-1.000000,50.000000]]]}"#
        )
        #expect(model.trackJSON(since: "anchor") == #"{"type":"MultiLineString","coordinates":[]}"#)
        model.swingFrom = 100
        #expect(
            model.trackJSON(since: "anchor") == #"{"type":"MultiLineString","coordinates":[[[-1.000000,50.000000]]]}"#)
    }

    @Test("chart paths: the list, a tile with or without its extension; never a path, a zoom past 24 or off the square")
    func chartPaths() {
        #expect(SignalKServer.chartKind("/charts") == .list)
        #expect(SignalKServer.chartKind("/charts/") == .list)
        #expect(
            SignalKServer.chartKind("/charts/solent/15/16344/10880") == .tile(name: "solent", z: 15, x: 16344, y: 10880)
        )
        #expect(
            SignalKServer.chartKind("/charts/os-map_2.v1/3/7/0.png") == .tile(name: "os-map_2.v1", z: 3, x: 7, y: 0))
        for bad in [
            "/charts/../3/1/1", "/charts/.hidden/1/0/0", "/charts/a/b/1/1/1", "/charts/a/25/0/0", "/charts/a/3/8/0",
            "/charts/a/3/0/-1", "/charts/a%2F/1/0/0", "/charts/a/1/0", "/charts/a/1/0/0/", "/charts/a/99999999999/0/0",
            "/chartsx/a/1/0/0",
        ] {
            #expect(SignalKServer.chartKind(bad) == nil, "\(bad)")
        }
        // The offline base map's bins (#42): one resolution's letter, up to 64 bin numbers.
        #expect(SignalKServer.chartKind("/charts/.basemap/f/14398") == .baseMap(resolution: 0x66, bins: [14398]))
        #expect(SignalKServer.chartKind("/charts/.basemap/c/0,1,161") == .baseMap(resolution: 0x63, bins: [0, 1, 161]))
        let many = (0..<65).map(String.init).joined(separator: ",")
        for bad in [
            "/charts/.basemap/x/1", "/charts/.basemap/f/", "/charts/.basemap/f/1,,2", "/charts/.basemap/f/-1",
            "/charts/.basemap/f/1234567", "/charts/.basemap/ff/1", "/charts/.basemap/f/" + many, "/charts/.basemap/f",
        ] {
            #expect(SignalKServer.chartKind(bad) == nil, "\(bad)")
        }
    }

    @Test("a route as a v2 route resource: a LineString with its points' names")
    func route() throws {
        let route = Route(
            name: "Solent",
            waypoints: [
                Waypoint(id: "Start", position: GeoPoint(latitude: 50.75, longitude: -1.3)),
                Waypoint(id: "Bravo", position: GeoPoint(latitude: 50.8, longitude: -1.25)),
            ])
        let json = try #require(JSONValue.parse(Resources.routeJSON(route, description: "GPX")))
        #expect(json["name"]?.string == "Solent")
        #expect(json["feature"]?["geometry"]?["coordinates"]?.array?.last?.array == [.number(-1.25), .number(50.8)])
        #expect(
            json["feature"]?["properties"]?["coordinatesMeta"]?.array?.map { $0["name"]?.string } == [
                "Start", "Bravo",
            ])
        #expect(Resources.problem(.routes, json) == nil)
    }
}
