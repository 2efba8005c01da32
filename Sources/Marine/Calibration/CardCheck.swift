/// Whether the wind sees the compass card learnt from the track (``DeviationCurve``, ``DeviationLearner``). A heading
/// read wrong turns the true wind direction by as much, so across a tack or a gybe the card changes each signed jump
/// (``CalibrationReport/signedJumps(_:_:_:)``) by the difference of its two headings' deviations; a right card takes
/// out of the jumps what it changes in them. The slope of the jumps (with the rest of the calibration, the card left
/// out: the other errors' share of each jump taken out first) on the card's own change of them, by least squares over
/// the manoeuvres, is −1 when the card is the heading's error and 0 when the wind does not see it: then what the track
/// showed was something else (a leeway the model lacks, a compass's heeling error, the current changing under the
/// boat), and the card turns the true wind by it.
public struct CardCheck: Hashable, Sendable {
    public var slope: Double
    /// One standard error of the slope.
    public var error: Double
    public var count: Int
    /// The spread of the card's change of the jumps (degrees, root mean square about its mean): under half a degree
    /// the manoeuvres cannot tell, and `slope` is not a number.
    public var spread: Double

    /// Fewest manoeuvres to say anything, and the least spread.
    public static let minimumCount = 5
    public static let minimumSpread = 0.5

    /// The check of `card` on `manoeuvres` (tacks, or gybes) under the rest of `calibration` (its own card left out),
    /// nil with fewer than ``minimumCount`` or no card.
    public static func of(
        _ samples: [SailingSample], _ manoeuvres: [Manoeuvre], card: DeviationCurve,
        calibration: SailingCalibration = SailingCalibration()
    ) -> CardCheck? {
        guard manoeuvres.count >= minimumCount, !card.isZero else { return nil }
        var base = calibration
        base.deviation = DeviationCurve()
        var carded = base
        carded.deviation = card
        let plain = CalibrationReport.signedJumps(samples, manoeuvres, base)
        let changed = CalibrationReport.signedJumps(samples, manoeuvres, carded)
        let x = zip(changed, plain).map { Angle.relative($0.0 - $0.1) }
        let n = Double(x.count)
        let meanX = x.reduce(0, +) / n
        let meanY = plain.reduce(0, +) / n
        var sxx = 0.0
        var sxy = 0.0
        for (a, b) in zip(x, plain) {
            sxx += (a - meanX) * (a - meanX)
            sxy += (a - meanX) * (b - meanY)
        }
        let spread = (sxx / n).squareRoot()
        guard spread >= minimumSpread else {
            return CardCheck(slope: .nan, error: .infinity, count: x.count, spread: spread)
        }
        let slope = sxy / sxx
        var squares = 0.0
        for (a, b) in zip(x, plain) {
            let r = b - meanY - slope * (a - meanX)
            squares += r * r
        }
        let error = (squares / max(1, n - 2) / sxx).squareRoot()
        return CardCheck(slope: slope, error: error, count: x.count, spread: spread)
    }

    /// What it says: `the wind sees it` (the slope beyond two errors of 0, on the side of −1), `the wind does not see
    /// it` (beyond two errors of −1, on the side of 0 or past it: a card the jumps go against), or `cannot tell` (within
    /// two errors of both, or no spread to judge by).
    public var words: String {
        guard slope.isFinite, error.isFinite else { return "cannot tell" }
        if abs(slope) > 2 * error && slope < -0.5 { return "the wind sees it" }
        if abs(slope + 1) > 2 * error && slope >= -0.5 { return "the wind does not see it" }
        return "cannot tell"
    }
}
