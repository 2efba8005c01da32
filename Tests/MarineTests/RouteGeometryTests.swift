import Marine
import TestSupport
import Testing

@Suite struct GPXTests {
    @Test("the first <rte> is read, names become IDs, later routes are ignored")
    func route() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
              <!-- a comment with <rtept> in it -->
              <wpt lat="1" lon="1"><name>IGNORED</name></wpt>
              <rte><name>Solent &amp; back</name>
                <rtept lat="50.7650" lon="-1.2980"><name>Cowes</name></rtept>
                <rtept lat="50.7300" lon="-1.2000"><name><![CDATA[Ryde <middle>]]></name></rtept>
                <rtept lat="50.7000" lon="-1.1000"/>
              </rte>
              <rte><rtept lat="0" lon="0"/><rtept lat="1" lon="1"/></rte>
            </gpx>
            """
        let route = try GPX.route(from: text)
        #expect(route.name == "Solent & back")
        #expect(route.waypoints.map(\.id) == ["Cowes", "Ryde <middle>", "WP3"])
        #expect(route.waypoints[0].position == GeoPoint(latitude: 50.765, longitude: -1.298))
        #expect(route.legCount == 2)
    }

    @Test("lat and lon as GPX writers write them: signs, points, spaces around")
    func decimals() throws {
        let text = "<gpx><wpt lat=\" +50.5 \" lon=\"-1.\"/><wpt lat=\".25\" lon=\"-0\"/></gpx>"
        let points = try GPX.route(from: text).waypoints.map { [$0.position.latitude, $0.position.longitude] }
        #expect(points == [[50.5, -1], [0.25, 0]])
    }

    @Test("without a route, the waypoint list is taken in file order")
    func waypoints() throws {
        let text = """
            <gpx version="1.1"><wpt lat="10" lon="20"><name>A</name></wpt><wpt lat="10.1" lon="20.1"><name>B</name>
            </wpt></gpx>
            """
        #expect(try GPX.route(from: text).waypoints.map(\.id) == ["A", "B"])
    }

    struct BadCase: Sendable, CustomTestStringConvertible {
        let text: String
        let line: Int
        let message: String
        var testDescription: String { message }
    }

    @Test(
        "a bad file is rejected with the line and what is wrong",
        arguments: [
            BadCase(
                text: "<gpx>\n<rte>\n<rtept lat=\"91\" lon=\"0\"/>\n</rte></gpx>", line: 3,
                message: "latitude \"91\" is not a number in -90...90"),
            BadCase(
                text: "<gpx>\n<rte>\n<rtept lat=\"1\"/>\n</rte></gpx>", line: 3,
                message: "<rtept> without lat and lon attributes"),
            BadCase(
                text: "<gpx>\n<rte>\n<rtept lat=\"1\" lon=\"2\"></rte>\n</gpx>", line: 3,
                message: "</rte> found where </rtept> was expected"),
            BadCase(text: "<kml></kml>", line: 1, message: "the root element is <kml>, not <gpx>"),
            BadCase(
                text: "<gpx><rte><rtept lat=\"1\" lon=\"2\"/></rte></gpx>", line: 1,
                message: "a route needs at least two points (found 1)"),
            BadCase(
                text: "<gpx>\n<wpt lat=\"1\" lon=\"x\"/>", line: 2,
                message: "longitude \"x\" is not a number in -180...180"),
            // A float parser's forms GPX's xsd:decimal has not (fuzzing, 2026-12-01: "0x10" was read as 16°).
            BadCase(
                text: "<gpx>\n<wpt lat=\"1\" lon=\"0x10\"/>", line: 2,
                message: "longitude \"0x10\" is not a number in -180...180"),
            BadCase(
                text: "<gpx>\n<wpt lat=\"1e1\" lon=\"2\"/>", line: 2,
                message: "latitude \"1e1\" is not a number in -90...90"),
            BadCase(
                text: "<gpx>\n<wpt lat=\"1\" lon=\"2+\"/>", line: 2,
                message: "longitude \"2+\" is not a number in -180...180"),
            BadCase(
                text: "<gpx>\n<wpt lat=\"1.2.3\" lon=\"2\"/>", line: 2,
                message: "latitude \"1.2.3\" is not a number in -90...90"),
        ])
    func badFiles(_ c: BadCase) {
        #expect(throws: GPX.ParseError(line: c.line, message: c.message)) { try GPX.route(from: c.text) }
    }
}

@Suite struct LegGeometryTests {
    let geodesic = Geodesic.wgs84

    @Test(
        "a point set off a leg by a known distance is found at that cross-track and along-track distance",
        arguments: [(-40.0, 3.0), (250.0, 47.0), (1852.0 * 3, -62.0), (-5.0, 12.0)])
    func knownOffsets(offset: Double, latitude: Double) {
        let origin = GeoPoint(latitude: latitude, longitude: 10)
        let destination = geodesic.direct(from: origin, azimuth: 35, distance: 20_000).point
        let leg = geodesic.inverse(origin, destination)
        // Walk 7 km along the leg, then turn a right angle and go `offset` metres (positive to starboard).
        let onLeg = geodesic.direct(from: origin, azimuth: leg.initialAzimuth, distance: 7000)
        let position = geodesic.direct(from: onLeg.point, azimuth: onLeg.finalAzimuth + 90, distance: offset).point
        let located = LegGeometry.locate(position, onLegFrom: origin, azimuth: leg.initialAzimuth)
        #expect(abs(located.crossTrack - offset) < 0.001)
        #expect(abs(located.alongTrack - 7000) < 0.01)
        #expect(geodesic.inverse(located.foot, onLeg.point).distance < 0.01)
    }

    @Test("before the origin the along-track distance is negative; beyond the destination it exceeds the leg")
    func beyondTheEnds() {
        let origin = GeoPoint(latitude: 50, longitude: -1)
        let destination = GeoPoint(latitude: 50.1, longitude: -1)
        let azimuth = geodesic.inverse(origin, destination).initialAzimuth
        let before = LegGeometry.locate(GeoPoint(latitude: 49.99, longitude: -1), onLegFrom: origin, azimuth: azimuth)
        #expect(before.alongTrack < -1000 && abs(before.crossTrack) < 0.01)
        let after = LegGeometry.locate(
            GeoPoint(latitude: 50.11, longitude: -0.999), onLegFrom: origin, azimuth: azimuth)
        #expect(after.alongTrack > geodesic.inverse(origin, destination).distance && after.crossTrack > 0)
    }

    @Test("on a short leg the geodesic XTE agrees with a flat-plane XTE to centimetres")
    func flatPlaneAgreement() {
        let origin = GeoPoint(latitude: 50.76, longitude: -1.30)
        let destination = GeoPoint(latitude: 50.73, longitude: -1.20)
        let position = GeoPoint(latitude: 50.752, longitude: -1.25)
        let located = LegGeometry.locate(
            position, onLegFrom: origin, azimuth: geodesic.inverse(origin, destination).initialAzimuth)
        // Local east/north metres around the origin.
        let metresPerDegreeLatitude = 111_200.0
        let metresPerDegreeLongitude = metresPerDegreeLatitude * cos(50.75 * Double.pi / 180)
        func plane(_ p: GeoPoint) -> (x: Double, y: Double) {
            (
                (p.longitude - origin.longitude) * metresPerDegreeLongitude,
                (p.latitude - origin.latitude) * metresPerDegreeLatitude
            )
        }
        let b = plane(destination)
        let p = plane(position)
        let flat = (p.x * b.y - p.y * b.x) / (b.x * b.x + b.y * b.y).squareRoot()
        #expect(abs(located.crossTrack - flat) < abs(flat) * 0.01)
    }

    @Test("rhumb course along a parallel is 90 and its distance the parallel's arc")
    func rhumbParallel() {
        let result = Rhumb.wgs84.inverse(GeoPoint(latitude: 45, longitude: 0), GeoPoint(latitude: 45, longitude: 1))
        #expect(result.course == 90)
        let e2 = (1 / 298.257_223_563) * (2 - 1 / 298.257_223_563)
        let n = 6_378_137 / (1 - e2 * 0.5).squareRoot()
        #expect(abs(result.distance - n * cos(Double.pi / 4) * Double.pi / 180) < 1e-6)
    }
}

#if canImport(Glibc)
    import Glibc
#endif
