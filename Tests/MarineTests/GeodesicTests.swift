import Marine
import TestSupport
import Testing

/// Geodesy against the vectors GeographicLib's GeodSolve and RhumbSolve produced (see Vectors/make-vectors.py).
@Suite struct GeodesicTests {
    static func vectors(_ name: String, filePath: String = #filePath) -> [[Double]] {
        var components = filePath.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        components.removeLast()
        let path = components.joined(separator: "/") + "/Vectors/" + name
        let text = String(decoding: readFile(path) ?? [], as: UTF8.self)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            line.split(separator: " ").compactMap { Double($0) }
        }
    }

    static func angleError(_ a: Double, _ b: Double) -> Double { abs(Angle.difference(from: a, to: b)) }

    @Test("inverse: within 1 mm and 1e-6 degrees of GeodSolve, near-antipodal and polar points included")
    func inverse() throws {
        let cases = GeodesicTests.vectors("geodesic-inverse.txt")
        #expect(cases.count > 700)
        var worstDistance = 0.0
        var worstAzimuth = 0.0
        for c in cases {
            let result = Geodesic.wgs84.inverse(
                GeoPoint(latitude: c[0], longitude: c[1]), GeoPoint(latitude: c[2], longitude: c[3]))
            worstDistance = max(worstDistance, abs(result.distance - c[6]))
            // Azimuths are undefined for coincident points and at a pole; compare where they mean something.
            if c[6] > 1e-3 && abs(c[0]) < 90 && abs(c[2]) < 90 {
                worstAzimuth = max(worstAzimuth, GeodesicTests.angleError(result.initialAzimuth, c[4]))
                worstAzimuth = max(worstAzimuth, GeodesicTests.angleError(result.finalAzimuth, c[5]))
            }
            if abs(result.distance - c[6]) > 0.001 { Issue.record("inverse \(c): got \(result)") }
        }
        print(
            "geodesic inverse: \(cases.count) cases, worst distance error \(worstDistance) m, worst azimuth error "
                + "\(worstAzimuth) deg")
        #expect(worstDistance < 0.001)
        #expect(worstAzimuth < 1e-6)
    }

    @Test("direct: within 1 mm and 1e-6 degrees of GeodSolve")
    func direct() {
        let cases = GeodesicTests.vectors("geodesic-direct.txt")
        #expect(cases.count > 400)
        var worstPosition = 0.0
        var worstAzimuth = 0.0
        for c in cases {
            let result = Geodesic.wgs84.direct(
                from: GeoPoint(latitude: c[0], longitude: c[1]), azimuth: c[2],
                distance: c[3])
            // Position error in metres, measured by our own inverse between the two answers (tiny distances).
            let error = Geodesic.wgs84.inverse(result.point, GeoPoint(latitude: c[4], longitude: c[5])).distance
            worstPosition = max(worstPosition, error)
            worstAzimuth = max(worstAzimuth, GeodesicTests.angleError(result.finalAzimuth, c[6]))
        }
        print(
            "geodesic direct: \(cases.count) cases, worst position error \(worstPosition) m, worst azimuth error "
                + "\(worstAzimuth) deg")
        #expect(worstPosition < 0.001)
        #expect(worstAzimuth < 1e-6)
    }

    @Test("rhumb line: within 1 mm of RhumbSolve, courses within 1e-6 degrees")
    func rhumb() {
        let cases = GeodesicTests.vectors("rhumb-inverse.txt")
        #expect(cases.count > 400)
        var worstDistance = 0.0
        var worstCourse = 0.0
        for c in cases {
            let result = Rhumb.wgs84.inverse(
                GeoPoint(latitude: c[0], longitude: c[1]),
                GeoPoint(latitude: c[2], longitude: c[3]))
            worstDistance = max(worstDistance, abs(result.distance - c[5]))
            worstCourse = max(worstCourse, GeodesicTests.angleError(result.course, c[4]))
        }
        print(
            "rhumb: \(cases.count) cases, worst distance error \(worstDistance) m, worst course error "
                + "\(worstCourse) deg")
        #expect(worstDistance < 0.001)
        #expect(worstCourse < 1e-6)
    }

    @Test("a hand-checkable case: one degree of longitude along the equator is a·π/180")
    func equator() {
        let result = Geodesic.wgs84.inverse(GeoPoint(latitude: 0, longitude: 0), GeoPoint(latitude: 0, longitude: 1))
        #expect(abs(result.distance - 6_378_137 * Double.pi / 180) < 1e-6)
        #expect(result.initialAzimuth == 90 && result.finalAzimuth == 90)
    }
}
