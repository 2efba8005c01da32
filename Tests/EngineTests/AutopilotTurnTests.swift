import Marine
import Testing

@testable import Engine

/// A tack or gybe onto the polar's angles (#41), not a fixed 100°.
@Suite struct AutopilotTurnTests {
    static func values(twa: Double, twd: Double, heading: Double, beat: Double? = 42, run: Double? = 150)
        -> InstrumentValues
    {
        var values = InstrumentValues()
        values.trueWind = RelativeWind(angle: twa, speed: 7)
        values.trueWindDirection = twd
        values.headingTrue = heading
        values.speedThroughWater = 3
        if let beat, let run {
            values.performance = Performance(
                polarSpeed: 3, polarRatio: 1, beat: .init(angle: beat, speed: 3, windwardSpeed: 2.2),
                run: .init(angle: run, speed: 3.5, windwardSpeed: -3), upwind: abs(twa) < 90)
        }
        return values
    }

    @Test("a tack onto the beat angle on the other side; the wrong way refused")
    func tack() throws {
        // Starboard tack, 45° off a wind from 045: heading 000.
        let v = Self.values(twa: 45, twd: 45, heading: 0)
        let turn = try #require(try? AutopilotTurn.plan(v, gybe: false, toPort: false).get())
        #expect(abs(turn.heading - 87) < 1e-9 && abs(turn.change - 87) < 1e-9 && turn.trueWindAngle == -42)
        #expect(turn.apparentWindAngle < 0 && turn.apparentWindAngle > -42, "the apparent wind forward of the true")
        if case .failure(.wrongSide) = AutopilotTurn.plan(v, gybe: false, toPort: true) {} else { Issue.record() }
        // Without a polar, the angle now mirrored.
        let plain = Self.values(twa: -50, twd: 300, heading: 350, beat: nil, run: nil)
        let mirrored = try #require(try? AutopilotTurn.plan(plain, gybe: false, toPort: true).get())
        #expect(abs(mirrored.change + 100) < 1e-9 && abs(mirrored.heading - 250) < 1e-9)
    }

    @Test("a gybe onto the run angle; the turn goes the way asked however far; no wind, no turn")
    func gybe() throws {
        // Wind on the starboard quarter (TWA 140 from 180): heading 040. A gybe to port ends on 150 to port: 330.
        let v = Self.values(twa: 140, twd: 180, heading: 40)
        let turn = try #require(try? AutopilotTurn.plan(v, gybe: true, toPort: true).get())
        #expect(abs(turn.heading - 330) < 1e-9 && abs(turn.change + 70) < 1e-9)
        if case .failure(.wrongSide) = AutopilotTurn.plan(v, gybe: true, toPort: false) {} else { Issue.record() }
        var none = v
        none.trueWind = nil
        if case .failure(.noWind) = AutopilotTurn.plan(none, gybe: true, toPort: true) {} else { Issue.record() }
    }
}

extension AutopilotTurnTests {
    @Test("wind mode's angle: the polar's beat close-hauled, its run running, on the side the wind is; none on a reach")
    func windTarget() throws {
        let beating = try #require(AutopilotTurn.windTarget(Self.values(twa: -48, twd: 0, heading: 48)))
        #expect(beating.trueWindAngle == -42 && beating.apparentWindAngle < 0 && beating.apparentWindAngle > -42)
        let running = try #require(AutopilotTurn.windTarget(Self.values(twa: 160, twd: 0, heading: 200)))
        #expect(running.trueWindAngle == 150 && running.apparentWindAngle > 0)
        #expect(AutopilotTurn.windTarget(Self.values(twa: 95, twd: 0, heading: 265)) == nil)
        #expect(AutopilotTurn.windTarget(Self.values(twa: 40, twd: 0, heading: 320, beat: nil, run: nil)) == nil)
    }
}

/// The autopilot alarm (#41): a pilot that stops steering while engaged, not asked to.
@Suite struct AutopilotAlarmTests {
    typealias Scenario = AlarmTests.Scenario

    @Test("dropping to standby unasked or going off-line while steering raises it; a standby asked for does not")
    func alarm() {
        var s = Scenario { _ in }
        s.run(until: 2, step: 0.5) { _ in [] }
        #expect(s.status(AlarmKind.autopilot.path) == nil, "not listed before a pilot is heard")
        s.engine.pilot(PilotReport(id: "raymarine-204", state: "auto", standbyAsked: false))
        s.run(until: 4, step: 0.5) { _ in [] }
        #expect(s.status(AlarmKind.autopilot.path)?.isActive == false)
        s.engine.pilot(PilotReport(id: "raymarine-204", state: "standby", standbyAsked: false))
        s.run(until: 6, step: 0.5) { _ in [] }
        #expect(s.status(AlarmKind.autopilot.path)?.isActive == true)
        #expect(!s.alarms(191).isEmpty)
        #expect(s.said.contains("autopilot in standby, steer by hand"))
        #expect(s.texts().contains { $0.hasPrefix("ALARM: Autopilot raymarine-204 dropped to standby") })
        // Steering again clears it; then a standby asked for through Telltale is no alarm.
        s.engine.pilot(PilotReport(id: "raymarine-204", state: "auto", standbyAsked: false))
        s.run(until: 8, step: 0.5) { _ in [] }
        #expect(s.status(AlarmKind.autopilot.path)?.isActive == false)
        s.engine.pilot(PilotReport(id: "raymarine-204", state: "standby", standbyAsked: true))
        s.run(until: 10, step: 0.5) { _ in [] }
        #expect(s.status(AlarmKind.autopilot.path)?.isActive == false)
        // Off-line while steering.
        s.engine.pilot(PilotReport(id: "raymarine-204", state: "auto", standbyAsked: false))
        s.run(until: 12, step: 0.5) { _ in [] }
        s.engine.pilot(PilotReport(id: "raymarine-204", state: "off-line", standbyAsked: false))
        s.run(until: 14, step: 0.5) { _ in [] }
        #expect(s.status(AlarmKind.autopilot.path)?.isActive == true)
        #expect(s.said.contains("autopilot off-line"))
    }
}
