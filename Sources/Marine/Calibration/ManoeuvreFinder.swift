/// Finds the tacks and gybes in a day of sailing samples: the true wind angle (uncorrected) changing sides, with
/// steady sailing in a window before and after it on the same tack, and no other turn within either window.
///
/// The windows leave the turn itself out (`gap` seconds each side) and the acceleration after it; a window must be
/// mostly there (samples for `coverage` of its seconds), the boat moving (`minimumSpeed` knots through the water),
/// her heading steady (its circular spread under `headingSpread` degrees). A tack is upwind on both sides (true wind
/// angle under 90°), a gybe downwind on both (over 90°); anything else (a bear-away round a mark) is left out. Changes
/// of side within `cluster` seconds are one turn, its windows outside the first and the last. Bear-aways and round-ups
/// (the angle crossing the beam) are found apart, for the wind speed (``roundings(in:upwind:downwind:)``).
public struct ManoeuvreFinder: Sendable {
    public var window = 35.0
    public var gapBefore = 10.0
    public var gapAfter = 15.0
    /// Changes of side this close (seconds) are one turn.
    public var cluster = 20.0
    public var coverage = 0.6
    public var minimumSpeed = 1.5
    public var headingSpread = 10.0
    /// A bear-away or a round-up turns further and slower than a tack (and the kite goes up or down): its windows
    /// keep further from the beam.
    public var roundingGapBefore = 30.0
    public var roundingGapAfter = 40.0

    public init() {}

    public func manoeuvres(in samples: [SailingSample]) -> [Manoeuvre] {
        let identity = SailingCalibration()
        let angles = samples.map { identity.trueWind($0).angle }
        var found: [Manoeuvre] = []
        for (first, before, after) in framed(
            samples, gapBefore: gapBefore, gapAfter: gapAfter, changes: { (angles[$0 - 1] < 0) != (angles[$0] < 0) })
        {
            let side = angles[first - 1] < 0 ? -1.0 : 1.0
            guard before.allSatisfy({ (angles[$0] < 0) == (side < 0) }),
                after.allSatisfy({ (angles[$0] < 0) != (side < 0) })
            else { continue }
            let sizes = (mean(before.map { abs(angles[$0]) }), mean(after.map { abs(angles[$0]) }))
            let kind: Manoeuvre.Kind
            if sizes.0 < 90 && sizes.1 < 90 {
                kind = .tack
            } else if sizes.0 > 90 && sizes.1 > 90 {
                kind = .gybe
            } else {
                continue
            }
            found.append(
                Manoeuvre(kind: kind, time: samples[first].time, sideBefore: side, before: before, after: after))
        }
        return found
    }

    /// Bear-aways and round-ups: the true wind angle crossing the beam, upwind (within `upwind` degrees) in the whole
    /// window on one side and downwind (beyond `downwind`) in the whole window on the other, on either tack.
    public func roundings(in samples: [SailingSample], upwind: Double = 85, downwind: Double = 95) -> [Manoeuvre] {
        let identity = SailingCalibration()
        let angles = samples.map { identity.trueWind($0).angle }
        var found: [Manoeuvre] = []
        for (first, before, after) in framed(
            samples, gapBefore: roundingGapBefore, gapAfter: roundingGapAfter,
            changes: { (abs(angles[$0 - 1]) < 90) != (abs(angles[$0]) < 90) })
        {
            let kind: Manoeuvre.Kind
            if before.allSatisfy({ abs(angles[$0]) < upwind }) && after.allSatisfy({ abs(angles[$0]) > downwind }) {
                kind = .bearAway
            } else if before.allSatisfy({ abs(angles[$0]) > downwind })
                && after.allSatisfy({ abs(angles[$0]) < upwind })
            {
                kind = .roundUp
            } else {
                continue
            }
            found.append(
                Manoeuvre(
                    kind: kind, time: samples[first].time, sideBefore: angles[first - 1] < 0 ? -1 : 1, before: before,
                    after: after))
        }
        return found
    }

    /// The turns where `changes(index)` says sample `index` differs from the one before: changes within `cluster`
    /// seconds are one turn (a luff through the wind and back, a run by the lee), from its first change to its last;
    /// each turn with no other within its windows and steady sailing in both, as (first change, before, after).
    func framed(_ samples: [SailingSample], gapBefore: Double, gapAfter: Double, changes: (Int) -> Bool) -> [(
        Int, Range<Int>, Range<Int>
    )] {
        var turns: [(first: Int, last: Int)] = []
        for index in samples.indices.dropFirst() where changes(index) {
            if let last = turns.last?.last, samples[index].time - samples[last].time <= cluster {
                turns[turns.count - 1].last = index
            } else {
                turns.append((index, index))
            }
        }
        var framed: [(Int, Range<Int>, Range<Int>)] = []
        for (n, turn) in turns.enumerated() {
            let start = samples[turn.first].time
            let end = samples[turn.last].time
            guard end - start <= cluster else { continue }
            let from = start - gapBefore - window
            let to = end + gapAfter + window
            // Nothing else within either window.
            if n > 0, samples[turns[n - 1].last].time >= from { continue }
            if n + 1 < turns.count, samples[turns[n + 1].first].time <= to { continue }
            let before = range(samples, from: from, to: start - gapBefore)
            let after = range(samples, from: end + gapAfter, to: to)
            guard steady(samples, before), steady(samples, after) else { continue }
            framed.append((turn.first, before, after))
        }
        return framed
    }

    /// The indices of the samples with `from <= time < to` (samples in time order).
    func range(_ samples: [SailingSample], from: Double, to: Double) -> Range<Int> {
        var low = 0
        var high = samples.count
        while low < high {
            let mid = (low + high) / 2
            if samples[mid].time < from { low = mid + 1 } else { high = mid }
        }
        var end = low
        while end < samples.count, samples[end].time < to { end += 1 }
        return low..<end
    }

    func steady(_ samples: [SailingSample], _ range: Range<Int>) -> Bool {
        guard Double(range.count) >= coverage * window else { return false }
        var heading = PlaneVector(x: 0, y: 0)
        var speed = 0.0
        for sample in samples[range] {
            heading = heading + PlaneVector(magnitude: 1, angle: sample.heading)
            speed += sample.stw
        }
        let n = Double(range.count)
        // The circular spread: sqrt(-2 ln R), R the mean resultant length.
        let resultant = heading.magnitude / n
        // R is 1 within rounding for a heading held exactly, and may come out a hair over it: no NaN from that.
        let spread = Angle.degrees((-2 * log(min(max(resultant, 1e-9), 1))).squareRoot())
        return speed / n >= minimumSpeed && spread <= headingSpread
    }

    func mean(_ values: [Double]) -> Double { values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count) }
}
