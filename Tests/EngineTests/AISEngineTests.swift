import Marine
import NMEA
import TestSupport
import Testing

@testable import Engine

/// AIS through the engine: stations kept and lost, the collision alarm raised for a crossing ship at the time its
/// CPA and TCPA come within the limits and cleared after it passes, a distress beacon alarmed at once.
@Suite struct AISEngineTests {
    typealias Scenario = AlarmTests.Scenario
    static let start = GeoPoint(latitude: 50.70, longitude: -1.10)
    static let knots5 = Units.metresPerSecond(knots: 5)

    /// The own boat sailing north at 5 kn from `start`: an RMC a second.
    static func own(at t: Double) -> Sentence {
        let here = Geodesic.wgs84.direct(from: start, azimuth: 0, distance: knots5 * t).point
        let seconds = Int(t)
        return encoded(
            RMC(
                time: UTCTime(millisecondsOfDay: 36_000_000 + seconds * 1000), isValid: true,
                latitude: here.latitude, longitude: here.longitude, speedOverGround: 5, courseOverGround: 0,
                date: UTCDate(year: 2026, month: 11, day: 25), mode: .autonomous), talker: "GP")
    }

    /// A ship that meets the own boat 1 NM north of its start at t = 720 s: it starts 1 NM east of that point and
    /// steams west at 5 kn; a class A report every 10 s and its name once a minute.
    static func ship(at t: Double, mmsi: UInt32 = 235_000_001) -> [Sentence] {
        guard Int(t * 2) % 20 == 0 else { return [] }
        let meeting = Geodesic.wgs84.direct(from: start, azimuth: 0, distance: 1852).point
        let origin = Geodesic.wgs84.direct(from: meeting, azimuth: 90, distance: 1852).point
        let here = Geodesic.wgs84.direct(from: origin, azimuth: 270, distance: knots5 * t).point
        var report = AISReport(messageType: 1, mmsi: mmsi)
        report.position = AISReport.Position(
            latitude: here.latitude, longitude: here.longitude, speedOverGround: 5, courseOverGround: 270,
            heading: 270, navigationStatus: 0, second: Int(t) % 60)
        var sentences = report.positionBits().sentences()
        if Int(t) % 60 == 0 {
            var statics = AISReport.Statics()
            statics.name = "EVER DIADEM"
            statics.toBow = 225
            statics.toStern = 70
            report.statics = statics
            sentences += report.staticBits().sentences(sequence: Int(t / 60) % 10)
        }
        return sentences
    }

    @Test(
        "a crossing ship: collision alarm at TCPA 10 min (t = 120 s), said with its name, distance and side; cleared after it passes"
    )
    func crossing() {
        var s = Scenario { _ in }
        s.run(until: 5, step: 0.5) { t in Int(t * 2) % 2 == 0 ? [Self.own(at: t)] : [] }
        #expect(s.status(AlarmKind.collision.path) == nil, "listed only once a station is heard")
        s.run(until: 115, step: 0.5) { t in (Int(t * 2) % 2 == 0 ? [Self.own(at: t)] : []) + Self.ship(at: t) }
        #expect(s.status(AlarmKind.collision.path)?.isActive == false, "listed, not raised at TCPA > 10 min")
        let target = s.engine.ais.target(235_000_001)
        #expect(target?.name == "EVER DIADEM" && target?.length == 295)
        #expect(target?.approach.map { $0.distance < 50 && abs($0.time - 605) < 10 } == true)
        s.run(until: 130, step: 0.5) { t in (Int(t * 2) % 2 == 0 ? [Self.own(at: t)] : []) + Self.ship(at: t) }
        let raised = s.alarms(161).first { $0.hasPrefix("161,A,V,") }
        #expect(
            raised?.hasPrefix("161,A,V,Collision risk: EVER DIADEM CPA 0.0 NM in 10 min") == true, "\(s.alarms(161))")
        let words = s.said.first { $0.contains("Ever Diadem") }
        #expect(words == "Ever Diadem on collision course, 10 minutes, starboard bow", "\(s.said)")
        s.run(until: 760, step: 0.5) { t in (Int(t * 2) % 2 == 0 ? [Self.own(at: t)] : []) + Self.ship(at: t) }
        #expect(s.status(AlarmKind.collision.path)?.isActive == false, "cleared once it has passed")
        #expect(s.texts().contains { $0.hasPrefix("Cleared: Collision risk") })
    }

    @Test("the GPS gone quiet while a ship closes: the collision alarm is held, not cleared; back, it is judged again")
    func heldWithoutPosition() {
        var s = Scenario { _ in }
        s.run(until: 130, step: 0.5) { t in (Int(t * 2) % 2 == 0 ? [Self.own(at: t)] : []) + Self.ship(at: t) }
        #expect(s.status(AlarmKind.collision.path)?.isActive == true)
        // No fix for two minutes (past the position timeout): the ship still reports, the alarm stays.
        s.run(until: 250, step: 0.5) { t in Self.ship(at: t) }
        #expect(s.status(AlarmKind.collision.path)?.isActive == true)
        #expect(s.status(AlarmKind.positionLost.path)?.isActive == true)
        // The fix back after the ship has passed: judged again and cleared.
        s.run(until: 800, step: 0.5) { t in
            (t >= 760 && Int(t * 2) % 2 == 0 ? [Self.own(at: t)] : []) + Self.ship(at: t)
        }
        #expect(s.status(AlarmKind.collision.path)?.isActive == false)
    }

    @Test("an AIS-SART is alarmed at once; a station not heard for its reporting time is lost, then forgotten")
    func distressAndLost() {
        var s = Scenario { _ in }
        s.run(until: 3, step: 0.5) { t in
            (Int(t * 2) % 2 == 0 ? [Self.own(at: t)] : []) + (t == 2 ? Self.ship(at: 0, mmsi: 970_012_345) : [])
        }
        #expect(s.status(AlarmKind.aisDistress.path)?.isActive == true)
        #expect(s.said.contains { $0.hasPrefix("AIS SART, ") && $0.hasSuffix("starboard bow") }, "\(s.said)")
        // A class A ship at 5 kn reports every 10 s: lost after 60 s of silence, forgotten 400 s later.
        s.run(until: 4, step: 0.5) { t in t == 3 ? Self.ship(at: 0) : [] }
        #expect(s.engine.ais.target(235_000_001)?.isLost(at: 62) == false)
        #expect(s.engine.ais.target(235_000_001)?.isLost(at: 64) == true)
        s.run(until: 470, step: 1) { t in [Self.own(at: t)] }
        #expect(s.engine.ais.target(235_000_001) == nil && s.engine.ais.target(970_012_345) != nil)
    }

    @Test("without AIS nothing is listed; switched off, nothing is raised")
    func switchedOff() {
        var s = Scenario { $0.alarms.collisionDistance = nil }
        s.run(until: 200, step: 0.5) { t in (Int(t * 2) % 2 == 0 ? [Self.own(at: t)] : []) + Self.ship(at: t) }
        #expect(s.status(AlarmKind.collision.path) == nil && s.alarms(161).isEmpty)
    }
}

@Suite struct AISWordsTests {
    @Test("what is said: cables under a mile, miles above; the side from the bow in eight words; names as words")
    func words() {
        #expect(AlarmMonitor.distance(370) == "2 cables" && AlarmMonitor.distance(100) == "1 cable")
        #expect(AlarmMonitor.distance(2222) == "1.2 miles")
        #expect(AlarmMonitor.side(10) == "ahead" && AlarmMonitor.side(45) == "starboard bow")
        #expect(AlarmMonitor.side(-90) == "port beam" && AlarmMonitor.side(130) == "starboard quarter")
        #expect(AlarmMonitor.side(-170) == "astern" && AlarmMonitor.capitalised("EVER DIADEM-2") == "Ever Diadem-2")
        var target = AISTarget(mmsi: 235_000_002, station: .vessel, lastHeard: 0)
        target.name = "SEA SPRITE"
        let approach = ClosestApproach(
            own: GeoPoint(latitude: 50, longitude: -1), ownCourse: 0, ownSpeed: 3,
            target: Geodesic.wgs84.direct(from: GeoPoint(latitude: 50, longitude: -1), azimuth: 300, distance: 1500)
                .point, targetCourse: 120, targetSpeed: 2)
        let said = AlarmMonitor.collisionWords(target, approach, bow: 0)
        #expect(said.words.hasPrefix("Sea Sprite closing, passing ") && said.words.hasSuffix("port bow"), "\(said)")
    }
}
