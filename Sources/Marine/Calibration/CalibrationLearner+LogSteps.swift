/// Steps in the log's reading between days (``LogStep``): a paddle wheel fouled by weed reads low for weeks and reads
/// right again once cleaned, and a factor learnt over both is neither. The factor each manoeuvre says (``WaterChange``,
/// under no calibration) is split where, between two days, the manoeuvres before and after say factors that differ by
/// more than ``stepSize`` and by more than ``stepSignificance`` times their medians' errors (with the days' spread:
/// ``RobustStatistics/medianError(_:days:)``), each stretch with ``sureCount`` manoeuvres at least (the newest with
/// ``minimumCount``: a step seen from it is ``LogStep/provisional``); each part is split again the same way
/// (``split(_:_:_:)``). A step's ratio is its two neighbouring stretches'.
extension CalibrationLearner {
    /// The least change of the log's factor called a step (a sure factor is within 1.5 %).
    static let stepSize = 0.05
    /// How many standard errors of the two medians' difference it must be.
    static let stepSignificance = 4.0

    /// The steps in the log's reading across `manoeuvres` (tacks and gybes) and `roundings`, in time order, each with
    /// the wind speed's part in it (``windRatios(_:_:_:_:)``); the factors under `base` (its card, once learnt: a card
    /// turns the water's track by heading).
    func logSteps(
        _ samples: [SailingSample], _ manoeuvres: [Manoeuvre], _ roundings: [Manoeuvre],
        under base: SailingCalibration = SailingCalibration()
    ) -> [LogStep] {
        let found = factorSteps(samples, manoeuvres + roundings, under: base)
        return windRatios(samples, found, roundings, manoeuvres.filter { $0.kind == .tack })
    }

    /// Whether the apparent wind speed was read as the log was, stretch by stretch against the latest with
    /// ``minimumCount`` roundings or tacks (the wind as it reads now; the stretches after it, a step seen this morning
    /// among them, are taken to read it alike). The log's readings scaled alone change the triangle (the boat's speed
    /// is taken from the apparent wind upwind and added to it downwind); the two scaled together scale it. Two
    /// invariants tell which, each against the latest stretch's (``told(_:_:_:_:_:)``): the true wind speed is the
    /// same before and after a bear-away or a round-up, so the median of its change across a stretch's roundings
    /// (downwind less upwind) should be the latest's; and a tack's signed jump of true wind direction is the
    /// instruments' (their offset and upwash, the same on every stretch) and the wind's shifts (which cancel out of a
    /// median), so a stretch's tack bias should be the latest's, where the log scaled alone turns the true wind angle
    /// one way on both tacks. Told when either tells and they do not disagree; otherwise, and for the stretches after
    /// the latest that can tell, the wind speed is taken to have stepped with the log: the triangle keeps the shape
    /// the instruments give it, so a guess never turns the true wind angle (the log scaled alone would turn it, by
    /// degrees in a light air, had the wind stepped with it), and the wind speed's factor, where the roundings are
    /// not sure of it, is then the one that reads it right where the log read nearest right (``windFallback(_:)``). A
    /// step's wind ratio is then its two stretches'.
    func windRatios(_ samples: [SailingSample], _ found: [LogStep], _ roundings: [Manoeuvre], _ tacks: [Manoeuvre])
        -> [LogStep]
    {
        guard !found.isEmpty else { return found }
        let reference = max(latestWithEnough(found, roundings), latestWithEnough(found, tacks))
        let byRoundings = told(samples, found, roundings, reference, CalibrationReport.windSpeedDifferences)
        let byTacks = told(samples, found, tacks, reference) { CalibrationReport.signedJumps($0, $1, $2) }
        var scales = [Double](repeating: 1, count: found.count + 1)
        var steps = found
        for k in found.indices where k < reference {
            let said =
                byRoundings[k] != nil && byTacks[k] != nil && byRoundings[k] != byTacks[k]
                ? nil : byRoundings[k] ?? byTacks[k]
            steps[k].windTold = said != nil
            if said != false { scales[k] = found[k..<reference].reduce(1) { $0 * $1.ratio } }
        }
        // The stretches after the reference: too few roundings and tacks to tell, read with the log.
        for k in found.indices where k >= reference { scales[k + 1] = scales[k] / found[k].ratio }
        for k in steps.indices { steps[k].windRatio = scales[k] / scales[k + 1] }
        return steps
    }

    /// The manoeuvres of `manoeuvres` in the stretch `k` between `found`'s steps.
    private func stretch(_ found: [LogStep], _ manoeuvres: [Manoeuvre], _ k: Int) -> [Manoeuvre] {
        let from = k > 0 ? found[k - 1].time : -Double.infinity
        let to = k < found.count ? found[k].time : Double.infinity
        return manoeuvres.filter { $0.time >= from && $0.time < to }
    }

    /// The latest stretch with ``minimumCount`` of `manoeuvres` (0 with none).
    private func latestWithEnough(_ found: [LogStep], _ manoeuvres: [Manoeuvre]) -> Int {
        (0...found.count).last { stretch(found, manoeuvres, $0).count >= minimumCount } ?? 0
    }

    /// For each stretch before `reference`, what `measure` over its `manoeuvres` says against the reference
    /// stretch's median: true when its wind speed scaled with the log's leaves it nearer, false when the log's alone
    /// does, nearer by more than the two medians' error (with the days' spread: a lake's wind differs from mark to mark
    /// and from day to day), with ``minimumCount`` in each; nil when it cannot tell.
    private func told(
        _ samples: [SailingSample], _ found: [LogStep], _ manoeuvres: [Manoeuvre], _ reference: Int,
        _ measure: ([SailingSample], [Manoeuvre], SailingCalibration) -> [Double]
    ) -> [Bool?] {
        var said = [Bool?](repeating: nil, count: found.count + 1)
        let latest = stretch(found, manoeuvres, reference)
        guard latest.count >= minimumCount else { return said }
        var identity = SailingCalibration()
        identity.logSteps = found
        let later = measure(samples, latest, identity)
        let e1 = RobustStatistics.medianError(later, days: Manoeuvre.days(latest))
        let target = RobustStatistics.median(later)
        for k in found.indices where k < reference {
            let mine = stretch(found, manoeuvres, k)
            guard mine.count >= minimumCount else { continue }
            func values(_ scale: Double) -> [Double] {
                var calibration = identity
                calibration.logSteps[k].windRatio = scale
                return measure(samples, mine, calibration)
            }
            let alone = values(1)
            let together = values(found[k..<reference].reduce(1) { $0 * $1.ratio })
            let missAlone = abs(RobustStatistics.median(alone) - target)
            let missTogether = abs(RobustStatistics.median(together) - target)
            let e0 = RobustStatistics.medianError(alone, days: Manoeuvre.days(mine))
            guard abs(missAlone - missTogether) > (e0 * e0 + e1 * e1).squareRoot() else { continue }
            said[k] = missTogether < missAlone
        }
        return said
    }

    /// The steps in the factor each of `manoeuvres` says, in time order, the wind speed's part not yet known.
    func factorSteps(
        _ samples: [SailingSample], _ manoeuvres: [Manoeuvre], under base: SailingCalibration = SailingCalibration()
    ) -> [LogStep] {
        var said: [(time: Double, factor: Double)] = []
        for change in WaterChange.all(samples, manoeuvres, base) {
            if let factor = change.factor { said.append((change.time, factor)) }
        }
        said.sort { $0.time < $1.time }
        let factors = said.map { $0.factor }
        var days = [Int](repeating: 0, count: said.count)
        for index in said.indices.dropFirst() {
            let newDay = said[index].time - said[index - 1].time > Manoeuvre.dayGap * 3_600
            days[index] = days[index - 1] + (newDay ? 1 : 0)
        }
        let cuts = split(factors, days, 0..<factors.count).sorted()
        let bounds = [0] + cuts + [factors.count]
        return cuts.indices.map { index in
            let before = Array(factors[bounds[index]..<bounds[index + 1]])
            let after = Array(factors[bounds[index + 1]..<bounds[index + 2]])
            let factorBefore = RobustStatistics.median(before)
            let factorAfter = RobustStatistics.median(after)
            var step = LogStep(
                time: Self.firstSecond(samples, after: said[cuts[index] - 1].time, before: said[cuts[index]].time),
                ratio: factorBefore / factorAfter, factorBefore: factorBefore, factorAfter: factorAfter,
                countBefore: before.count, countAfter: after.count)
            let e0 = RobustStatistics.medianError(before, days: Array(days[bounds[index]..<bounds[index + 1]]))
            let e1 = RobustStatistics.medianError(after, days: Array(days[bounds[index + 1]..<bounds[index + 2]]))
            step.ratioError = ((e0 / factorBefore) * (e0 / factorBefore) + (e1 / factorAfter) * (e1 / factorAfter))
                .squareRoot()
            step.provisional = after.count < sureCount
            return step
        }
    }

    /// How far apart the medians of the factors `inside` and `outside` are: as a fraction (`m0 / m1 - 1`, its size),
    /// and in standard errors of their difference (each with the days' spread).
    private func stepScore(_ factors: [Double], _ days: [Int], inside: Range<Int>, outside: [Int])
        -> (size: Double, score: Double)
    {
        let m0 = RobustStatistics.median(inside.map { factors[$0] })
        let m1 = RobustStatistics.median(outside.map { factors[$0] })
        let e0 = RobustStatistics.medianError(inside.map { factors[$0] }, days: inside.map { days[$0] })
        let e1 = RobustStatistics.medianError(outside.map { factors[$0] }, days: outside.map { days[$0] })
        return (abs(m0 / m1 - 1), abs(m1 - m0) / (e0 * e0 + e1 * e1).squareRoot())
    }

    /// The indices in `range` where a stretch splits (each the first manoeuvre of the later one): the stretch between
    /// two days' boundaries whose factor differs most surely from the rest of `range`'s (circular binary
    /// segmentation, Olshen et al. 2004: a log fouled for a fortnight between two clean ones is one stretch against
    /// the rest, which no single split finds), then each part again.
    private func split(_ factors: [Double], _ days: [Int], _ range: Range<Int>) -> [Int] {
        let bounds = [range.lowerBound] + range.dropFirst().filter { days[$0] != days[$0 - 1] } + [range.upperBound]
        var best: (cut: Range<Int>, score: Double)?
        for (i, lower) in bounds.enumerated() {
            for upper in bounds[(i + 1)...] {
                let inside = lower..<upper
                let pieces = [range.lowerBound..<lower, inside, upper..<range.upperBound].filter { !$0.isEmpty }
                guard pieces.count > 1, pieces.allSatisfy({ enough($0, of: factors.count) }) else { continue }
                let outside = Array(range.lowerBound..<lower) + Array(upper..<range.upperBound)
                let (size, score) = stepScore(factors, days, inside: inside, outside: outside)
                guard size >= Self.stepSize, score >= Self.stepSignificance else { continue }
                if score > best?.score ?? 0 { best = (inside, score) }
            }
        }
        guard let best else { return [] }
        let cuts = [best.cut.lowerBound, best.cut.upperBound].filter {
            $0 != range.lowerBound && $0 != range.upperBound
        }
        let parts = zip([range.lowerBound] + cuts, cuts + [range.upperBound])
        return cuts + parts.flatMap { split(factors, days, $0.0..<$0.1) }
    }

    /// Whether a stretch may stand on its own: ``sureCount`` manoeuvres, or ``minimumCount`` for the newest (the log
    /// cleaned this morning is seen after a handful of tacks, not a day's sailing later; its step is provisional).
    private func enough(_ piece: Range<Int>, of total: Int) -> Bool {
        piece.count >= (piece.upperBound == total ? minimumCount : sureCount)
    }

    /// The first second of the later day's sailing: the sample after the longest pause between two times.
    static func firstSecond(_ samples: [SailingSample], after: Double, before: Double) -> Double {
        let times = [after] + samples.lazy.map { $0.time }.filter { $0 > after && $0 <= before }.sorted()
        var first = before
        var longest = 0.0
        for index in times.indices.dropFirst() where times[index] - times[index - 1] > longest {
            longest = times[index] - times[index - 1]
            first = times[index]
        }
        return first
    }
}
