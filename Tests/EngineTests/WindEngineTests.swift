import Engine
import Marine
import NMEA
import Testing

@Suite struct WindEngineTests {
    @Test("the REFERENCE worked example end to end: MWV T, MWD and VPW from MWV R, VHW and HDT")
    func workedExample() throws {
        var engine = Engine(configuration: undampedConfiguration())
        let nmea = engine.source(named: "nmea0")
        engine.ingest(apparent(30, 15), from: nmea, at: 0)
        engine.ingest(waterSpeed(6), from: nmea, at: 0)
        engine.ingest(trueHeading(100), from: nmea, at: 0)
        let out = tick(&engine, at: 0.1)
        let mwv = try #require(decoded(MWV.self, out[.trueWind]))
        #expect(mwv.reference == .true && mwv.isValid == true)
        #expect(mwv.angle == 47.0 && mwv.speed == 10.3)
        let mwd = try #require(decoded(MWD.self, out[.windDirection]))
        #expect(mwd.directionTrue == 147.0 && mwd.speedKnots == 10.3 && mwd.directionMagnetic == nil)
        let vpw = try #require(decoded(VPW.self, out[.windwardSpeed]))
        // 6 · cos 47.01° = 4.0908
        #expect(vpw.speedKnots == 4.09)
        #expect(decoded(HDT.self, out[.headingTrue])?.heading == 100)
        #expect(decoded(MWV.self, out[.apparentWind])?.angle == 30)
        #expect(out[.groundWind] == nil)
    }

    @Test("port wind goes out as MWV 313.0 and the legacy VWT says left")
    func portWind() throws {
        var configuration = undampedConfiguration()
        configuration.kinds.insert(.trueWindLegacy)
        var engine = Engine(configuration: configuration)
        let nmea = engine.source(named: "nmea0")
        engine.ingest(apparent(-30, 15), from: nmea, at: 0)
        engine.ingest(waterSpeed(6), from: nmea, at: 0)
        let out = tick(&engine, at: 0)
        #expect(decoded(MWV.self, out[.trueWind])?.angle == 313.0)
        let vwt = try #require(decoded(VWT.self, out[.trueWindLegacy]))
        #expect(vwt.wind.side == .left && vwt.wind.angle == 47.0)
    }

    @Test("a stale speed makes MWV T invalid and stops MWD and VPW; the last value is never repeated")
    func staleness() throws {
        var engine = Engine(configuration: undampedConfiguration())
        let nmea = engine.source(named: "nmea0")
        var time = 0.0
        var lastTrue: MWV?
        while time < 10 {
            engine.ingest(apparent(30, 15), from: nmea, at: time)
            engine.ingest(trueHeading(100), from: nmea, at: time)
            if time < 2 { engine.ingest(waterSpeed(6), from: nmea, at: time) }
            let out = tick(&engine, at: time)
            if let mwv = decoded(MWV.self, out[.trueWind]) { lastTrue = mwv }
            if time > 5.01 {
                #expect(out[.windDirection] == nil && out[.windwardSpeed] == nil)
                if let mwv = decoded(MWV.self, out[.trueWind]) {
                    #expect(mwv.isValid == false && mwv.angle == nil && mwv.speed == nil)
                }
                // Apparent wind and heading are still current.
                if let mwv = decoded(MWV.self, out[.apparentWind]) { #expect(mwv.isValid == true) }
            }
            time += 0.1
        }
        #expect(lastTrue?.isValid == false)
    }

    @Test("with stale behaviour 'silent' the invalid MWV is not sent at all")
    func silent() {
        var configuration = undampedConfiguration()
        configuration.staleBehavior = .silent
        var engine = Engine(configuration: configuration)
        let out = tick(&engine, at: 0)
        #expect(out.isEmpty)
        var invalid = Engine(configuration: undampedConfiguration())
        let flagged = tick(&invalid, at: 0)
        #expect(flagged.keys.sorted { $0.rawValue < $1.rawValue } == [.apparentWind, .trueWind])
        #expect(decoded(MWV.self, flagged[.trueWind]) == MWV(reference: .true, unit: .knots, isValid: false))
    }

    @Test("the gateway's own sentences coming back on an input are ignored")
    func echoes() {
        var engine = Engine(configuration: undampedConfiguration())
        let nmea = engine.source(named: "nmea0")
        engine.ingest(apparent(30, 15), from: nmea, at: 0)
        engine.ingest(waterSpeed(6), from: nmea, at: 0)
        let out = tick(&engine, at: 0)
        let ours = out[.trueWind]!
        var outcomes: [Engine.IngestOutcome] = []
        outcomes.append(engine.ingest(ours, from: nmea, at: 0.2))
        #expect(outcomes.last == .echo)
        outcomes.append(engine.ingest(out[.apparentWind]!, from: nmea, at: 0.3))
        #expect(outcomes.last == .echo)
        // A different true wind from an instrument is taken.
        let instrument = encoded(MWV(angle: 50, reference: .true, speed: 11, isValid: true))
        outcomes.append(engine.ingest(instrument, from: nmea, at: 0.4))
        #expect(outcomes.last == .used)
        // Long after, the same bytes are no longer an echo.
        outcomes.append(engine.ingest(ours, from: nmea, at: 30))
        #expect(outcomes.last == .used)
        #expect(outcomes.filter { $0 == .echo }.count == 2)
    }

    @Test("invalid fields are refused, V status is ignored, unknown sentences are unsupported")
    func outcomes() throws {
        var engine = Engine()
        let nmea = engine.source(named: "nmea0")
        let bad = try Sentence(parsing: "$IIMWV,-1.-3,R,10,N,A*" + hex("IIMWV,-1.-3,R,10,N,A"))
        #expect(engine.ingest(bad, from: nmea, at: 0) == .invalid(.invalidField(index: 0)))
        let flagged = encoded(MWV(angle: 10, reference: .relative, speed: 3, isValid: false))
        #expect(engine.ingest(flagged, from: nmea, at: 0) == .ignored)
        let gsv = try Sentence(parsing: "$GPGSV,3,1,12*" + hex("GPGSV,3,1,12"))
        #expect(engine.ingest(gsv, from: nmea, at: 0) == .unsupported)
    }

    @Test("heading: HDT first, else HDG with deviation plus variation from HDG, RMC or the configuration")
    func headingSources() throws {
        var configuration = undampedConfiguration()
        configuration.variation = -5
        configuration.kinds.insert(.headingMagnetic)
        var engine = Engine(configuration: configuration)
        let nmea = engine.source(named: "nmea0")
        engine.ingest(encoded(HDG(sensorHeading: 100, deviation: 2, variation: nil), talker: "HC"), from: nmea, at: 0)
        #expect(tick(&engine, at: 0).isEmpty == false)
        #expect(engine.values.headingTrue == 97)
        let rmc = RMC(
            time: UTCTime(hours: 1, minutes: 0, seconds: 0), isValid: true, latitude: 50, longitude: 1,
            speedOverGround: 5, courseOverGround: 90, magneticVariation: 3, mode: .autonomous)
        engine.ingest(encoded(rmc, talker: "GP"), from: nmea, at: 0.5)
        _ = tick(&engine, at: 0.5)
        #expect(engine.values.headingTrue == 105)
        engine.ingest(encoded(HDG(sensorHeading: 100, deviation: 2, variation: 1), talker: "HC"), from: nmea, at: 1)
        let out = tick(&engine, at: 1)
        #expect(engine.values.headingTrue == 103)
        let hdg = try #require(decoded(HDG.self, out[.headingMagnetic]))
        #expect(hdg == HDG(sensorHeading: 100, deviation: 2, variation: 1))
        engine.ingest(trueHeading(200), from: nmea, at: 1.5)
        _ = tick(&engine, at: 1.5)
        #expect(engine.values.headingTrue == 200)
    }

    @Test("with only a true-wind instrument, apparent wind is derived from it")
    func trueToApparent() throws {
        var configuration = undampedConfiguration()
        configuration.kinds.insert(.apparentWindMeasured)
        var engine = Engine(configuration: configuration)
        let nmea = engine.source(named: "nmea0")
        engine.ingest(encoded(MWV(angle: 47.01, reference: .true, speed: 10.253, isValid: true)), from: nmea, at: 0)
        engine.ingest(waterSpeed(6), from: nmea, at: 0)
        let out = tick(&engine, at: 0)
        let mwv = try #require(decoded(MWV.self, out[.apparentWind]))
        #expect(mwv.angle == 30.0 && mwv.speed == 15.0)
        #expect(engine.values.apparentWindIsDerived)
        #expect(out[.apparentWindMeasured].flatMap { decoded(MWV.self, $0) }?.isValid == false)
    }

    @Test("heel correction and leeway change true wind as their formulas say, and can be switched off")
    func corrections() {
        var configuration = undampedConfiguration()
        configuration.wind.heelCorrection = true
        var engine = Engine(configuration: configuration)
        let nmea = engine.source(named: "nmea0")
        engine.ingest(apparent(30, 15), from: nmea, at: 0)
        engine.ingest(waterSpeed(6), from: nmea, at: 0)
        engine.ingest(encoded(XDR([.angle(20, name: "HEEL")]), talker: "II"), from: nmea, at: 0)
        _ = tick(&engine, at: 0)
        let corrected = engine.values.apparentWind!
        #expect(abs(corrected.angle - 31.57) < 0.005)
        #expect(abs(Units.knots(metresPerSecond: corrected.speed) - 15.25) < 0.005)
        #expect(abs(engine.values.apparentWindMeasured!.angle - 30) < 1e-9)

        configuration.wind.heelCorrection = false
        configuration.wind.leeway = LeewayModel(coefficient: 12)
        var leewayEngine = Engine(configuration: configuration)
        let source = leewayEngine.source(named: "nmea0")
        leewayEngine.ingest(apparent(-30, 15), from: source, at: 0)
        leewayEngine.ingest(waterSpeed(6), from: source, at: 0)
        leewayEngine.ingest(encoded(XDR([.angle(15, name: "ROLL")]), talker: "II"), from: source, at: 0)
        _ = tick(&leewayEngine, at: 0)
        #expect(leewayEngine.values.leeway == 5)
        let expected = WindTriangle.trueWind(
            apparent: RelativeWind(angle: -30, speed: Units.metresPerSecond(knots: 15)),
            speedThroughWater: Units.metresPerSecond(knots: 6), leeway: 5)
        #expect(abs(leewayEngine.values.trueWind!.angle - expected.angle) < 1e-9)
    }

    @Test("with no speed through water, SOG stands in only when configured, and the engine says so")
    func speedFallback() {
        var configuration = undampedConfiguration()
        var engine = Engine(configuration: configuration)
        let nmea = engine.source(named: "nmea0")
        let rmc = RMC(
            time: UTCTime(hours: 1, minutes: 0, seconds: 0), isValid: true, latitude: 50, longitude: 1,
            speedOverGround: 6, courseOverGround: 90, mode: .autonomous)
        engine.ingest(encoded(rmc, talker: "GP"), from: nmea, at: 0)
        engine.ingest(apparent(30, 15), from: nmea, at: 0)
        _ = tick(&engine, at: 0)
        #expect(engine.values.trueWind == nil)
        configuration.wind.speedOverGroundFallback = true
        var fallback = Engine(configuration: configuration)
        let source = fallback.source(named: "nmea0")
        fallback.ingest(encoded(rmc, talker: "GP"), from: source, at: 0)
        fallback.ingest(apparent(30, 15), from: source, at: 0)
        _ = tick(&fallback, at: 0)
        #expect(fallback.values.speedIsOverGround)
        #expect(abs(Units.knots(metresPerSecond: fallback.values.trueWind!.speed) - 10.253) < 0.001)
        #expect(fallback.takeNotices().contains { $0.contains("speed over ground") })
    }

    @Test("the over-heel alarm is raised after its hold time, repeated while active, cleared with hysteresis")
    func heelAlarm() throws {
        var configuration = undampedConfiguration()
        configuration.kinds = [.alarm, .alarmText]
        configuration.alarms.overHeel = 20
        configuration.alarms.hold = 3
        configuration.alarms.hysteresis = 2
        var engine = Engine(configuration: configuration)
        let sensor = engine.source(named: "heel")
        var events: [(Double, String)] = []
        var time = 0.0
        func heel(_ degrees: Double, for seconds: Double) {
            let end = time + seconds
            while time < end - 1e-9 {
                engine.ingest(encoded(XDR([.angle(degrees, name: "HEEL")]), talker: "II"), from: sensor, at: time)
                engine.tick(at: time) { _, sentence in events.append((time, sentence.description)) }
                time += 0.1
            }
        }
        heel(15, for: 10)
        heel(22, for: 2)  // a gust, shorter than the hold
        heel(15, for: 5)
        #expect(events.isEmpty)
        heel(23, for: 25)
        let raised = try #require(events.first)
        #expect(raised.0 > 19.9 && raised.0 < 20.2)  // held 3 s from 17 s
        #expect(events.contains { $0.1.contains("TXT") && $0.1.contains("ALARM: Heel over 20 deg") })
        let active = events.filter { $0.1.contains(",101,A,V,Heel over 20 deg") }
        #expect(active.count >= 3)  // on raising, then every 10 s
        events.removeAll()
        heel(19, for: 10)  // inside the hysteresis band: stays raised
        #expect(!events.contains { $0.1.contains(",101,V,") })
        heel(17, for: 10)
        #expect(events.contains { $0.1.contains(",101,V,V,Heel over 20 deg") })
        #expect(events.contains { $0.1.contains("Cleared: Heel over 20 deg") })
    }

    @Test("damped wind swinging through the bow never passes through the stern")
    func dampedWrap() {
        var engine = Engine()
        let nmea = engine.source(named: "nmea0")
        var time = 0.0
        for step in 0..<200 {
            let angle = step % 2 == 0 ? 5.0 : -5.0
            engine.ingest(apparent(angle, 12), from: nmea, at: time)
            engine.ingest(waterSpeed(5), from: nmea, at: time)
            engine.ingest(trueHeading(355 + Double(step % 3) * 5), from: nmea, at: time)
            _ = tick(&engine, at: time)
            if let wind = engine.values.apparentWind { #expect(abs(wind.angle) < 6) }
            if let direction = engine.values.trueWindDirection {
                #expect(direction > 300 || direction < 60, "TWD jumped to \(direction)")
            }
            time += 0.1
        }
    }

    @Test("sentences follow their schedule: MWV twice a second, MWD once, keeping phase")
    func schedule() {
        var engine = Engine(configuration: undampedConfiguration())
        let nmea = engine.source(named: "nmea0")
        var counts: [ComputedKind: Int] = [:]
        for step in 0..<100 {
            let time = Double(step) * 0.1
            engine.ingest(apparent(30, 15), from: nmea, at: time)
            engine.ingest(waterSpeed(6), from: nmea, at: time)
            engine.ingest(trueHeading(100), from: nmea, at: time)
            engine.tick(at: time) { kind, _ in counts[kind, default: 0] += 1 }
        }
        #expect(counts[.trueWind] == 20)
        #expect(counts[.windDirection] == 10)
        #expect(counts[.trueWindLegacy] == nil)
    }
}

func hex(_ body: String) -> String {
    let sum = body.utf8.reduce(UInt8(0), ^)
    let text = String(sum, radix: 16, uppercase: true)
    return text.count == 1 ? "0" + text : text
}
