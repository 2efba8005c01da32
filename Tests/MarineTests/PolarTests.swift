import Marine
import Testing

/// Polars against hand-worked interpolations, in both layouts.
@Suite struct PolarTests {
    static let table = """
        TWA\\TWS;6;10
        0;0;0
        40;4;5
        60;5;6.5
        90;6;7.5
        150;5;7
        180;4;6.5
        """

    @Test("between the points of a curve, between curves, below the lightest wind, above the strongest, either side")
    func interpolation() throws {
        let polar = try Polar.parse(Self.table)
        #expect(polar.curves.map(\.windSpeed) == [6, 10])
        #expect(abs(polar.speed(angle: 50, windSpeed: 6) - 4.5) < 1e-12)
        // 4.5 at 6 kn, 5.75 at 10 kn: halfway at 8 kn.
        #expect(abs(polar.speed(angle: 50, windSpeed: 8) - 5.125) < 1e-12)
        #expect(abs(polar.speed(angle: -50, windSpeed: 8) - 5.125) < 1e-12)
        #expect(abs(polar.speed(angle: 20, windSpeed: 6) - 2) < 1e-12)  // from nothing head to wind
        #expect(abs(polar.speed(angle: 50, windSpeed: 3) - 2.25) < 1e-12)  // half the wind, half the speed
        #expect(abs(polar.speed(angle: 50, windSpeed: 25) - 5.75) < 1e-12)  // the strongest curve's
        #expect(abs(polar.speed(angle: 120, windSpeed: 10) - 7.25) < 1e-12)
        #expect(polar.speed(angle: 0, windSpeed: 10) == 0)
    }

    @Test("targets: the angles of best VMG up and down, found on the curve to a tenth of a degree")
    func targets() throws {
        let polar = try Polar.parse(Self.table)
        // Upwind at 6 kn: VMG = v·cos(a) falls from 40° (4·cos 40° = 3.064), and from nothing below it rises to 40°.
        let beat = polar.beat(windSpeed: 6)
        #expect(beat.angle == 40 && beat.speed == 4)
        #expect(abs(beat.windwardSpeed - 3.0642) < 0.0001)
        // Downwind at 6 kn: between 150° (5 kn) and 180° (4 kn), -v·cos(a) peaks at 158.0° (4.3887 kn).
        let run = polar.run(windSpeed: 6)
        #expect(abs(run.angle - 158) < 0.05, "\(run.angle)")
        #expect(abs(-run.windwardSpeed - 4.3887) < 0.0005)
        // Between curves the targets are blended.
        let between = polar.beat(windSpeed: 8)
        let high = polar.beat(windSpeed: 10)
        #expect(abs(between.angle - (beat.angle + high.angle) / 2) < 1e-9)
    }

    @Test("Expedition's layout (a row per wind speed of angle and speed pairs) reads as the same polar")
    func expedition() throws {
        let expedition = try Polar.parse(
            """
            !Expedition polar
            6\t40\t4\t60\t5\t90\t6\t150\t5\t180\t4
            10\t40\t5\t60\t6.5\t90\t7.5\t150\t7\t180\t6.5
            """)
        let table = try Polar.parse(Self.table)
        for angle in stride(from: 0.0, through: 180, by: 7.5) {
            for wind in [3.0, 6, 7, 10, 14] {
                #expect(
                    abs(expedition.speed(angle: angle, windSpeed: wind) - table.speed(angle: angle, windSpeed: wind))
                        < 1e-12)
            }
        }
    }

    @Test("tabs, commas and spaces as separators; empty cells are no data; mistakes are named with their line")
    func layouts() throws {
        let tabs = try Polar.parse("twa/tws\t6\t10\r\n52\t4.5\t\r\n90\t6\t7.5\r\n")
        #expect(tabs.curves.map(\.angles) == [[52, 90], [90]])
        let spaces = try Polar.parse("TWA  6  10\n52  4.5  5.8\n")
        #expect(spaces.speed(angle: 52, windSpeed: 10) == 5.8)
        #expect(throws: Polar.ParseError.line(2, "200 is not an angle from 0 to 180")) {
            try Polar.parse("TWA;6\n200;4\n")
        }
        #expect(throws: Polar.ParseError.line(2, "fast is not a boat speed")) { try Polar.parse("TWA;6\n90;fast\n") }
        #expect(throws: Polar.ParseError.line(1, "knots is not a wind speed")) { try Polar.parse("TWA;knots\n") }
        #expect(throws: Polar.ParseError.empty) { try Polar.parse("# nothing\n\n") }
        // A float parser's forms no polar writes (fuzzing, 2026-12-01: "0x5" read as 5 kn, and in Expedition's layout
        // "nan" as a boat speed, a wind speed of -6 and an angle of 400 taken as they came).
        #expect(throws: Polar.ParseError.line(2, "0x5 is not a boat speed")) { try Polar.parse("TWA;6\n90;0x5\n") }
        #expect(throws: Polar.ParseError.line(1, "1e1 is not a wind speed")) { try Polar.parse("TWA;1e1\n") }
        #expect(throws: Polar.ParseError.line(1, "a wind speed then angle and speed pairs")) {
            try Polar.parse("6;45;nan;90;5.5\n")
        }
        #expect(throws: Polar.ParseError.line(1, "-6 is not a wind speed")) { try Polar.parse("-6;45;4.5;90;5.5\n") }
        #expect(throws: Polar.ParseError.line(2, "400 is not an angle from 0 to 180")) {
            try Polar.parse("6;45;4.5;90;5.5\n8;400;4.5;90;5.5\n")
        }
        #expect(throws: Polar.ParseError.line(1, "150 is not a boat speed")) { try Polar.parse("6;45;4.5;90;150\n") }
        #expect(try Polar.parse("6;45;4.5;90;5.5\n").curves.first?.speeds == [4.5, 5.5])
        #expect(throws: Polar.ParseError.line(1, "a wind speed then angle and speed pairs")) {
            try Polar.parse("6 40 4 60\n")
        }
    }
}
