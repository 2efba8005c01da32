import Marine
import Testing

@testable import Gateway

/// gpsd's fix status, kept: a DGPS fix is differential all the way to GGA.
@Suite struct GPSDReportTests {
    @Test("gpsd's status becomes the fix's FAA mode: DGPS differential, RTK R or F, dead reckoning estimated")
    func status() {
        var report = GPSDClient.Report(point: GeoPoint(latitude: 50, longitude: -1), mode: 3, status: 2)
        #expect(report.engineFix.mode == .differential)
        report.status = 1
        #expect(report.engineFix.mode == .autonomous)
        report.status = 3
        #expect(report.engineFix.mode?.ggaQuality == 4)
        report.status = 5
        #expect(report.engineFix.mode == .estimated)
        report.mode = 1
        #expect(report.engineFix.mode == .notValid)
    }
}
