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
    var latches = Array(repeating: AlarmLatch(), count: AlarmKind.allCases.count)
    let watched: [Bool]
    var seen = Array(repeating: false, count: AlarmKind.allCases.count)
    /// An alarm was acknowledged since the last tick: its ALR goes out at once.
    var acknowledgedSinceTick = false
    /// Counts every change an app would see in the list of alarms (raised, cleared, acknowledged, listed, reworded):
    /// a consumer that compares it sees a change without comparing the lists.
    public internal(set) var revision = 0
    var arrivalsSeen = 0
    /// The waypoint of the last arrival, for the arrival alarm's words.
    var arrivedAt = ""
    var arrivalRaisedAt = -Double.infinity
    var windShift: WindShiftTracker
    /// The wind shift at the last tick, degrees, positive veering.
    var windShiftNow = 0.0
    /// What the collision and distress alarms say of the target that raised them (text, then words aloud).
    var traffic = (text: "", words: "")
    var distress = (text: "", words: "")
    /// What the drag alarm's text says (the distance when it was raised).
    var anchorText = ""
    /// The low-water alarm's text and words, with the water and when.
    var lowWaterText = ""
    var lowWaterWords = ""
    /// Whether the pilot was steering at the last report, and what the autopilot alarm says.
    var pilotWasEngaged = false
    var pilotText = ""
    var pilotWords = ""

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
    mutating func update(_ kind: AlarmKind, raise: Bool, clear: Bool, hold: Double, at now: Double) -> Bool {
        let changed = latches[kind.rawValue].update(raise: raise, clear: clear, hold: hold, at: now)
        if changed { revision &+= 1 }
        return changed
    }

    /// Notes that what an alarm watches is there (a sensor group received, a start line set): it is listed from now.
    mutating func see(_ kind: AlarmKind) {
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
