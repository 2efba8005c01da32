/// A subordinate station whose offsets differ between high and low water (XTide's "hairy" offsets): its reference's
/// high and low waters (or strongest flood and ebb, and slacks when the file says when flood and ebb begin) moved by
/// their time offsets and scaled, and the curve between two of them the reference's own between the same two,
/// stretched in time and level to fit, as XTide draws it.
struct SubordinateCurve: Sendable {
    /// The offsets in seconds and the reference's units.
    struct Offsets: Sendable {
        let highTime: Double
        let highAdd: Double
        let highMultiply: Double
        let lowTime: Double
        let lowAdd: Double
        let lowMultiply: Double
        let floodBegins: Double?
        let ebbBegins: Double?

        var earliest: Double { [highTime, lowTime, floodBegins ?? highTime, ebbBegins ?? lowTime].min() ?? 0 }
        var latest: Double { [highTime, lowTime, floodBegins ?? highTime, ebbBegins ?? lowTime].max() ?? 0 }
    }

    /// An event of the reference, where it is at the subordinate station and where it was at the reference.
    struct Bracket: Sendable {
        let time: Double
        let level: Double
        let referenceTime: Double
        let referenceLevel: Double
        let kind: TideEvent.Kind
    }

    var reference: HarmonicCurve
    let offsets: Offsets
    let isCurrent: Bool
    private var brackets: [Bracket] = []

    init(reference: HarmonicCurve, offsets: Offsets, isCurrent: Bool) {
        self.reference = reference
        self.offsets = offsets
        self.isCurrent = isCurrent
    }

    /// The level at `time` (the reference's native units).
    mutating func level(_ time: Double) -> Double {
        if !covers(time) { brackets = makeBrackets(from: time - 86_400, to: time + 86_400) }
        guard let index = brackets.lastIndex(where: { $0.time <= time }), index + 1 < brackets.count else {
            return reference.level(time)
        }
        return interpolate(time, brackets[index], brackets[index + 1])
    }

    private func covers(_ time: Double) -> Bool {
        guard let first = brackets.first, let last = brackets.last else { return false }
        return first.time <= time && time < last.time
    }

    private mutating func interpolate(_ time: Double, _ a: Bracket, _ b: Bracket) -> Double {
        let fraction = b.time > a.time ? (time - a.time) / (b.time - a.time) : 0
        guard b.referenceLevel != a.referenceLevel else { return a.level + (b.level - a.level) * fraction }
        let seen = reference.level(a.referenceTime + (b.referenceTime - a.referenceTime) * fraction)
        return a.level + (b.level - a.level) * (seen - a.referenceLevel) / (b.referenceLevel - a.referenceLevel)
    }

    /// The reference's events from well before `from` to well after `to`, moved to this station, in time order.
    mutating func makeBrackets(from: Double, to: Double) -> [Bracket] {
        let start = from - offsets.latest - 86_400
        let end = to - offsets.earliest + 86_400
        let turns = reference.turns(from: start, to: end)
        var out: [Bracket] = []
        for turn in turns {
            // A current that slackens without turning counts on the other side (XTide's "min" currents).
            let weak = isCurrent && (turn.level > 0) != turn.isMaximum
            let high = turn.isMaximum != weak
            let time: Double
            if weak {
                time =
                    turn.time
                    + ((turn.isMaximum ? offsets.ebbBegins : offsets.floodBegins)
                        ?? (turn.isMaximum ? offsets.lowTime : offsets.highTime))
            } else {
                time = turn.time + (high ? offsets.highTime : offsets.lowTime)
            }
            let level =
                high
                ? turn.level * offsets.highMultiply + offsets.highAdd
                : turn.level * offsets.lowMultiply + offsets.lowAdd
            let kind: TideEvent.Kind = isCurrent ? (turn.isMaximum ? .flood : .ebb) : (turn.isMaximum ? .high : .low)
            out.append(
                Bracket(time: time, level: level, referenceTime: turn.time, referenceLevel: turn.level, kind: kind))
        }
        if isCurrent && (offsets.floodBegins != nil || offsets.ebbBegins != nil), turns.count > 1 {
            for index in 1..<turns.count {
                let rising = !turns[index - 1].isMaximum
                guard let shift = rising ? offsets.floodBegins : offsets.ebbBegins,
                    let time = reference.crossing(0, from: turns[index - 1].time, to: turns[index].time)
                else { continue }
                out.append(Bracket(time: time + shift, level: 0, referenceTime: time, referenceLevel: 0, kind: .slack))
            }
        }
        return out.sorted { $0.time < $1.time }
    }

    /// The events between `from` and `to`, the station's units times `scale`.
    mutating func events(from: Double, to: Double, scale: Double) -> [TideEvent] {
        let list = makeBrackets(from: from, to: to)
        brackets = list
        var out: [TideEvent] = []
        for bracket in list where isCurrent ? bracket.time >= from && bracket.time < to : true {
            if isCurrent && bracket.kind != .slack && (bracket.level > 0) != (bracket.kind == .flood) { continue }
            out.append(TideEvent(time: bracket.time, kind: bracket.kind, value: bracket.level * scale))
        }
        guard isCurrent, list.count > 1 else {
            return TideEvent.withoutStands(out).filter { $0.time >= from && $0.time < to }
        }
        for index in 1..<list.count {
            let left = list[index - 1]
            let interpolated =
                (left.kind == .flood && offsets.ebbBegins == nil) || (left.kind == .ebb && offsets.floodBegins == nil)
            guard interpolated, let time = crossingOf(0, from: left.time, to: list[index].time, { self.level($0) }),
                time >= from, time < to
            else { continue }
            out.append(TideEvent(time: time, kind: .slack, value: 0))
        }
        return out.sorted { $0.time < $1.time }
    }
}
