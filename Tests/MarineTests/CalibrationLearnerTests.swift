import Marine
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A synthetic afternoon: the wind over the ground from 10° ± 4° (a slow oscillation), 12 kn; a current of 0.6 kn
/// setting 100°; two hours of beating (a tack every four minutes, TWA ±42°, 6 kn) then two of running (a gybe every
/// four minutes, TWA ±150°, 7 kn), each turn taking 8 s through the wind. The instruments read with the errors given:
/// the apparent angle `offset` more to starboard and `upwash` wider (and `reachError` wider still by its reaching
/// share, ``PointOfSail``), the log `1 / factor` of the speed, and `logSide` more of it on port tack upwind (heeled to
/// starboard), as much less on starboard tack. `runningAngle` 115° makes the runs broad reaches.
struct SyntheticAfternoon {
    var offset = 0.0
    var upwash = 0.0
    var factor = 1.0
    var noise = 0.5
    var windSpeed = 12.0
    var runningAngle = 150.0
    var reachError = 0.0
    var logSide = 0.0
    /// The masthead unit's speed reads 1/windFactor of the true apparent wind speed.
    var windFactor = 1.0
    /// Seconds upwind, then as many downwind, in turn (7200: one of each in the afternoon).
    var stretch = 7200
    var start = 1_700_000_000.0
    /// The instruments' own true wind angle (MWV T) read this much wider on both tacks; nil: they send none.
    var instrumentWiden: Double?

    func samples() -> [SailingSample] {
        var seed: UInt64 = 7
        func jitter() -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (Double(seed >> 11) / Double(1 << 53) - 0.5) * 2 * noise
        }
        let current = PlaneVector(magnitude: 0.6, angle: 100)
        var out: [SailingSample] = []
        for second in 0..<14_400 {
            let t = Double(second)
            let groundFrom = 10 + 4 * sin(2 * Double.pi * t / 1500)
            // The wind's velocity (where it blows to) over the ground, and over the water the boat moves in.
            let blowing = PlaneVector(magnitude: windSpeed, angle: groundFrom + 180) - current
            let waterFrom = Angle.direction(blowing.angle + 180)
            let upwind = (second / stretch) % 2 == 0
            let leg = Int(t) % 240
            let side: Double = (Int(t) / 240) % 2 == 0 ? 1 : -1
            let twa = upwind ? 42.0 : runningAngle
            var angle = side * twa
            var speed = upwind ? 6.0 : 7.0
            if leg >= 232 {  // turning onto the other side, through the wind or dead downwind
                let f = Double(leg - 231) / 9
                angle = upwind ? side * twa * (1 - 2 * f) : side * (twa + (360 - 2 * twa) * f)
                angle = Angle.relative(angle)
                speed *= 0.7
            }
            let heading = Angle.direction(waterFrom - angle)
            let trueWind = RelativeWind(angle: angle, speed: blowing.magnitude)
            let apparent = WindTriangle.apparentWind(true: trueWind, speedThroughWater: speed)
            let sign: Double = apparent.angle < 0 ? -1 : 1
            let wider = upwash + reachError * PointOfSail.reach.share(abs(apparent.angle))
            let measured = Angle.relative(apparent.angle + sign * wider + offset + jitter())
            let ground = PlaneVector(magnitude: speed, angle: heading) + current
            let log = upwind ? 1 + (angle < 0 ? logSide : -logSide) : 1
            out.append(
                SailingSample(
                    time: start + t, awa: measured, aws: apparent.speed / windFactor,
                    stw: speed * log / factor + jitter() * 0.1,
                    heading: Angle.direction(heading + jitter()), cog: Angle.direction(ground.angle),
                    sog: ground.magnitude,
                    instrumentTrueAngle: instrumentWiden.map { Angle.relative(angle + (angle < 0 ? -$0 : $0)) }))
        }
        return out
    }
}

@Suite struct CalibrationLearnerTests {
    @Test func recoversInjectedErrors() {
        let samples = SyntheticAfternoon(offset: 3, upwash: 4, factor: 1.08).samples()
        let report = CalibrationLearner().learn(samples)
        #expect(report.manoeuvres.filter { $0.kind == .tack }.count >= 20)
        #expect(report.manoeuvres.filter { $0.kind == .gybe }.count >= 20)
        #expect(abs(report.speedFactor.value - 1.08) < 0.015, "\(report.speedFactor)")
        #expect(abs(report.awaOffset.value + 3) < 0.5, "\(report.awaOffset)")
        #expect(abs(report.upwashUpwind.value + 4) < 1, "\(report.upwashUpwind)")
        // Downwind the apparent angle (about 135°) is on the upwash's ramp: the value is larger than the 4° injected,
        // what it does there is 4°.
        let running = SyntheticAfternoon(offset: 3, upwash: 4, factor: 1.08).samples()[9000]
        let undone = report.calibration.apparentAngle(running.awa) - (running.awa + report.calibration.awaOffset)
        #expect(abs(abs(undone) - 4) < 1, "\(report.upwashDownwind) undoes \(undone)° at \(running.awa)°")
        #expect(report.speedFactor.isSure && report.awaOffset.isSure && report.upwashUpwind.isSure)
        let tacks = report.manoeuvres.filter { $0.kind == .tack }
        let raw = CalibrationReport.bias(samples, tacks, SailingCalibration())
        let calibrated = CalibrationReport.bias(samples, tacks, report.calibration)
        #expect(abs(raw.bias) > 4 && abs(calibrated.bias) < 1, "\(raw) \(calibrated)")
        let gybes = report.manoeuvres.filter { $0.kind == .gybe }
        let gybeBias = CalibrationReport.bias(samples, gybes, report.calibration).bias
        #expect(abs(gybeBias) < 1, "gybes \(gybeBias)°")
    }

    @Test func cleanInstrumentsLearnNoCorrection() {
        let report = CalibrationLearner().learn(SyntheticAfternoon().samples())
        #expect(abs(report.awaOffset.value) < 0.5 && abs(report.upwashUpwind.value) < 1)
        #expect(abs(report.speedFactor.value - 1) < 0.015)
        #expect(abs(report.speedSide.value) < 0.005, "\(report.speedSide)")
    }

    /// A log reading 4 % more on port tack and 4 % less on starboard: the side term undoes it (port × (1 + s),
    /// starboard × (1 − s): s about −0.04), sure, the common factor left at one, and the calibrated current the same
    /// on both tacks.
    @Test func theLogBySideIsLearnt() {
        let samples = SyntheticAfternoon(factor: 1.05, logSide: 0.04).samples()
        let report = CalibrationLearner().learn(samples)
        #expect(abs(report.speedSide.value + 0.04) < 0.005 && report.speedSide.isSure, "\(report.speedSide)")
        #expect(abs(report.speedFactor.value - 1.05) < 0.01, "\(report.speedFactor)")
        #expect(report.calibration.speedSide == report.speedSide.value)
        // Learnt as one factor only, the tacks' current would jump by some 0.5 kn: with the side, within 0.1 kn.
        let tacks = report.manoeuvres.filter { $0.kind == .tack }
        var oneFactor = report.calibration
        oneFactor.speedSide = 0
        for (calibration, limit) in [(report.calibration, 0.1), (oneFactor, 9.0)] {
            let jumps = tacks.compactMap { tack -> Double? in
                let before = WindowMeans(samples, tack.before, calibration)
                let after = WindowMeans(samples, tack.after, calibration)
                guard let g0 = before.ground, let g1 = after.ground else { return nil }
                let change = (g1 - after.water) - (g0 - before.water)
                return (change.x * change.x + change.y * change.y).squareRoot()
            }.sorted()
            #expect(jumps.count >= 20 && jumps[jumps.count / 2] < limit, "\(jumps[jumps.count / 2]) kn")
            if limit > 1 { #expect(jumps[jumps.count / 2] > 0.3, "one factor: \(jumps[jumps.count / 2]) kn") }
        }
    }

    @Test func aLogThatDiffersByTackBeyondItsBoundIsASensorFault() {
        let report = CalibrationLearner().learn(SyntheticAfternoon(logSide: 0.15).samples())
        guard case .sensorFault(let words) = report.speedSide.status else {
            Issue.record("\(report.speedSide)")
            return
        }
        #expect(words.contains("more on port tack") && report.calibration.speedSide == 0, "\(words)")
    }

    @Test func calibratedTrueWindMatchesTheTruth() {
        let errors = SyntheticAfternoon(offset: 3, upwash: 4, factor: 1.08)
        let clean = SyntheticAfternoon()
        let learnt = CalibrationLearner().learn(errors.samples()).calibration
        var worst = 0.0
        for (a, b) in zip(errors.samples(), clean.samples()) where abs(a.awa) < 60 {
            let calibrated = learnt.trueWind(a).angle
            worst = max(worst, abs(Angle.difference(from: SailingCalibration().trueWind(b).angle, to: calibrated)))
        }
        #expect(worst < 3, "worst \(worst)°")
    }

    @Test func aStuckWindAngleIsASensorFault() {
        var samples = SyntheticAfternoon().samples()
        for i in samples.indices { samples[i].awa = 45 }
        let report = CalibrationLearner().learn(samples)
        #expect(report.faults.contains { $0.contains("wind angle is stuck at 45°") })
        #expect(report.calibration.isIdentity)
        guard case .sensorFault = report.awaOffset.status else {
            Issue.record("the offset is not a fault: \(report.awaOffset)")
            return
        }
    }

    @Test func motoringInAStraightLineIsNotEnoughData() {
        var samples: [SailingSample] = []
        for second in 0..<3600 {
            let wobble = Double(second % 5)
            samples.append(
                SailingSample(
                    time: Double(second), awa: 5 + wobble, aws: 8 + wobble * 0.1, stw: 6 + wobble * 0.05,
                    heading: 90, cog: 90, sog: 6))
        }
        let report = CalibrationLearner().learn(samples)
        #expect(report.manoeuvres.isEmpty && report.calibration.isIdentity)
        #expect(report.awaOffset.status == .notEnoughData && report.speedFactor.status == .notEnoughData)
    }

    @Test func theInstrumentsOwnTrueWindIsJudgedBeside() {
        // Their true wind angle 3° too wide on both tacks: TWD 3° to the right on starboard, 3° left on port, so each
        // tack's signed jump is -6°. Telltale's own (the apparent wind, no error) shows no bias.
        let samples = SyntheticAfternoon(instrumentWiden: 3).samples()
        let tacks = CalibrationLearner().learn(samples).manoeuvres.filter { $0.kind == .tack }
        let own = CalibrationReport.instrumentBias(samples, tacks)
        #expect(own.count == tacks.count && tacks.count >= 20)
        #expect(abs(own.bias + 6) < 0.5, "\(own)")
        #expect(abs(CalibrationReport.bias(samples, tacks, SailingCalibration()).bias) < 1)
        let right = CalibrationReport.instrumentBias(SyntheticAfternoon(instrumentWiden: 0).samples(), tacks)
        #expect(abs(right.bias) < 0.5, "\(right)")
        // A log without MWV T: nothing to judge, said as none.
        #expect(CalibrationReport.instrumentBias(SyntheticAfternoon().samples(), tacks).count == 0)
    }

    @Test func eachManoeuvresInstrumentDirectionIsTheirs() {
        // What the report gives for each tack (`twd_before_instruments`): 3° to the right of the true wind's direction
        // on starboard, 3° to the left on port; none in a window where a second lacks MWV T.
        var samples = SyntheticAfternoon(instrumentWiden: 3).samples()
        let tack = CalibrationLearner().learn(samples).manoeuvres.first { $0.kind == .tack }!
        for (range, side) in [(tack.before, tack.sideBefore), (tack.after, -tack.sideBefore)] {
            let theirs = CalibrationReport.instrumentDirection(samples, range)!
            let truth = WindowMeans(samples, range, SailingCalibration()).trueDirection
            #expect(abs(Angle.difference(from: truth, to: theirs) - 3 * side) < 0.5, "\(theirs) \(truth)")
        }
        samples[tack.before.lowerBound + 1].instrumentTrueAngle = nil
        #expect(CalibrationReport.instrumentDirection(samples, tack.before) == nil)
        #expect(CalibrationReport.instrumentDirection(samples, tack.after) != nil)
    }

    @Test func anOffsetBeyondItsBoundIsNotApplied() {
        let report = CalibrationLearner().learn(SyntheticAfternoon(offset: 14).samples())
        guard case .sensorFault(let why) = report.awaOffset.status else {
            Issue.record("\(report.awaOffset)")
            return
        }
        #expect(why.contains("not applied") && report.calibration.awaOffset == 0)
    }
}

@Suite struct PolarLearnerTests {
    @Test func steadyLegsFillTheirCellsAtTheSpeedSailed() throws {
        let samples = SyntheticAfternoon().samples()
        let learnt = PolarLearner().learn(samples, calibration: SailingCalibration())
        let beat = learnt.filled.first { $0.angle == 40 && $0.wind == 12 }
        let run = learnt.filled.first { $0.angle == 150 && $0.wind == 12 }
        #expect(beat.map { abs($0.speed - 6) < 0.06 && $0.count >= 20 } == true, "\(String(describing: beat))")
        #expect(run.map { abs($0.speed - 7) < 0.07 && $0.count >= 20 } == true, "\(String(describing: run))")
        // No other point of sail was sailed: no other angle has data.
        #expect(learnt.filled.allSatisfy { [40, 45, 150].contains($0.angle) }, "\(learnt.filled.map { $0.angle })")
        let polar = try Polar.parse(learnt.table())
        #expect(abs(polar.speed(angle: 40, windSpeed: 12) - (beat?.speed ?? 0)) < 0.01)
    }

    @Test func turnsAreNotSteadySailing() {
        // Turning all the time (10° a second): no minute is steady.
        let samples = (0..<3600).map { second in
            SailingSample(
                time: Double(second), awa: 40, aws: 14, stw: 6, heading: Double(second * 10 % 360), cog: nil, sog: nil)
        }
        #expect(PolarLearner().learn(samples, calibration: SailingCalibration()).points == 0)
    }
}
