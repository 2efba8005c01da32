/// A station's harmonic curve in time: its constants' sum for the year of each instant (the year's coefficients kept
/// while asked for), blended across each new year over two hours as XTide does (a year's node factors and arguments
/// differ a little from the next's, and a step in the curve would make a false high or low water), the hydraulic
/// current's square root taken and the datum added.
struct HarmonicCurve: Sendable {
    let harmonics: TideHarmonics
    private var years: [TideYear] = []
    /// Half the time over which one year's coefficients become the next's.
    static let blend = 3600.0

    init(_ harmonics: TideHarmonics) { self.harmonics = harmonics }

    /// The level (native units; knots for a current, flood positive) at `time`.
    mutating func level(_ time: Double) -> Double { finish(raw(time, derivative: 0)) }

    /// The sum with no datum (knots² for a hydraulic current), or its slope (`derivative` 1) a second.
    mutating func raw(_ time: Double, derivative: Int) -> Double {
        let year = TideCalendar.year(of: time)
        let here = coefficients(year)
        let since = time - here.start
        if since <= Self.blend {
            return blended(
                time, derivative: derivative, left: coefficients(year - 1), right: here, x: since / Self.blend)
        }
        let untilNext = TideCalendar.yearStart(year + 1) - time
        if untilNext <= Self.blend {
            return blended(
                time, derivative: derivative, left: here, right: coefficients(year + 1), x: -untilNext / Self.blend)
        }
        return here.value(time, derivative: derivative)
    }

    /// The raw sum as the station says it: a hydraulic current's signed square root, then the datum.
    func finish(_ raw: Double) -> Double {
        guard harmonics.hydraulic else { return raw + harmonics.datum }
        let root = (raw < 0 ? -raw : raw).squareRoot()
        return (raw < 0 ? -root : root) + harmonics.datum
    }

    /// The level the raw sum has at `level` (the inverse of `finish`), for crossings found on the raw sum.
    func raw(atLevel level: Double) -> Double {
        let value = level - harmonics.datum
        return harmonics.hydraulic ? (value < 0 ? -value * value : value * value) : value
    }

    private mutating func coefficients(_ year: Int) -> TideYear {
        if let found = years.first(where: { $0.year == year }) { return found }
        let made = harmonics.year(year)
        if years.count >= 3 { years.removeFirst() }
        years.append(made)
        return made
    }

    /// XTide's blend: w(x) rises from 0 at x = −1 to 1 at x = 1 with two continuous derivatives.
    private func blended(_ time: Double, derivative: Int, left: TideYear, right: TideYear, x: Double) -> Double {
        let l0 = left.value(time)
        let r0 = right.value(time)
        let x2 = x * x
        let w = x2 >= 1 ? (x > 0 ? 1.0 : 0.0) : ((3 * x2 - 10) * x2 + 15) * x / 16 + 0.5
        if derivative == 0 { return l0 + w * (r0 - l0) }
        let dw = x2 >= 1 ? 0 : ((x2 - 2) * x2 + 1) * 15 / 16
        let l1 = left.value(time, derivative: 1)
        let r1 = right.value(time, derivative: 1)
        return l1 + w * (r1 - l1) + dw / Self.blend * (r0 - l0)
    }
}
