import Testing

@testable import Marine

/// The deviation learner against a boat sailed in the computer with a known compass card, a current that turns
/// slowly, leeway close-hauled and noisy fixes: the card and the leeway come back; too little sailing says so; a
/// compass 20° out is a fault, not a correction.
@Suite struct DeviationLearnerTests {
    /// A deterministic noise in ±1.
    struct Noise {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        mutating func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53) * 2 - 1
        }
    }

    /// Legs of `legSeconds` at compass headings all round the rose, each on one point of sail: the true heading is
    /// the compass's plus `card`; close-hauled the boat slides `leeway` degrees to leeward; a current of 0.4 kn turns
    /// through 90° over the day.
    static func sail(
        card: DeviationCurve, leeway: Double, legs: Int = 48, legSeconds: Int = 240, coefficient: Double? = nil,
        headings: [Double]? = nil
    ) -> [SailingSample] {
        var noise = Noise()
        var samples: [SailingSample] = []
        var time = 0.0
        let angles = [40.0, -40, 100, -100, 150, -150]
        for leg in 0..<legs {
            let compass = headings.map { $0[leg % $0.count] } ?? Double((leg * 67) % 360)
            let awa = angles[leg % angles.count]
            // Heeled to leeward (the wind from starboard: heel to port, negative), more close-hauled.
            let heel = coefficient == nil ? nil : (awa > 0 ? -1.0 : 1.0) * (abs(awa) < 90 ? 18 : 6)
            for _ in 0..<legSeconds {
                let measured = Angle.direction(compass + noise.next() * 1.5)
                let heading = measured + card.deviation(measured)
                let stw = 5 + noise.next() * 0.2
                let slide =
                    heel.map { (coefficient ?? 0) * $0 / (stw * stw) }
                    ?? (abs(awa) < 90 ? (awa > 0 ? -leeway : leeway) : 0)
                let current = PlaneVector(magnitude: 0.4, angle: 200 + time / 86_400 * 90)
                let ground = PlaneVector(magnitude: stw, angle: heading + slide) + current
                let cog = Angle.direction(ground.angle + noise.next() * 2)
                let sog = (ground.x * ground.x + ground.y * ground.y).squareRoot() * (1 + noise.next() * 0.02)
                samples.append(
                    SailingSample(
                        time: time, awa: awa, aws: 12, stw: stw, heading: measured, cog: cog, sog: sog, heel: heel))
                time += 1
            }
        }
        return samples
    }

    @Test("a five-term card and 4° of leeway close-hauled come back within half a degree, sure")
    func card() {
        let card = DeviationCurve([1, 3, -2, 1.5, 0.5])
        let report = DeviationLearner().learn(Self.sail(card: card, leeway: 4), SailingCalibration())
        #expect(report.deviation.isSure, "\(report.deviation.words), ± \(report.deviation.uncertainty)")
        for heading in stride(from: 0.0, to: 360, by: 30) {
            let error = report.curve.deviation(heading) - card.deviation(heading)
            #expect(abs(error) < 0.5, "at \(heading)°: learnt \(report.curve.deviation(heading))")
        }
        #expect(!report.leewayByHeel && abs(report.leeway.value - 4) < 0.5, "leeway \(report.leeway.value)")
        #expect(report.octants == 8 && report.pieces > 300)
    }

    @Test("with the heel known, the leeway's K in K × heel / STW² comes back (10 within 1) with the card")
    func coefficient() {
        let card = DeviationCurve([0, 2, 1, 0, 0])
        let report = DeviationLearner().learn(Self.sail(card: card, leeway: 0, coefficient: 10), SailingCalibration())
        #expect(report.leewayByHeel && abs(report.leeway.value - 10) < 1, "K \(report.leeway.value)")
        #expect(report.leeway.isSure && report.deviation.isSure)
        for heading in stride(from: 0.0, to: 360, by: 30) {
            #expect(abs(report.curve.deviation(heading) - card.deviation(heading)) < 0.5, "at \(heading)°")
        }
    }

    @Test("no deviation is learnt as none")
    func none() {
        let report = DeviationLearner().learn(Self.sail(card: DeviationCurve(), leeway: 0), SailingCalibration())
        for heading in stride(from: 0.0, to: 360, by: 30) {
            #expect(abs(report.curve.deviation(heading)) < 0.4, "at \(heading)°")
        }
    }

    @Test("two legs are not enough; a compass 20° out is a fault, not applied")
    func refused() {
        let short = DeviationLearner().learn(
            Self.sail(card: DeviationCurve(), leeway: 0, legs: 2, legSeconds: 100), SailingCalibration())
        #expect(short.deviation.status == .notEnoughData)
        let iron = DeviationLearner().learn(
            Self.sail(card: DeviationCurve([0, 20, 0, 0, 0]), leeway: 0), SailingCalibration())
        guard case .sensorFault = iron.deviation.status else {
            Issue.record("a 20° card: \(iron.deviation.words)")
            return
        }
        // The same compass sailed in three octants only: the rose is not known round, so it is not called iron (the
        // fit there can trade the card for the leeway and the current); unsure, not applied.
        let few = DeviationLearner().learn(
            Self.sail(card: DeviationCurve([0, 20, 0, 0, 0]), leeway: 0, headings: [60, 100, 150]),
            SailingCalibration())
        #expect(few.octants == 3 && few.deviation.status == .unsure, "\(few.octants) octants: \(few.deviation.words)")
    }
}
