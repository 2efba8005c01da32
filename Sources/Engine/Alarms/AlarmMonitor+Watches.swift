import Marine
import NMEA

/// The watches beyond the instruments' limits: traffic and distress on AIS, the anchor, the barometer, the autopilot.
extension AlarmMonitor {
    /// The AIS alarms, listed once a station has been heard: collision when a vessel's closest approach is within
    /// the limits (the one soonest named), distress while an AIS-SART, MOB device or EPIRB is heard (test
    /// transmissions, status 15, aside). `bow` is the own heading (or course) for the side a target is on. Without
    /// the own position (`placed` false) the collision alarm is left as it is: a ship that was closing is not taken
    /// to have passed because the GPS went quiet (the position-lost alarm says that). True when one was raised or
    /// cleared.
    mutating func judgeTraffic(_ ais: AISTargets, bow: Double?, placed: Bool = true, at now: Double) -> Bool {
        guard !ais.targets.isEmpty else { return false }
        var changed = false
        if settings.collisionDistance != nil && watched[AlarmKind.collision.rawValue] { see(.collision) }
        if let limit = settings.collisionDistance, watched[AlarmKind.collision.rawValue], placed {
            var worst: AISTarget?
            var near = false
            for target in ais.targets where target.station == .vessel || target.isDistress {
                guard let approach = target.approach, approach.time > 0, approach.closingSpeed > 0.05 else { continue }
                if approach.distance < limit * 1.2 && approach.time < settings.collisionTime + 60 { near = true }
                guard approach.distance < limit, approach.time < settings.collisionTime else { continue }
                if worst.map({ approach.time < $0.approach!.time }) ?? true { worst = target }
            }
            if let worst, let approach = worst.approach {
                let said = Self.collisionWords(worst, approach, bow: bow)
                if said.text != traffic.text {
                    traffic = said
                    revision &+= 1
                }
            }
            changed = update(.collision, raise: worst != nil, clear: !near, hold: 2, at: now) || changed
        }
        if settings.aisDistress, watched[AlarmKind.aisDistress.rawValue] {
            see(.aisDistress)
            let beacon = ais.targets.first { $0.isDistress && !$0.isLost(at: now) && $0.navigationStatus != 15 }
            if let beacon {
                let said = Self.distressWords(beacon, bow: bow)
                if said.text != distress.text {
                    distress = said
                    revision &+= 1
                }
            }
            changed = update(.aisDistress, raise: beacon != nil, clear: beacon == nil, hold: 0, at: now) || changed
        }
        return changed
    }

    /// The drag alarm, listed once an anchor has been dropped: raised when the boat has been outside the circle for
    /// `hold` seconds, cleared back inside it by a twentieth of the radius (2 m at least), cleared at once when the
    /// anchor is raised. Without a current position it is left as it is (the position-lost alarm says that). True
    /// when it changed.
    mutating func judgeAnchor(_ status: AnchorStatus?, hold: Double, at now: Double) -> Bool {
        guard watched[AlarmKind.anchorDrag.rawValue] else { return false }
        guard let status else {
            guard isActive(.anchorDrag) else { return false }
            return update(.anchorDrag, raise: false, clear: true, hold: 0, at: now)
        }
        see(.anchorDrag)
        guard let distance = status.distance else { return false }
        let radius = status.set.radius
        let changed = update(
            .anchorDrag, raise: distance > radius, clear: distance < radius - max(2, radius / 20), hold: hold, at: now)
        if changed && isActive(.anchorDrag) {
            anchorText =
                "Anchor dragging: \(Int(distance.rounded())) m from the anchor (circle \(Int(radius.rounded())) m)"
        }
        return changed
    }

    /// The low-water alarm, listed once the anchor is down with a tide prediction and a sounding: raised when the
    /// water at the next low water is under ``AlarmSettings/lowWater`` for ten seconds, cleared 0.2 m above it or when
    /// the anchor is raised. True when it changed.
    mutating func judgeLowWater(_ tide: TideReport?, anchored: Bool, utc: Double?, at now: Double) -> Bool {
        guard let limit = settings.lowWater, watched[AlarmKind.lowWater.rawValue] else { return false }
        guard anchored, let water = tide?.depthAtNextLow, let low = tide?.nextLow else {
            guard isActive(.lowWater), !anchored else { return false }
            return update(.lowWater, raise: false, clear: true, hold: 0, at: now)
        }
        see(.lowWater)
        let changed = update(.lowWater, raise: water < limit, clear: water > limit + 0.2, hold: 10, at: now)
        if isActive(.lowWater) {
            let under = tide?.depthIsBelowKeel == true ? "under the keel" : "under the transducer"
            let minutes = utc.map { max(0, Int(((low.time - $0) / 60).rounded())) } ?? 0
            let when = minutes >= 60 ? "\(minutes / 60) h \(minutes % 60) min" : "\(minutes) min"
            let text = "\(FixedDecimal.text(water, decimals: 1)) m \(under) at low water in \(when)"
            if text != lowWaterText {
                lowWaterText = text
                lowWaterWords =
                    "at low water in \(minutes / 60) hours \(minutes % 60) minutes, "
                    + "\(FixedDecimal.text(max(water, 0), decimals: 1)) metres \(under)"
                revision &+= 1
            }
        }
        return changed
    }

    /// The pressure-fall alarm, listed once a barometer has been heard: raised when the three-hour tendency falls by
    /// ``AlarmSettings/pressureFall`` or more, cleared when the fall is back under four fifths of it. Without a
    /// tendency (less than three hours of record) it is left as it is. True when it changed.
    mutating func judgePressure(_ tendency: Barograph.Tendency?, barometer: Bool, at now: Double) -> Bool {
        guard let limit = settings.pressureFall, watched[AlarmKind.pressureFall.rawValue] else { return false }
        if barometer { see(.pressureFall) }
        guard let tendency else { return false }
        return update(
            .pressureFall, raise: tendency.change <= -limit, clear: tendency.change > -limit * 0.8, hold: 0, at: now)
    }

    /// The autopilot alarm, listed once a pilot is heard: raised when a pilot that was steering is in standby without
    /// the crew having asked for it (through Telltale: `commanded`), or off-line; cleared when it steers again, or
    /// when the crew puts it in standby. True when it changed.
    mutating func judgePilot(_ pilot: PilotReport, at now: Double) -> Bool {
        guard watched[AlarmKind.autopilot.rawValue] else { return false }
        see(.autopilot)
        let steering = pilot.state == "auto"
        defer { pilotWasEngaged = steering }
        if steering || (pilot.standbyAsked && pilot.state == "standby") {
            return update(.autopilot, raise: false, clear: true, hold: 0, at: now)
        }
        guard pilotWasEngaged else { return false }
        let offline = pilot.state == "off-line"
        pilotText =
            offline ? "Autopilot \(pilot.id) off-line while steering" : "Autopilot \(pilot.id) dropped to standby"
        pilotWords = offline ? "autopilot off-line" : "autopilot in standby, steer by hand"
        return update(.autopilot, raise: true, clear: false, hold: 0, at: now)
    }

    /// Why an alarm could not be acknowledged.
    public enum AcknowledgeRefusal: Hashable, Sendable {
        case notConfigured
        case notActive
        case alreadyAcknowledged
    }

    /// Acknowledges an alarm named by its kind, or by its ALR number (NMEA ACK and ACN).
}
