import Engine
import Marine
import NMEA
import Testing

/// The sailing alarms (arrival, a wind shift, heel) and the words an alarm is said and sent in.
extension AlarmTests {

    @Test("arriving at a waypoint raises an alarm naming it, said aloud, cleared after its duration")
    func arrival() throws {
        var scenario = Scenario { $0.alarms.arrivalDuration = 20 }
        scenario.engine.follow(RouteEngineTests.route)
        let wp2 = RouteEngineTests.route.waypoints[1].position
        let gps = { (time: Double) -> [Sentence] in
            [
                Self.fix(
                    Geodesic.wgs84.direct(from: wp2, azimuth: 180, distance: max(400 - time * 20, 0)).point, at: time)
            ]
        }
        scenario.run(until: 10, step: 1, gps)
        #expect(scenario.alarms(122).isEmpty)
        scenario.run(until: 30, step: 1, gps)
        #expect(scenario.alarms(122).first == "122,A,V,Arrived at WP2")
        let acknowledged122 = scenario.acknowledged(122, step: 1, gps)
        #expect(acknowledged122)
        // The alarm's words between the route guidance's (two cables out, then the next leg named).
        #expect(
            scenario.said == [
                "Wp2 in 2 cables, next course zero nine zero", "arriving at WP2",
                "Wp3 next, course zero nine zero, 1.9 miles",
            ])
        #expect(scenario.engine.route.leg == 1)
        #expect(scenario.status("navigation.course.arrivalCircleEntered")?.message == "Arrived at WP2")
        let raised = try #require(scenario.sent.first { $0.text.contains("ALR") }).time
        scenario.run(until: raised + 19, step: 1, gps)
        #expect(scenario.engine.isAlarmActive(.arrival))
        scenario.run(until: raised + 22, step: 1, gps)
        #expect(!scenario.engine.isAlarmActive(.arrival))
        #expect(scenario.alarms(122).last == "122,V,V,Arrived at WP2")
    }

    @Test("a wind shift past the limit from the 5-minute mean: raised, said with its side, cleared as the mean follows")
    func windShift() throws {
        var scenario = Scenario {
            $0.alarms.windShift = 10
            $0.alarms.hold = 5
        }
        var heading = 100.0
        // Stopped boat, wind 40° on the bow: TWD is heading + 40.
        let feed = { (_: Double) -> [Sentence] in [apparent(40, 12), waterSpeed(0), trueHeading(heading)] }
        scenario.run(until: 400, step: 1, feed)
        #expect(scenario.alarms(141).isEmpty)
        heading = 106  // a 6° shift: under the limit
        scenario.run(until: 500, step: 1, feed)
        #expect(scenario.alarms(141).isEmpty)
        heading = 125  // 25° from the first 5 minutes, about 22° from the mean of the last 5 (200 s at 140, 100 at 146)
        scenario.run(until: 520, step: 1, feed)
        #expect(scenario.alarms(141).first == "141,A,V,Wind shift over 10 deg")
        let acknowledged141 = scenario.acknowledged(141, step: 1, feed)
        #expect(acknowledged141)
        let said = try #require(scenario.said.first)
        let degrees = try #require(Int(said.split(separator: " ")[2]))
        #expect(said.hasPrefix("wind veered ") && (21...23).contains(degrees), "\(said)")
        scenario.run(until: 900, step: 1, feed)
        #expect(scenario.alarms(141).last == "141,V,V,Wind shift over 10 deg")
        // Backing is said as such.
        heading = 95
        scenario.run(until: 920, step: 1, feed)
        #expect(scenario.said.last?.hasPrefix("wind backed") == true)
    }

    @Test("heel over and under: raised, acknowledged by ACK, cleared, each with its own number")
    func heel() throws {
        var scenario = Scenario {
            $0.alarms.overHeel = 20
            $0.alarms.underHeel = 5
            $0.alarms.hold = 1
        }
        var degrees = 12.0
        let feed = { (_: Double) -> [Sentence] in
            [encoded(XDR([.angle(degrees, name: "HEEL")]), talker: "II"), waterSpeed(6)]
        }
        scenario.run(until: 5, feed)
        #expect(scenario.alarms(101).isEmpty && scenario.alarms(102).isEmpty)
        degrees = 24
        scenario.run(until: 8, feed)
        #expect(scenario.alarms(101).first == "101,A,V,Heel over 20 deg")
        let acknowledged101 = scenario.acknowledged(101, feed)
        #expect(acknowledged101)
        degrees = 2
        scenario.run(until: 12, feed)
        #expect(scenario.alarms(101).last == "101,V,V,Heel over 20 deg")
        #expect(scenario.alarms(102).first == "102,A,V,Heel under 5 deg")
        let acknowledged102 = scenario.acknowledged(102, feed)
        #expect(acknowledged102)
        degrees = 12
        scenario.run(until: 16, feed)
        #expect(scenario.alarms(102).last == "102,V,V,Heel under 5 deg")
        #expect(scenario.said == ["heel over 20 degrees", "heel under 5 degrees"])
    }

    @Test("the sailor's words replace Telltale's in ALR, TXT, Signal K and aloud; alarms switched off stay silent")
    func wording() throws {
        var scenario = Scenario {
            $0.alarms.shallow = 5
            $0.alarms.text[.shallow] = "Shoal water"
            $0.alarms.spoken[.shallow] = "depth depth"
            $0.alarms.sensorLost = []
        }
        scenario.run(until: 5) { _ in [encoded(DPT(depth: 3), talker: "SD")] }
        #expect(scenario.alarms(131).first == "131,A,V,Shoal water")
        #expect(scenario.texts().contains("ALARM: Shoal water"))
        #expect(scenario.said == ["depth depth"])
        #expect(scenario.status("environment.depth.belowTransducer")?.message == "Shoal water")
        scenario.run(until: 20) { _ in [] }
        #expect(scenario.alarms(115).isEmpty)  // depth lost is switched off
        #expect(scenario.status("sensor.depth") == nil)
    }

    @Test("an ALR stays within 82 bytes and its number within three digits whatever the words")
    func longWords() throws {
        var scenario = Scenario {
            $0.alarms.shallow = 5
            $0.alarms.text[.shallow] = String(repeating: "Shallow water ahead, ", count: 10)
        }
        scenario.run(until: 5) { _ in [encoded(DPT(depth: 3), talker: "SD")] }
        let lines = scenario.sent.map(\.text)
        #expect(!lines.isEmpty)
        #expect(lines.allSatisfy { $0.utf8.count <= 82 })
        #expect(scenario.alarms(131).count == 1)
    }
}
