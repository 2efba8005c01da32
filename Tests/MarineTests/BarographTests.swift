import Testing

@testable import Marine

/// The barograph's tendency in the shipping forecast's words, and gusts as WMO defines them, against series worked
/// by hand.
@Suite struct BarographTests {
    struct TendencyCase: Sendable, CustomTestStringConvertible {
        var hPa: Double
        var words: String
        var testDescription: String { "\(hPa) hPa in 3 h: \(words)" }
    }

    @Test(
        "the three-hour change in words",
        arguments: [
            TendencyCase(hPa: 0.05, words: "steady"), TendencyCase(hPa: -0.05, words: "steady"),
            TendencyCase(hPa: 1.0, words: "rising slowly"), TendencyCase(hPa: -1.5, words: "falling slowly"),
            TendencyCase(hPa: -3.0, words: "falling"), TendencyCase(hPa: 3.5, words: "rising"),
            TendencyCase(hPa: -4.0, words: "falling quickly"), TendencyCase(hPa: -6.5, words: "falling very rapidly"),
        ])
    func words(_ c: TendencyCase) {
        #expect(Barograph.Tendency(change: c.hPa * 100).words == c.words)
    }

    @Test("a steady fall of 1 hPa an hour: falling, 3 hPa in 3 h, read from the minutes three hours apart")
    func steadyFall() throws {
        var barograph = Barograph()
        // A reading every 10 s for 4 hours, from 1015 hPa down 1 hPa an hour.
        for step in 0...(4 * 360) {
            let time = Double(step) * 10
            barograph.add(101_500 - time / 36, at: time)
        }
        #expect(barograph.tendency(at: 2 * 3600) == nil, "not three hours yet")
        let tendency = try #require(barograph.tendency(at: 4 * 3600))
        // Minute 239 (mean of its six readings, at 239 m 25 s) against minute 59: 180 minutes, 3.00 hPa.
        #expect(abs(tendency.change - -300) < 0.5)
        #expect(tendency.words == "falling")
        #expect(tendency.signalK == "FALLING")
        // The history: a point every 10 minutes, oldest first, each the mean of its minutes' means: the last holds
        // minutes 231–239 (readings at 25 s into each on average) and the one reading of minute 240.
        let history = barograph.history(at: 4 * 3600, hours: 4, step: 10)
        #expect(history.count == 24)
        #expect(history.first!.minutesAgo == 239 && history.last!.minutesAgo == 9)
        let meanTime = (9 * 14_125.0 + 14_400) / 10
        #expect(abs(history.last!.pascals - (101_500 - meanTime / 36)) < 0.05)
    }

    @Test("a gap three hours back gives no tendency rather than a wrong one")
    func gap() {
        var barograph = Barograph()
        barograph.add(101_000, at: 0)
        for minute in 200...240 { barograph.add(100_000, at: Double(minute) * 60) }
        #expect(barograph.tendency(at: 241 * 60) == nil)
        barograph.add(.nan, at: 241 * 60)
        barograph.add(101_000, at: -5)
        #expect(barograph.mean(minute: 240) == 100_000)
    }

    @Test("a day later, yesterday's minute in the same slot is not taken for today's")
    func wraps() {
        var barograph = Barograph()
        barograph.add(99_000, at: 60)
        barograph.add(101_000, at: 60 + 86_400)
        #expect(barograph.mean(minute: 1 + 1440) == 101_000)
        #expect(barograph.mean(minute: 1) == nil)
    }

    @Test("the gust: the highest 3-second mean in the last ten minutes (hand-worked)")
    func gust() throws {
        var meter = GustMeter()
        #expect(meter.gust(at: 10) == nil)
        // Two readings a second of 5 m/s, and a squall: seconds 100–102 at 9, 10 and 14 m/s (means of 8/10, 10/10,
        // 12/16), second 103 at 6.
        for second in 0..<700 {
            var speeds = [5.0, 5.0]
            switch second {
            case 100: speeds = [8, 10]
            case 101: speeds = [10, 10]
            case 102: speeds = [12, 16]
            case 103: speeds = [6, 6]
            default: break
            }
            for (half, speed) in speeds.enumerated() { meter.add(speed, at: Double(second) + Double(half) / 2) }
            if second == 200 {
                // Best window 100–102: (9 + 10 + 14) / 3 = 11.
                #expect(abs(try #require(meter.gust(at: 201)) - 11) < 1e-6)
            }
        }
        // At 700 s the window (100–699) still holds the squall; once it has left, only the 5 m/s wind (the seconds
        // 700–709 with no reading make no window).
        #expect(abs(try #require(meter.gust(at: 700)) - 11) < 1e-6)
        #expect(abs(try #require(meter.gust(at: 710)) - 5) < 1e-6)
    }
}
