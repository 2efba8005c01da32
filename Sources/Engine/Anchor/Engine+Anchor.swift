import Marine

/// The anchor watch and the track: each new fix taken into both at the tick, the crew's anchor commands carried
/// out, the drag alarm judged.
extension Engine {
    /// At each tick: a new fix into the track and the anchor watch, the watch's status into the values, the drag
    /// alarm judged. True when the alarm changed.
    mutating func updateAnchor(at now: Double) -> Bool {
        if let fix = currentFix, values.position != nil {
            if fix.time != lastTrackedFix {
                lastTrackedFix = fix.time
                track.add(fix.value.point, at: fix.time)
                anchor.observe(fix.value.point, time: fix.time)
            }
        } else if anchor.set != nil {
            anchor.forget()
        }
        values.anchor = anchor.status
        return alarmMonitor.judgeAnchor(values.anchor, hold: configuration.anchor.hold, at: now)
    }

    /// Carries out an anchor command at `time`.
    mutating func apply(_ command: AnchorCommand, at time: Double) -> CommandOutcome {
        let settings = configuration.anchor
        let noFix = CommandOutcome.refused("no position: that needs a current GPS fix")
        let notSet = CommandOutcome.refused("no anchor is down: drop it first")
        func metres(_ value: Double) -> String { "\(Int(value.rounded())) m" }
        switch command {
        case .drop(let radius):
            if let radius, !AnchorWatch.radiusLimits.contains(radius) { return Self.radiusRefusal }
            guard let bow = bowPosition else { return noFix }
            let set = AnchorSet(
                position: bow, radius: radius ?? settings.radius, droppedAt: unixTime(at: time) ?? 0,
                depth: values.depth)
            anchor.drop(set, at: time)
            values.anchor = anchor.status
            return .done("anchor down at \(Self.text(bow)), circle \(metres(set.radius))")
        case .raise:
            guard anchor.set != nil else { return .done("no anchor was down") }
            anchor.raise()
            values.anchor = nil
            return .done("anchor up: the watch has ended")
        case .radius(let radius):
            guard anchor.set != nil else { return notSet }
            let value: Double
            if let radius {
                value = radius
            } else {
                guard let distance = anchor.status?.distance else { return noFix }
                value = distance + settings.margin
            }
            guard AnchorWatch.radiusLimits.contains(value) else { return Self.radiusRefusal }
            anchor.setRadius(value)
            values.anchor = anchor.status
            return .done("anchor circle \(metres(value))")
        case .rode(let length):
            guard length > 0 && length < 2000 else { return .refused("the chain let out is 0 to 2000 m") }
            let reach = AnchorWatch.reach(rode: length, depth: values.depth, bowHeight: settings.bowHeight)
            let radius = min(
                AnchorWatch.radiusLimits.upperBound, max(1, reach + configuration.bowOffset + settings.margin))
            if anchor.set == nil {
                guard let bow = bowPosition, let heading = values.headingTrue ?? values.courseOverGround else {
                    return .refused("no position and heading: the anchor cannot be placed ahead of the bow")
                }
                let position = Geodesic.wgs84.direct(from: bow, azimuth: heading, distance: reach).point
                anchor.drop(
                    AnchorSet(
                        position: position, radius: radius, droppedAt: unixTime(at: time) ?? 0, depth: values.depth,
                        rode: length), at: time)
                values.anchor = anchor.status
                return .done("anchor set \(metres(reach)) ahead of the bow, circle \(metres(radius))")
            }
            anchor.setRode(length, radius: radius)
            values.anchor = anchor.status
            return .done("\(metres(length)) of chain: circle \(metres(radius))")
        case .position(let point):
            let set = AnchorSet(
                position: point, radius: anchor.set?.radius ?? settings.radius,
                droppedAt: anchor.set?.droppedAt ?? unixTime(at: time) ?? 0, depth: anchor.set?.depth ?? values.depth,
                rode: anchor.set?.rode)
            guard set.isPlausible else { return .refused("that is not a position on the earth") }
            anchor.drop(set, at: time)
            values.anchor = anchor.status
            return .done("anchor at \(Self.text(point)), circle \(metres(set.radius))")
        case .restore(let set):
            guard set.isPlausible else { return .refused("the anchor kept before the restart is not plausible") }
            anchor.drop(set, at: time)
            values.anchor = anchor.status
            return .done("anchor watch restored: \(Self.text(set.position)), circle \(metres(set.radius))")
        }
    }

    private static let radiusRefusal = CommandOutcome.refused(
        "the anchor circle is \(Int(AnchorWatch.radiusLimits.lowerBound)) to \(Int(AnchorWatch.radiusLimits.upperBound)) m"
    )
}
