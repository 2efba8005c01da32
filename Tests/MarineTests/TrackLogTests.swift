import Testing

@testable import Marine

/// The track in fixed memory: kept by spacing and turn, split at gaps, thinned when full without losing the hours,
/// old points dropped.
@Suite struct TrackLogTests {
    static let start = GeoPoint(latitude: 50.0, longitude: -1.0)

    func along(_ metres: Double, _ bearing: Double = 0, from point: GeoPoint = start) -> GeoPoint {
        Geodesic.wgs84.direct(from: point, azimuth: bearing, distance: metres).point
    }

    @Test("a point a spacing; a turn keeps one sooner; a gap starts a segment")
    func spacingTurnGap() {
        var log = TrackLog(hours: 24, capacity: 1000, spacing: 10, turn: 15, gap: 60)
        for second in 0..<50 { log.add(along(Double(second)), at: Double(second)) }
        #expect(log.points.count == 5, "0, 10, 20, 30, 40 m")
        // A right-angle turn at 49 m: a point kept after 2 m of the new leg, not 10.
        let corner = along(49)
        log.add(along(3, 90, from: corner), at: 52)
        #expect(log.points.count == 6)
        // Two minutes without a fix: the next one starts a segment.
        log.add(along(4, 90, from: corner), at: 200)
        #expect(log.points.count == 7 && log.points.last?.startsSegment == true)
        #expect(log.points.filter(\.startsSegment).count == 2)
        // Not a position: refused.
        let notANumber = log.add(GeoPoint(latitude: .nan, longitude: 0), at: 201)
        let offTheEarth = log.add(GeoPoint(latitude: 95, longitude: 0), at: 202)
        #expect(!notANumber && !offTheEarth)
    }

    @Test("full: the older half thinned, the newest kept, the capacity never passed, the start still there")
    func thinning() {
        var log = TrackLog(hours: 24, capacity: 64, spacing: 9.5)
        for index in 0..<1000 { log.add(along(Double(index) * 10), at: Double(index)) }
        #expect(log.points.count <= 64)
        #expect(log.points.count > 32)
        #expect(log.time(of: log.points.first!) == 0, "the hours are kept, coarser")
        #expect(log.time(of: log.points.last!) == 999)
        let times = log.points.map { log.time(of: $0) }
        #expect(times == times.sorted())
        // The newest stretch is at full resolution.
        #expect(Array(times.suffix(5)) == [995, 996, 997, 998, 999])
    }

    @Test("points older than the hours go; positions to a centimetre")
    func hours() {
        var log = TrackLog(hours: 1, capacity: 10_000, spacing: 10)
        for index in 0..<720 { log.add(along(Double(index) * 10), at: Double(index) * 10) }
        #expect(log.time(of: log.points.first!) >= 7190 - 3600)
        #expect(log.points.first?.startsSegment == true)
        let last = log.points.last!.position
        #expect(Geodesic.wgs84.inverse(last, along(7190)).distance < 0.02)
    }
}
