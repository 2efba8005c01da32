import Engine
import Marine
import NMEA
import Testing

/// Each alarm raised, acknowledged (by NMEA ACK or ACN, as a plotter does) and cleared, judged on what goes out: ALR
/// with its number and acknowledge state, TXT, the Signal K status list and the words said aloud.
@Suite struct AlarmTests {
    /// An engine with every alarm sentence due at once, driven a step at a time; it keeps what went out.
    struct Scenario {
        var engine: Engine
        var time = 0.0
        var sent: [(time: Double, text: String)] = []
        var said: [String] = []

        init(_ configure: (inout EngineConfiguration) -> Void) {
            var configuration = undampedConfiguration()
            configuration.kinds = [.alarm, .alarmText]
            configuration.alarms.overHeel = nil
            configure(&configuration)
            engine = Engine(configuration: configuration)
        }

        /// Runs until `end`, feeding what `feed` returns every `step` seconds and ticking after it.
        mutating func run(until end: Double, step: Double = 0.5, _ feed: (Double) -> [Sentence]) {
            let source = engine.source(named: "bus")
            while time < end - 1e-9 {
                for sentence in feed(time) { engine.ingest(sentence, from: source, at: time) }
                let now = time
                var out: [(Double, String)] = []
                engine.tick(at: now) { _, sentence in out.append((now, sentence.description)) }
                sent += out
                said += engine.takeAnnouncements().map(\.text)
                time += step
            }
        }

        mutating func ingest(_ sentence: Sentence) -> Engine.IngestOutcome {
            engine.ingest(sentence, from: engine.source(named: "plotter"), at: time)
        }

        /// The ALR lines sent, as `number,active,acknowledged,text`.
        func alarms(_ number: Int) -> [String] {
            sent.compactMap { entry in
                guard let alr = try? ALR(Sentence(parsing: entry.text)), alr.alarmNumber == number else { return nil }
                return "\(number),\(alr.isActive == true ? "A" : "V"),\(alr.isAcknowledged == true ? "A" : "V"),"
                    + (alr.text ?? "")
            }
        }

        func texts() -> [String] {
            sent.compactMap { entry in (try? TXT(Sentence(parsing: entry.text)))?.text }
        }

        func status(_ path: String) -> AlarmStatus? { engine.alarms.first { $0.path == path } }

        /// A plotter's ACK for `number`, then one more step: true when the ALR sent at once says acknowledged.
        mutating func acknowledged(_ number: Int, step: Double = 0.5, _ feed: (Double) -> [Sentence]) -> Bool {
            guard ingest(encoded(ACK(alarmNumber: number), talker: "EC")) == .used else { return false }
            run(until: time + step, step: step, feed)
            return alarms(number).last?.hasPrefix("\(number),A,A,") == true
        }
    }

    /// RMC of a fix at `point`, sailing north at 5 kn, at engine time `time` (UTC 10:00 plus it).
    static func fix(_ point: GeoPoint, at time: Double) -> Sentence {
        let rmc = RMC(
            time: UTCTime(millisecondsOfDay: 36_000_000 + Int(time * 1000)), isValid: true, latitude: point.latitude,
            longitude: point.longitude, speedOverGround: 5, courseOverGround: 0,
            date: UTCDate(year: 2026, month: 11, day: 24), mode: .autonomous)
        return encoded(rmc, talker: "GP")
    }

    @Test("a wind sensor lost: raised at its timeout, acknowledged by ACK, cleared when back, in ALR, TXT and aloud")
    func sensorLost() throws {
        var scenario = Scenario { _ in }
        let wind = { (time: Double) -> [Sentence] in [apparent(40, 12)] }
        scenario.run(until: 10, wind)
        #expect(scenario.sent.isEmpty)
        #expect(scenario.status("sensor.wind")?.isActive == false)
        // Depth was never received: no depth alarm, not even a normal one.
        #expect(scenario.status("sensor.depth") == nil)
        scenario.run(until: 20) { _ in [] }
        #expect(scenario.alarms(111).first == "111,A,V,Wind data lost")
        #expect(scenario.texts().contains("ALARM: Wind data lost"))
        #expect(scenario.said == ["wind lost"])
        let raised = try #require(scenario.sent.first).time
        #expect(raised >= 13 && raised <= 13.5)  // the 3 s wind timeout after the last reading at 9.5 s
        #expect(scenario.status("sensor.wind")?.isActive == true)

        #expect(scenario.ingest(encoded(ACK(alarmNumber: 111), talker: "EC")) == .used)
        #expect(scenario.ingest(encoded(ACK(alarmNumber: 111), talker: "EC")) == .ignored)  // already acknowledged
        #expect(scenario.ingest(encoded(ACK(alarmNumber: 999), talker: "EC")) == .ignored)
        scenario.sent.removeAll()
        scenario.run(until: 21) { _ in [] }
        #expect(scenario.alarms(111).first == "111,A,A,Wind data lost")  // at once, not at the next repeat
        #expect(scenario.status("sensor.wind")?.isAcknowledged == true)

        scenario.sent.removeAll()
        scenario.run(until: 25, wind)
        #expect(scenario.alarms(111) == ["111,V,V,Wind data lost"])
        #expect(scenario.texts().contains("Cleared: Wind data lost"))
        #expect(scenario.said == ["wind lost", "wind back"])
        scenario.sent.removeAll()
        scenario.run(until: 60, wind)
        #expect(scenario.sent.isEmpty)  // nothing repeats while no alarm is active
    }

    @Test(
        "silenced from an app: acknowledged, and again is no refusal; cleared: normal at once, raised again if still true"
    )
    func silenceAndClear() throws {
        var scenario = Scenario { _ in }
        let wind = { (time: Double) -> [Sentence] in [apparent(40, 12)] }
        scenario.run(until: 5, wind)
        #expect(scenario.engine.apply(.silence(.windLost), at: 5) == .refused("wind_lost is not active"))
        scenario.run(until: 12) { _ in [] }
        #expect(scenario.status("sensor.wind")?.isActive == true)
        #expect(scenario.engine.apply(.silence(.windLost), at: 12).isDone)
        #expect(scenario.status("sensor.wind")?.isAcknowledged == true)
        #expect(scenario.engine.apply(.silence(.windLost), at: 12).isDone, "silent already: still done")
        #expect(!scenario.engine.apply(.acknowledge(.windLost), at: 12).isDone, "acknowledge says it was already")
        // Cleared while the wind is still missing: normal at once, and raised again by the next tick, no longer
        // acknowledged: it sounds again (a lost sensor has no hold time).
        scenario.sent.removeAll()
        #expect(scenario.engine.apply(.clear(.windLost), at: 12).isDone)
        #expect(scenario.status("sensor.wind")?.isActive == false)
        scenario.run(until: 12.5) { _ in [] }
        #expect(scenario.alarms(111).first == "111,A,V,Wind data lost", "raised again, sounding")
        #expect(scenario.status("sensor.wind")?.isAcknowledged == false)
        // Cleared once the wind is back for good: it stays normal.
        scenario.run(until: 15, wind)
        #expect(scenario.engine.apply(.clear(.windLost), at: 15) == .done("alarm wind_lost is normal already"))
        #expect(!scenario.engine.apply(.clear(.shallow), at: 15).isDone, "not switched on")
    }

    @Test("shallow water: raised under the limit after 2 s, acknowledged by ACN, cleared past the hysteresis")
    func shallow() throws {
        var scenario = Scenario { $0.alarms.shallow = 10 }
        var depth = 14.0
        let sounder = { (_: Double) -> [Sentence] in [encoded(DPT(depth: depth, offset: 0.4), talker: "SD")] }
        scenario.run(until: 5, sounder)
        depth = 9.2
        scenario.run(until: 6, sounder)
        #expect(scenario.alarms(131).isEmpty)  // within the hold
        scenario.run(until: 10, sounder)
        #expect(scenario.alarms(131).first == "131,A,V,Depth under 10.0 m")
        #expect(scenario.said == ["shallow water, 9.2 metres"])
        // A proprietary alert of another maker's with the same number is not ours.
        #expect(
            scenario.ingest(
                encoded(ACN(manufacturer: "XYZ", alertIdentifier: 131, alertInstance: 1, command: .acknowledge)))
                == .ignored)
        #expect(scenario.ingest(encoded(ACN(alertIdentifier: 131, alertInstance: 1, command: .silence))) == .ignored)
        #expect(scenario.ingest(encoded(ACN(alertIdentifier: 131, alertInstance: 1, command: .acknowledge))) == .used)
        scenario.sent.removeAll()
        scenario.run(until: 11, sounder)
        #expect(scenario.alarms(131) == ["131,A,A,Depth under 10.0 m"])
        depth = 10.3  // above the limit, inside the hysteresis (5%: 0.5 m at 10 m)
        scenario.run(until: 20, sounder)
        #expect(!scenario.alarms(131).contains { $0.hasPrefix("131,V") })
        depth = 10.7
        scenario.run(until: 25, sounder)
        #expect(scenario.alarms(131).last == "131,V,V,Depth under 10.0 m")
        #expect(scenario.status("environment.depth.belowTransducer")?.isActive == false)
    }

    @Test("XTE over the limit is raised after the hold and cleared back on the track; stopping the route clears it")
    func crossTrack() throws {
        var scenario = Scenario {
            $0.alarms.crossTrackLimit = 0.1 * Units.metresPerNauticalMile
            $0.alarms.hold = 3
        }
        scenario.engine.follow(RouteEngineTests.route)
        var offset = 50.0
        let gps = { (time: Double) -> [Sentence] in
            let along = GeoPoint(latitude: 50.005 + time * 0.00002, longitude: -1)
            return [Self.fix(Geodesic.wgs84.direct(from: along, azimuth: 90, distance: offset).point, at: time)]
        }
        scenario.run(until: 10, step: 1, gps)
        #expect(scenario.alarms(121).isEmpty)
        offset = 250
        scenario.run(until: 12, step: 1, gps)
        #expect(scenario.alarms(121).isEmpty)
        scenario.run(until: 20, step: 1, gps)
        #expect(scenario.alarms(121).first == "121,A,V,XTE over 0.10 NM")
        let acknowledged121 = scenario.acknowledged(121, step: 1, gps)
        #expect(acknowledged121)
        #expect(scenario.said.first?.hasPrefix("cross track error 0.13 miles") == true)
        offset = 100
        scenario.run(until: 30, step: 1, gps)
        #expect(scenario.alarms(121).last == "121,V,V,XTE over 0.10 NM")
        offset = 300
        scenario.run(until: 40, step: 1, gps)
        #expect(scenario.engine.isAlarmActive(.crossTrack))
        scenario.engine.stopRoute()
        scenario.run(until: 41, step: 1, gps)
        #expect(!scenario.engine.isAlarmActive(.crossTrack))
    }

    @Test("past the last waypoint the route is done: a boat anchored off the finish raises no XTE alarm")
    func crossTrackAfterTheFinish() throws {
        var scenario = Scenario {
            $0.alarms.crossTrackLimit = 0.1 * Units.metresPerNauticalMile
            $0.alarms.hold = 3
        }
        let route = Route(name: "short", waypoints: Array(RouteEngineTests.route.waypoints.prefix(2)))
        scenario.engine.follow(route)
        let finish = route.waypoints[1].position
        // Up the last leg to the finish, then 300 m east of it (0.16 NM off the leg's line), for a minute.
        var moored = false
        let gps = { (time: Double) -> [Sentence] in
            let point =
                moored
                ? Geodesic.wgs84.direct(from: finish, azimuth: 90, distance: 300).point
                : Geodesic.wgs84.direct(from: finish, azimuth: 180, distance: max(400 - time * 20, 0)).point
            return [Self.fix(point, at: time)]
        }
        scenario.run(until: 30, step: 1, gps)
        #expect(scenario.alarms(122).first == "122,A,V,Arrived at WP2")
        moored = true
        scenario.run(until: 90, step: 1, gps)
        #expect(scenario.alarms(121).isEmpty)
        #expect(!scenario.engine.isAlarmActive(.crossTrack))
        // As far off the leg with the leg still to sail is off course.
        var sailing = Scenario {
            $0.alarms.crossTrackLimit = 0.1 * Units.metresPerNauticalMile
            $0.alarms.hold = 3
        }
        sailing.engine.follow(route)
        let beside = Geodesic.wgs84.direct(from: finish, azimuth: 180, distance: 1000).point
        let offTrack = { (time: Double) -> [Sentence] in
            [Self.fix(Geodesic.wgs84.direct(from: beside, azimuth: 90, distance: 300).point, at: time)]
        }
        sailing.run(until: 20, step: 1, offTrack)
        #expect(sailing.engine.isAlarmActive(.crossTrack))
    }
}
