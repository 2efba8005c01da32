import Marine
import SignalK

/// The deviation learner's part of the calibration report (``DeviationReport``), in words and in JSON: the card every
/// 45°, its largest value and error, the steady pieces and octants behind it, and the leeway.
enum CalibrationDeviationReport {
    static func lines(_ report: DeviationReport?) -> [String] {
        guard let report else { return [] }
        let card = stride(from: 0, to: 360, by: 45).map { heading in
            let value = report.curve.deviation(Double(heading))
            return (heading < 100 ? (heading < 10 ? "00" : "0") : "") + "\(heading)° "
                + (value >= 0 ? "+" : "") + FixedDecimal.text(value, decimals: 1)
        }
        let deviation = report.deviation
        let leeway = report.leeway
        let spread = { (v: LearntValue) in
            v.uncertainty.isFinite ? " ± " + FixedDecimal.text(v.uncertainty, decimals: 1) : ""
        }
        return [
            "  deviation: up to \(FixedDecimal.text(deviation.value, decimals: 1))°\(spread(deviation)) from "
                + "\(report.pieces) steady pieces in \(report.octants) of 8 octants: \(deviation.words)"
                + (deviation.status == .notEnoughData ? "" : " (" + card.joined(separator: ", ") + ")"),
            "  leeway: " + (report.leewayByHeel ? "K " : "") + FixedDecimal.text(leeway.value, decimals: 1)
                + (report.leewayByHeel ? " (× heel / STW²)" : "° close-hauled") + spread(leeway) + ": " + leeway.words,
        ]
    }

    /// The card learnt (or, judging, the one applied) against the wind across the tacks and the gybes (``CardCheck``).
    /// Written as plain loops: on the Pi's Embedded build (Swift 6.3, -Osize) the tuples of a label and a check built by
    /// `compactMap` and read back by `map` gave a string that crashed when appended to (`telltale calibrate sailing`
    /// under qemu-user, 2026-11-29).
    static func checks(_ report: CalibrationReport, _ samples: [SailingSample]) -> [LabelledCardCheck] {
        let card = report.deviation.map { $0.curve } ?? report.calibration.deviation
        var out: [LabelledCardCheck] = []
        for kind in [Manoeuvre.Kind.tack, .gybe] {
            let set = report.manoeuvres.filter { $0.kind == kind }
            if let check = CardCheck.of(samples, set, card: card, calibration: report.calibration) {
                out.append(LabelledCardCheck(label: kind == .tack ? "tacks" : "gybes", check: check))
            }
        }
        return out
    }

    static func checkLine(_ report: CalibrationReport, _ samples: [SailingSample]) -> [String] {
        let checks = checks(report, samples)
        guard !checks.isEmpty else { return [] }
        var each: [String] = []
        for labelled in checks {
            let check = labelled.check
            var text = labelled.label + " "
            text += check.slope.isFinite ? FixedDecimal.text(check.slope, decimals: 2) : "-"
            text += " ± "
            text += check.error.isFinite ? FixedDecimal.text(check.error, decimals: 2) : "-"
            text += " of " + String(check.count) + ", " + check.words
            each.append(text)
        }
        return ["  the card against the wind (-1: the heading's error; 0: unseen): " + each.joined(separator: "; ")]
    }

    /// `card_check`: `tacks` and `gybes`, each `slope`, `error`, `count`, `spread` and `says`.
    static func writeChecks(_ report: CalibrationReport, _ samples: [SailingSample], into out: inout JSONWriter) {
        let checks = checks(report, samples)
        guard !checks.isEmpty else { return }
        out.beginObject("card_check")
        for labelled in checks {
            let check = labelled.check
            out.beginObject(labelled.label)
            out.value("slope", check.slope.isFinite ? check.slope : nil)
            out.value("error", check.error.isFinite ? check.error : nil)
            out.value("count", check.count)
            out.value("spread", check.spread)
            out.value("says", check.words)
            out.endObject()
        }
        out.endObject()
    }

    /// `deviation` (`coefficients`, `table` every 15° of heading, `largest`, `uncertainty`, `pieces`, `octants`,
    /// `status`, `applied`) and `leeway` (`value`, `form`: "heel" or "upwind", `uncertainty`, `status`).
    static func write(_ report: DeviationReport?, into out: inout JSONWriter) {
        guard let report else { return }
        out.beginObject("deviation")
        out.beginArray("coefficients")
        for value in report.curve.coefficients { out.value(nil, value) }
        out.endArray()
        out.beginArray("table")
        for heading in stride(from: 0.0, to: 360, by: 15) {
            out.beginArray()
            out.value(nil, heading)
            out.value(nil, report.curve.deviation(heading))
            out.endArray()
        }
        out.endArray()
        out.value("largest", report.deviation.value)
        out.value("uncertainty", report.deviation.uncertainty.isFinite ? report.deviation.uncertainty : nil)
        out.value("pieces", report.pieces)
        out.value("octants", report.octants)
        out.value("status", report.deviation.words)
        out.value("applied", report.deviation.isSure)
        out.endObject()
        out.beginObject("leeway")
        out.value("value", report.leeway.value)
        out.value("form", report.leewayByHeel ? "heel" : "upwind")
        out.value("uncertainty", report.leeway.uncertainty.isFinite ? report.leeway.uncertainty : nil)
        out.value("status", report.leeway.words)
        out.endObject()
    }
}

/// A card check with the manoeuvres it was made on ("tacks", "gybes").
struct LabelledCardCheck {
    var label: String
    var check: CardCheck
}
