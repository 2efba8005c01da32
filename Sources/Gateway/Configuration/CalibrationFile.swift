import Marine
import Platform
import SignalK

/// The calibration learnt from sailing, as `telltale calibrate sailing --output` writes it and `[calibration] file`
/// names it: a small TOML file, the values in `[sailing]` (awa_offset and the upwash in degrees added, speed_factor
/// multiplying boat speed, speed_side its part by the side she heels to (× 1 + speed_side on port tack, × 1 −
/// speed_side on starboard), aws_factor the apparent wind speed), each with its uncertainty and count in a comment.
/// Read back, a value outside its bounds is refused, not applied.
public enum CalibrationFile {
    public static func load(_ path: String) throws(ConfigurationFile.Error) -> SailingCalibration {
        let bytes: [UInt8]
        do { bytes = try POSIX.readFile(path, limit: 1 << 16) } catch {
            throw ConfigurationFile.Error(line: nil, key: path, message: "\(error)")
        }
        let table: TOMLTable
        do { table = try TOMLReader.parse(String(decoding: bytes, as: UTF8.self)) } catch {
            throw ConfigurationFile.Error(line: error.line, key: path, message: error.message)
        }
        guard let sailing = table["sailing"]?.table else {
            throw ConfigurationFile.Error(line: nil, key: path, message: "has no [sailing] table")
        }
        func value(_ key: String, _ bounds: ClosedRange<Double>, _ identity: Double) throws(ConfigurationFile.Error)
            -> Double
        {
            guard let entry = sailing[key] else { return identity }
            guard let number = entry.number, bounds.contains(number) else {
                throw ConfigurationFile.Error(
                    line: nil, key: path + " [sailing] " + key,
                    message: "must be a number in \(bounds.lowerBound)...\(bounds.upperBound)")
            }
            return number
        }
        var deviation = DeviationCurve()
        if let entry = sailing["deviation"] {
            let terms = numbers(entry) ?? []
            let curve = DeviationCurve(terms)
            let largest = stride(from: 0.0, to: 360, by: 5).map { abs(curve.deviation($0)) }.max() ?? 0
            guard terms.count == 5, largest <= 15 else {
                throw ConfigurationFile.Error(
                    line: nil, key: path + " [sailing] deviation",
                    message: "must be five numbers (a + b sin h + c cos h + d sin 2h + e cos 2h), 15° at most")
            }
            deviation = curve
        }
        var byWind = UpwashByWind()
        if let speeds = sailing["upwash_tws"] {
            let tws = numbers(speeds) ?? []
            let up = sailing["upwash_upwind_by_tws"].flatMap(numbers) ?? []
            let down = sailing["upwash_downwind_by_tws"].flatMap(numbers) ?? []
            let reach = sailing["upwash_reach_by_tws"].flatMap(numbers) ?? []
            let increasing = zip(tws, tws.dropFirst()).allSatisfy { $0 < $1 }
            guard !tws.isEmpty, tws.count == up.count, tws.count == down.count, increasing,
                sailing["upwash_reach_by_tws"] == nil || reach.count == tws.count,
                tws.allSatisfy({ $0 > 0 && $0 < 100 }), (up + down + reach).allSatisfy({ abs($0) <= 10 })
            else {
                throw ConfigurationFile.Error(
                    line: nil, key: path + " [sailing] upwash_tws",
                    message: "must be increasing wind speeds (knots) with as many upwash_upwind_by_tws and "
                        + "upwash_downwind_by_tws (and upwash_reach_by_tws, if any), each within 10°")
            }
            byWind = UpwashByWind(windSpeeds: tws, upwind: up, downwind: down, reach: reach)
        }
        var calibration = SailingCalibration(
            awaOffset: try value("awa_offset", -10...10, 0), upwashUpwind: try value("upwash_upwind", -10...10, 0),
            upwashDownwind: try value("upwash_downwind", -10...10, 0),
            upwashReach: try value("upwash_reach", -10...10, 0),
            speedFactor: try value("speed_factor", 0.7...1.4, 1), deviation: deviation,
            leewayCoefficient: sailing["leeway_coefficient"] == nil ? nil : try value("leeway_coefficient", 2...30, 12),
            awsFactor: try value("aws_factor", 0.7...1.4, 1), speedSide: try value("speed_side", -0.1...0.1, 0))
        calibration.upwashByWind = byWind
        calibration.logSteps = try steps(sailing, path)
        return calibration
    }

    /// The steps in the log's reading (`log_steps`, UTC in UNIX seconds, increasing, with as many
    /// `log_step_ratios` and `log_step_wind_ratios`, each within 0.5 to 2, and so what they scale a reading before
    /// any of them by: no two stretches of a log differ more, as no factor is beyond 0.7 to 1.4, and a thousand steps
    /// of 2 would take the oldest reading past any number): the ratios only, as they scale a reading of a time before
    /// each.
    static func steps(_ sailing: TOMLTable, _ path: String) throws(ConfigurationFile.Error) -> [LogStep] {
        guard let entry = sailing["log_steps"] else { return [] }
        let times = numbers(entry) ?? []
        let ratios = sailing["log_step_ratios"].flatMap(numbers) ?? []
        let wind = sailing["log_step_wind_ratios"].flatMap(numbers) ?? []
        guard !times.isEmpty, ratios.count == times.count,
            wind.count == times.count, zip(times, times.dropFirst()).allSatisfy({ $0 < $1 }),
            times.allSatisfy({ earliestStep <= $0 && $0 < 1e10 }),
            plausible(ratios), plausible(wind)
        else {
            throw ConfigurationFile.Error(
                line: nil, key: path + " [sailing] log_steps",
                message: "must be increasing UTC times (UNIX seconds) with as many log_step_ratios and "
                    + "log_step_wind_ratios, each within 0.5 to 2, and so their products from any step to the last")
        }
        return times.indices.map { index in
            var step = LogStep(
                time: times[index], ratio: ratios[index], factorBefore: ratios[index], factorAfter: 1, countBefore: 0,
                countAfter: 0)
            step.windRatio = wind[index]
            return step
        }
    }

    /// Whether each step's ratio is within 0.5 to 2, and every reading, however old, is scaled by 0.5 to 2 (the ratios
    /// of the steps after it multiplied).
    static func plausible(_ ratios: [Double]) -> Bool {
        var scale = 1.0
        for ratio in ratios.reversed() {
            guard (0.5...2).contains(ratio) else { return false }
            scale *= ratio
            guard (0.5...2).contains(scale) else { return false }
        }
        return true
    }

    /// An array's numbers; nil when it is not an array or any item is not a finite number (`nan`, `inf` and a
    /// string are TOML a hand may write: never read as 0, nor passed over, shifting the items after them).
    static func numbers(_ entry: TOMLValue) -> [Double]? {
        guard let items = entry.array else { return nil }
        let values = items.compactMap { $0.number }
        return values.count == items.count && values.allSatisfy { $0.isFinite } ? values : nil
    }

    /// A TOML array of numbers.
    static func list(_ values: [Double], _ decimals: Int) -> String {
        "[" + values.map { FixedDecimal.text($0, decimals: decimals) }.joined(separator: ", ") + "]"
    }

    /// Steps found in a log without dates have no calendar time: the file does not carry them (2000-01-01).
    static let earliestStep = 946_684_800.0

    /// The file for a report: the sure values, after `base` (the calibration the data was already corrected with);
    /// the values not sure keep the base's, and are said in a comment.
    public static func text(_ report: CalibrationReport, from sources: String, base: SailingCalibration = .init())
        -> String
    {
        let composed = base.then(report.calibration)
        var lines = [
            "# Telltale's calibration, learnt from sailing by `telltale calibrate sailing` (docs/calibration.md)",
            "# from \(sources): \(report.samples) s of sailing, \(report.manoeuvres.count) manoeuvres.",
            "", "[sailing]",
        ]
        for (key, learnt, value, identity, decimals) in [
            ("awa_offset", report.awaOffset, composed.awaOffset, 0.0, 2),
            ("upwash_upwind", report.upwashUpwind, composed.upwashUpwind, 0, 2),
            ("upwash_downwind", report.upwashDownwind, composed.upwashDownwind, 0, 2),
            ("upwash_reach", report.upwashReach, composed.upwashReach, 0, 2),
            ("speed_factor", report.speedFactor, composed.speedFactor, 1, 4),
            ("speed_side", report.speedSide, composed.speedSide, 0, 4),
            ("aws_factor", report.awsFactor, composed.awsFactor, 1, 4),
        ] {
            let spread = learnt.uncertainty.isFinite ? learnt.uncertainty : 0
            let note = "± \(FixedDecimal.text(spread, decimals: decimals)) from \(learnt.count), \(learnt.words)"
            let line = "\(key) = \(FixedDecimal.text(value, decimals: decimals))"
            if learnt.isApplied {
                lines.append(line + "  # " + note)
            } else if value != identity {
                lines.append(line + "  # as applied before; learnt now: " + note)
            } else {
                lines.append(
                    "# \(key) = \(FixedDecimal.text(learnt.value, decimals: decimals))  (\(note): not applied)")
            }
        }
        if !composed.upwashByWind.isEmpty {
            let table = composed.upwashByWind
            lines.append("upwash_tws = \(list(table.windSpeeds, 1))  # knots of true wind: the upwash by wind speed")
            lines.append("upwash_upwind_by_tws = \(list(table.upwind, 2))")
            lines.append("upwash_downwind_by_tws = \(list(table.downwind, 2))")
            if !table.reach.isEmpty { lines.append("upwash_reach_by_tws = \(list(table.reach, 2))") }
        }
        if let coefficient = composed.leewayCoefficient {
            let learnt = report.deviation?.leeway
            lines.append(
                "leeway_coefficient = \(FixedDecimal.text(coefficient, decimals: 2))  # K in K × heel / STW²; "
                    + (report.calibration.leewayCoefficient != nil && learnt != nil
                        ? "± \(FixedDecimal.text(learnt?.uncertainty ?? 0, decimals: 2)), learnt now"
                        : "as applied before"))
        }
        let dated = composed.logSteps.filter { $0.time >= earliestStep }
        let ratios = dated.map { $0.ratio }
        let wind = dated.map { $0.windRatio }
        if !dated.isEmpty, !plausible(ratios) || !plausible(wind) {
            // Never a file its reader refuses: a log read that far apart between days is a sensor's fault.
            lines.append("# log_steps: not written (a step, or the steps together, beyond 0.5 to 2)")
        } else if !dated.isEmpty {
            let days = dated.map { String(SignalKTime.text(unixTime: $0.time).prefix(10)) }.joined(separator: ", ")
            lines.append(
                "log_steps = \(list(dated.map { $0.time }, 0))  # UTC (UNIX seconds) of each step in the log's reading ("
                    + days + "): a reading from before one is scaled by its ratios")
            lines.append("log_step_ratios = \(list(ratios, 4))  # the log's")
            lines.append("log_step_wind_ratios = \(list(wind, 4))  # the apparent wind speed's")
        }
        if !composed.deviation.isZero {
            let terms = composed.deviation.coefficients.map { FixedDecimal.text($0, decimals: 3) }
            let learnt = report.deviation?.deviation
            lines.append(
                "deviation = [" + terms.joined(separator: ", ")
                    + "]  # degrees added to the heading: a + b sin h + c cos h"
                    + " + d sin 2h + e cos 2h; " + (learnt?.isSure == true ? "learnt now" : "as applied before"))
        } else if let learnt = report.deviation?.deviation, learnt.status != .notEnoughData {
            lines.append(
                "# deviation: up to \(FixedDecimal.text(learnt.value, decimals: 1))° (\(learnt.words): not applied)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
