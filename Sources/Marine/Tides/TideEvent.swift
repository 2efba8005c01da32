/// High or low water at a tide station; the strongest flood or ebb, or slack water, at a current station.
public struct TideEvent: Sendable, Hashable {
    public enum Kind: String, Sendable {
        case high, low, flood, ebb, slack
    }

    /// UNIX seconds, to the second.
    public let time: Double
    public let kind: Kind
    /// Metres above the station's datum, or knots (flood positive; zero at slack).
    public let value: Double

    public init(time: Double, kind: Kind, value: Double) {
        self.time = time
        self.kind = kind
        self.value = value
    }

    /// High and low waters without the stands: a low and a high (or a high and a low) less than `rise` metres apart,
    /// the water standing with a wiggle a tide gauge could not see (Honolulu's of 1.5 mm on 2026-08-21), which NOAA
    /// does not list either. Each pair is taken out whole, so highs and lows still alternate.
    static func withoutStands(_ events: [TideEvent], rise: Double = 0.02) -> [TideEvent] {
        var out: [TideEvent] = []
        for event in events {
            if let last = out.last, last.kind != event.kind, abs(last.value - event.value) < rise {
                out.removeLast()
                continue
            }
            out.append(event)
        }
        return out
    }
}

/// Where a curve turns and crosses a level: what events are made of.
extension HarmonicCurve {
    /// A turn of the curve: a high or low water, a flood's or an ebb's strongest (native units).
    struct Turn: Sendable {
        let time: Double
        let isMaximum: Bool
        let level: Double
    }

    /// Every turn between `from` and `to`, each where the slope changes sign between two steps, found to a second.
    /// Two turns closer than `step` (a stand of a few minutes) can be missed; the 5 minutes by default is finer than
    /// the double high waters of the Solent or Le Havre.
    mutating func turns(from: Double, to: Double, step: Double = 300) -> [Turn] {
        var out: [Turn] = []
        var left = from
        var leftRising = raw(left, derivative: 1) >= 0
        while left < to {
            let right = min(left + step, to)
            let rightRising = raw(right, derivative: 1) >= 0
            if leftRising != rightRising {
                var a = left
                var b = right
                while b - a > 1 {
                    let middle = (a + b) / 2
                    if (raw(middle, derivative: 1) >= 0) == leftRising { a = middle } else { b = middle }
                }
                let time = ((a + b) / 2).rounded()
                out.append(Turn(time: time, isMaximum: leftRising, level: level(time)))
            }
            left = right
            leftRising = rightRising
        }
        return out
    }

    /// When the level crosses `mark` between `a` and `b` (two turns: it is monotonic between them), to a second; nil
    /// when it does not cross there.
    mutating func crossing(_ mark: Double, from a: Double, to b: Double) -> Double? {
        crossingOf(mark, from: a, to: b) { self.level($0) }
    }

    /// The events of a reference station (or one with simple offsets) between `from` and `to`: its turns, and for a
    /// current the slacks between them. A current that slackens without turning (a flood that weakens and
    /// strengthens again) is no flood or ebb and is left out.
    mutating func events(from: Double, to: Double, isCurrent: Bool, scale: Double) -> [TideEvent] {
        let turns = self.turns(from: from - 43_200, to: to + 43_200)
        var out: [TideEvent] = []
        for turn in turns {
            if isCurrent {
                guard (turn.level > 0) == turn.isMaximum, turn.level != 0, turn.time >= from, turn.time < to else {
                    continue
                }
                out.append(TideEvent(time: turn.time, kind: turn.isMaximum ? .flood : .ebb, value: turn.level * scale))
            } else {
                out.append(TideEvent(time: turn.time, kind: turn.isMaximum ? .high : .low, value: turn.level * scale))
            }
        }
        guard isCurrent, turns.count > 1 else {
            return TideEvent.withoutStands(out).filter { $0.time >= from && $0.time < to }
        }
        for index in 1..<turns.count {
            guard let time = crossing(0, from: turns[index - 1].time, to: turns[index].time),
                time >= from, time < to
            else { continue }
            out.append(TideEvent(time: time, kind: .slack, value: 0))
        }
        return out.sorted { $0.time < $1.time }
    }
}

/// When `level` crosses `mark` between `a` and `b`, where it is monotonic, by bisection to a second; nil when it is
/// on one side at both ends.
func crossingOf(_ mark: Double, from a: Double, to b: Double, _ level: (Double) -> Double) -> Double? {
    let above = level(a) >= mark
    guard (level(b) >= mark) != above, b > a else { return nil }
    var left = a
    var right = b
    while right - left > 1 {
        let middle = (left + right) / 2
        if (level(middle) >= mark) == above { left = middle } else { right = middle }
    }
    return ((left + right) / 2).rounded()
}
