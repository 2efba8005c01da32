import Marine
import Testing

/// The configured polar with the learnt one over it (``Polar/learnt(_:)``), against hand-worked ratios.
@Suite struct PolarLearntTests {
    /// As the learner writes it: a column a wind speed, a row an angle, empty where the boat has not sailed steadily.
    static let learnt = """
        TWA\\TWS;4;6;8;10
        40;;;;
        60;;4.6;;
        90;;;;6.9
        150;;;;
        """

    @Test("where the boat sailed, her speed; the configured polar's shape round it; the configured speed elsewhere")
    func overConfigured() throws {
        let configured = try Polar.parse(PolarTests.table)
        let polar = configured.learnt(try Polar.parse(Self.learnt))
        #expect(polar.curves.map(\.windSpeed) == [6, 10])
        // On the configured grid: the learnt speeds themselves (92 % of 5 and of 7.5).
        #expect(abs(polar.speed(angle: 60, windSpeed: 6) - 4.6) < 1e-12)
        #expect(abs(polar.speed(angle: 90, windSpeed: 10) - 6.9) < 1e-12)
        // Beyond a learnt point's reach (20° off, 4 kn off): as configured.
        #expect(polar.speed(angle: 40, windSpeed: 6) == 4)
        #expect(polar.speed(angle: 90, windSpeed: 6) == 6)
        #expect(polar.speed(angle: 60, windSpeed: 10) == 6.5)
        #expect(polar.speed(angle: 150, windSpeed: 10) == 7)
        // Between: along the scaled curve (halfway from 4.6 at 60° to 6 at 90°).
        #expect(abs(polar.speed(angle: 75, windSpeed: 6) - 5.3) < 1e-12)
    }

    @Test("a learnt point between the configured angles scales the nearest configured points by its own ratio")
    func between() throws {
        let configured = try Polar.parse(PolarTests.table)
        // At 45° and 10 kn the configured polar says 5 + 1.5 × 5/20 = 5.375; the boat made 5.5 (×1.023256).
        let polar = configured.learnt(try Polar.parse("TWA\\TWS;10\n45;5.5\n"))
        #expect(abs(polar.speed(angle: 40, windSpeed: 10) - 5 * 5.5 / 5.375) < 1e-12)
        #expect(polar.speed(angle: 60, windSpeed: 10) == 6.5)  // 15° away: out of reach
        #expect(polar.speed(angle: 40, windSpeed: 6) == 4)  // 4 kn away: out of reach
    }

    @Test("a learner that found nothing steady writes a table that does not parse, so it is never taken")
    func emptyTable() throws {
        #expect(throws: Polar.ParseError.self) { try Polar.parse(LearntPolar().table()) }
        let configured = try Polar.parse(PolarTests.table)
        #expect(configured.learnt(try Polar.parse("TWA\\TWS;30\n120;9\n")) == configured)
    }
}
