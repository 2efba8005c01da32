/// A station's harmonic constants ready to predict with: each constituent's speed, amplitude and phase on UTC, the
/// datum, and whether the station is a hydraulic current (its constants in knots², the current the signed square
/// root). What a reference station is, and a subordinate station whose offsets are simple (the same at high and low
/// water) once they are folded into the constants, as XTide does.
///
///     level(t) = datum + Σ f·A·cos(ω·(t − year start) + (V₀ + u) − κ′)
///
/// with f and V₀ + u for the year of t, κ′ the epoch moved to UTC (and later by a subordinate's time offset).
public struct TideHarmonics: Sendable {
    struct Term: Sendable {
        let name: String
        /// Radians a second.
        let speed: Double
        let amplitude: Double
        /// −κ′ in radians: V₀ + u is added for the year.
        let phase: Double
        let computed: TideConstituent?
        /// The file's own (V₀ + u in degrees, f) for each year from `tableStart`, for a constituent not computed.
        let table: [(argument: Double, factor: Double)]
        let tableStart: Int
    }

    let terms: [Term]
    /// The mean level (native units, knots for a current, hydraulic or not).
    public let datum: Double
    public let hydraulic: Bool

    /// A reference station's constants from `file`, moved by `timeAdd` hours and scaled by `multiply` then raised by
    /// `levelAdd` (a subordinate's simple offsets; none by default).
    public init(
        _ constants: TideRecord.Constants, units: String, file: HarmonicsFile, timeAdd: Double = 0,
        levelAdd: Double = 0, multiply: Double = 1
    ) {
        // The meridian to UTC: epochs kept on UTC−10 are moved ten hours on, as a time offset is.
        let shift = timeAdd - TideRecord.hours(constants.zoneOffset)
        var terms: [Term] = []
        for constituent in constants.constituents {
            let name = file.constituentNames[constituent.index]
            let degreesPerHour = file.speeds[constituent.index]
            var computed = TideConstituent.named(name)
            if let known = computed, abs(known.speed - degreesPerHour) > 1e-4 { computed = nil }
            var table: [(argument: Double, factor: Double)] = []
            if computed == nil {
                for year in file.years {
                    table.append(file.yearTable(constituent: constituent.index, year: year) ?? (0, 1))
                }
            }
            let epoch = constituent.epoch + shift * degreesPerHour
            terms.append(
                Term(
                    name: name, speed: degreesPerHour * TideAstronomy.radian / 3600,
                    amplitude: constituent.amplitude * multiply, phase: -epoch * TideAstronomy.radian,
                    computed: computed, table: table, tableStart: file.years.lowerBound))
        }
        self.terms = terms
        datum = constants.datumOffset * multiply + levelAdd
        hydraulic = units == "knots^2"
    }

    /// Constants given by hand (a station of one's own, a test): each constituent by its NOAA name (one of the 37
    /// Telltale computes), amplitude and epoch κ′ on UTC in degrees; the mean level; knots² when `hydraulic`.
    public init?(
        constituents: [(name: String, amplitude: Double, epoch: Double)], datum: Double, hydraulic: Bool = false
    ) {
        var terms: [Term] = []
        for given in constituents {
            guard let constituent = TideConstituent.named(given.name), given.amplitude >= 0 else { return nil }
            terms.append(
                Term(
                    name: given.name, speed: constituent.speed * TideAstronomy.radian / 3600,
                    amplitude: given.amplitude, phase: -given.epoch * TideAstronomy.radian, computed: constituent,
                    table: [], tableStart: 0))
        }
        guard !terms.isEmpty else { return nil }
        self.terms = terms
        self.datum = datum
        self.hydraulic = hydraulic
    }

    /// The constants' amplitudes times f and phases plus V₀ + u for `year` (starting at `start`, UNIX seconds).
    func year(_ year: Int) -> TideYear {
        let start = TideCalendar.yearStart(year)
        let startSky = TideAstronomy(unixTime: start)
        let middleSky = TideAstronomy(unixTime: start + 182 * 86_400)
        var amplitudes: [Double] = []
        var phases: [Double] = []
        amplitudes.reserveCapacity(terms.count)
        phases.reserveCapacity(terms.count)
        for term in terms {
            let argument: Double
            let factor: Double
            if let constituent = term.computed {
                (argument, factor) = constituent.yearArgument(start: startSky, middle: middleSky)
            } else if !term.table.isEmpty {
                let index = min(max(year - term.tableStart, 0), term.table.count - 1)
                (argument, factor) = term.table[index]
            } else {
                (argument, factor) = (0, 1)
            }
            amplitudes.append(term.amplitude * factor)
            phases.append(term.phase + argument * TideAstronomy.radian)
        }
        return TideYear(
            year: year, start: start, speeds: terms.map { $0.speed }, amplitudes: amplitudes, phases: phases)
    }

    /// The largest the curve's first and second derivatives can be in any year (node factors of 1.2 at most), for
    /// the steps of the search for high and low water.
    var slopeBound: Double { terms.reduce(0) { $0 + 1.2 * $1.amplitude * $1.speed } }
    var curvatureBound: Double { terms.reduce(0) { $0 + 1.2 * $1.amplitude * $1.speed * $1.speed } }
}

/// One year's coefficients of a station: from which they are summed.
struct TideYear: Sendable {
    let year: Int
    let start: Double
    let speeds: [Double]
    let amplitudes: [Double]
    let phases: [Double]

    /// The sum (derivative 0), its slope (1) or curvature (2) at `time`, native units a second^order.
    func value(_ time: Double, derivative: Int = 0) -> Double {
        let since = time - start
        var sum = 0.0
        for index in 0..<speeds.count {
            let angle = speeds[index] * since + phases[index]
            let w = speeds[index]
            switch derivative {
            case 0: sum += amplitudes[index] * cos(angle)
            case 1: sum -= amplitudes[index] * w * sin(angle)
            default: sum -= amplitudes[index] * w * w * cos(angle)
            }
        }
        return sum
    }
}

/// The first instant of a year, UTC, and the year of an instant (proleptic Gregorian).
enum TideCalendar {
    static func yearStart(_ year: Int) -> Double {
        let y = year - 1
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        // Days from 1970-01-01 to March 1 of year y's era-relative count, then to January 1 of `year`.
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + 306
        let days = era * 146_097 + doe - 719_468
        return Double(days) * 86_400
    }

    /// Years 1 to 9999 (an instant outside them, or not a number, counts as the nearest of them).
    static func year(of time: Double) -> Int {
        let clamped = time.isNaN ? 0 : min(max(time, -62_135_596_800), 253_402_300_799)
        var year = 1970 + Int((clamped / 31_556_952).rounded(.down))
        while yearStart(year) > clamped { year -= 1 }
        while yearStart(year + 1) <= clamped { year += 1 }
        return year
    }
}
