import Marine
import NMEA

/// Every alarm's state, judged at each tick from what the engine holds: one latch per ``AlarmKind`` with its hold
/// and hysteresis, which alarms the configuration watches and which have been seen (a sensor never fitted is not
/// lost), the arrivals counted, the wind's mean direction for the shift alarm. Pure: time comes in as an argument.
///
/// The engine owns one and asks it; the shell hears of it only through the router's actions (ALR and TXT sentences,
/// the alarm list in each tick's report, announcements).
public struct AlarmMonitor: Sendable {
    /// Which quantity groups have a current input at a tick, for the sensor-lost alarms.
    struct Freshness {
        var wind = false
        var heading = false
        var speed = false
        var position = false
        var depth = false
        var attitude = false

        subscript(group: QuantityGroup) -> Bool {
            switch group {
            case .wind: wind
            case .heading: heading
            case .speed: speed
            case .position: position
            case .depth: depth
            case .attitude: attitude
            }
        }
    }

    public let settings: AlarmSettings
    /// Per ``AlarmKind`` raw value: its state, whether it is switched on, whether what it watches has been seen.
    private(set) var latches = Array(repeating: AlarmLatch(), count: AlarmKind.allCases.count)
    private let watched: [Bool]
    private var seen = Array(repeating: false, count: AlarmKind.allCases.count)
    /// An alarm was acknowledged since the last tick: its ALR goes out at once.
    var acknowledgedSinceTick = false
    /// Counts every change an app would see in the list of alarms (raised, cleared, acknowledged, listed, reworded):
    /// a consumer that compares it sees a change without comparing the lists.
    public private(set) var revision = 0
    private var arrivalsSeen = 0
    /// The waypoint of the last arrival, for the arrival alarm's words.
    private(set) var arrivedAt = ""
    private var arrivalRaisedAt = -Double.infinity
    private var windShift: WindShiftTracker
    /// The wind shift at the last tick, degrees, positive veering.
    private(set) var windShiftNow = 0.0
    /// What the collision and distress alarms say of the target that raised them (text, then words aloud).
    private(set) var traffic = (text: "", words: "")
    private(set) var distress = (text: "", words: "")
    /// What the drag alarm's text says (the distance when it was raised).
    private(set) var anchorText = ""
    /// Whether the pilot was steering at the last report, and what the autopilot alarm says.
    private var pilotWasEngaged = false
    private(set) var pilotText = ""
    private(set) var pilotWords = ""

    public init(settings: AlarmSettings) {
        self.settings = settings
        watched = AlarmKind.allCases.map { settings.watches($0) }
        windShift = WindShiftTracker(window: settings.windShiftWindow)
    }

    /// Whether an alarm is listed: switched on and, for one that waits to be seen, seen.
    public func isConfigured(_ kind: AlarmKind) -> Bool {
        watched[kind.rawValue] && (!kind.waitsToBeSeen || seen[kind.rawValue])
    }

    public func isActive(_ kind: AlarmKind) -> Bool { latches[kind.rawValue].isActive }

    /// Advances one latch; true when it changed.
    private mutating func update(_ kind: AlarmKind, raise: Bool, clear: Bool, hold: Double, at now: Double) -> Bool {
        let changed = latches[kind.rawValue].update(raise: raise, clear: clear, hold: hold, at: now)
        if changed { revision &+= 1 }
        return changed
    }

    /// Notes that what an alarm watches is there (a sensor group received, a start line set): it is listed from now.
    private mutating func see(_ kind: AlarmKind) {
        guard !seen[kind.rawValue] else { return }
        seen[kind.rawValue] = true
        if watched[kind.rawValue] { revision &+= 1 }
    }

    /// Judges every alarm but over-early at `now`: `fresh` says for each sensor group whether an input of it is
    /// current, `arrivals` counts the waypoints reached so far. True when one was raised or cleared.
    mutating func judge(
        _ values: InstrumentValues, fresh: Freshness, arrivals: Int, lastArrival: String?, at now: Double
    ) -> Bool {
        var changed = false
        if let mean = values.meanHeel.map(abs) {
            if let threshold = settings.overHeel {
                changed =
                    update(
                        .overHeel, raise: mean > threshold, clear: mean < threshold - settings.hysteresis,
                        hold: settings.hold, at: now) || changed
            }
            if let threshold = settings.underHeel {
                let sailing = (values.speedThroughWater ?? 0) > Units.metresPerSecond(knots: settings.minimumSpeed)
                changed =
                    update(
                        .underHeel, raise: sailing && mean < threshold,
                        clear: !sailing || mean > threshold + settings.hysteresis, hold: settings.hold, at: now)
                    || changed
            }
        }
        // By raw value, not `allCases` (which builds an array on every call).
        for rawValue in AlarmKind.windLost.rawValue...AlarmKind.attitudeLost.rawValue where watched[rawValue] {
            guard let kind = AlarmKind(rawValue: rawValue), let group = kind.lostGroup else { continue }
            let isFresh = fresh[group]
            if isFresh { see(kind) }
            guard seen[rawValue] else { continue }
            changed = update(kind, raise: !isFresh, clear: isFresh, hold: 0, at: now) || changed
        }
        if let limit = settings.crossTrackLimit {
            // Past the last waypoint there is no track to keep: a boat anchored off the finish is not off course.
            if let navigation = values.navigation, !navigation.routeComplete {
                let error = navigation.crossTrack.magnitude
                changed =
                    update(.crossTrack, raise: error > limit, clear: error < limit * 0.9, hold: settings.hold, at: now)
                    || changed
            } else if values.navigationLeg == nil || values.navigation?.routeComplete == true {
                changed = update(.crossTrack, raise: false, clear: true, hold: 0, at: now) || changed
            }
        }
        if settings.arrival {
            if arrivals != arrivalsSeen {
                arrivalsSeen = arrivals
                let place = lastArrival ?? ""
                if place != arrivedAt {
                    arrivedAt = place
                    revision &+= 1
                }
                arrivalRaisedAt = now
                changed = update(.arrival, raise: true, clear: false, hold: 0, at: now) || changed
            } else {
                changed =
                    update(
                        .arrival, raise: false, clear: now - arrivalRaisedAt >= settings.arrivalDuration, hold: 0,
                        at: now)
                    || changed
            }
        }
        if let limit = settings.shallow, let depth = values.depth {
            changed =
                update(.shallow, raise: depth < limit, clear: depth > limit + max(0.2, limit * 0.05), hold: 2, at: now)
                || changed
        }
        if let limit = settings.windShift, let shift = windShift.shift(direction: values.trueWindDirection, at: now) {
            windShiftNow = shift
            changed =
                update(
                    .windShift, raise: shift.magnitude > limit, clear: shift.magnitude < limit - settings.hysteresis,
                    hold: settings.hold, at: now) || changed
        }
        return changed
    }

    /// The over-early alarm: listed once a start line is set, raised at the gun with the bow over the line, cleared
    /// when `clear` holds. True when it changed.
    mutating func judgeOverEarly(lineSet: Bool, raise: Bool, clear: Bool, at now: Double) -> Bool {
        if lineSet { see(.overEarly) }
        guard isConfigured(.overEarly) else { return false }
        return update(.overEarly, raise: raise, clear: clear, hold: 0, at: now)
    }

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
    mutating func acknowledge(_ kind: AlarmKind?, number: Int? = nil, at time: Double) -> AcknowledgeRefusal? {
        var refusal = AcknowledgeRefusal.notConfigured
        for rawValue in 0..<latches.count {
            guard let candidate = AlarmKind(rawValue: rawValue),
                candidate == kind || number == settings.number(candidate)
            else { continue }
            guard isConfigured(candidate) else { continue }
            if latches[rawValue].acknowledge(at: time) {
                acknowledgedSinceTick = true
                revision &+= 1
                return nil
            }
            refusal = latches[rawValue].isActive ? .alreadyAcknowledged : .notActive
        }
        return refusal
    }

    /// Clears an active alarm (``AlarmLatch/clear(at:)``); its ALR goes out at once. True when it was active.
    mutating func clear(_ kind: AlarmKind, at time: Double) -> Bool {
        guard isConfigured(kind), latches[kind.rawValue].clear(at: time) else { return false }
        acknowledgedSinceTick = true
        revision &+= 1
        return true
    }

    /// The listed alarms and their state, for Signal K notifications and the panel.
    public var statuses: [AlarmStatus] {
        var result: [AlarmStatus] = []
        for rawValue in 0..<latches.count {
            guard let kind = AlarmKind(rawValue: rawValue), isConfigured(kind) else { continue }
            let latch = latches[rawValue]
            result.append(
                AlarmStatus(
                    path: kind.path, number: settings.number(kind), isActive: latch.isActive,
                    isAcknowledged: latch.isAcknowledged, message: text(kind)))
        }
        return result
    }
}
