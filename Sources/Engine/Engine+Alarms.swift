import Marine
import NMEA

/// The alarms (``AlarmKind``): judged at each tick, sent as ALR while active (and at once when they change or are
/// acknowledged) and TXT when they change, acknowledged by number (NMEA ACK/ACN) or path (Signal K, the panel).
extension Engine {
    /// Advances every alarm; true when one of them was raised or cleared.
    mutating func updateAlarms(at now: Double) -> Bool {
        let heel = configuration.heelAlarms
        let settings = configuration.alarms
        var changed = false
        func update(_ kind: AlarmKind, raise: Bool, clear: Bool, hold: Double) {
            changed = alarmLatches[kind.rawValue].update(raise: raise, clear: clear, hold: hold, at: now) || changed
        }
        if let mean = values.meanHeel.map(abs) {
            if let threshold = heel.overHeel {
                update(.overHeel, raise: mean > threshold, clear: mean < threshold - heel.hysteresis, hold: heel.hold)
            }
            if let threshold = heel.underHeel {
                let sailing = (values.speedThroughWater ?? 0) > Units.metresPerSecond(knots: heel.minimumSpeed)
                update(
                    .underHeel, raise: sailing && mean < threshold,
                    clear: !sailing || mean > threshold + heel.hysteresis, hold: heel.hold)
            }
        }
        // Sensor lost: by raw value, not `allCases` (which builds an array on every call).
        for rawValue in AlarmKind.windLost.rawValue...AlarmKind.attitudeLost.rawValue where alarmWatched[rawValue] {
            guard let kind = AlarmKind(rawValue: rawValue), let group = kind.lostGroup else { continue }
            let fresh = inputs.hasFresh(group, at: now)
            if fresh && !alarmSeen[rawValue] { alarmSeen[rawValue] = true }
            guard alarmSeen[rawValue] else { continue }
            update(kind, raise: !fresh, clear: fresh, hold: 0)
        }
        if let limit = settings.crossTrackLimit {
            if let navigation = values.navigation {
                let error = navigation.crossTrack.magnitude
                update(.crossTrack, raise: error > limit, clear: error < limit * 0.9, hold: heel.hold)
            } else if values.navigationLeg == nil {
                update(.crossTrack, raise: false, clear: true, hold: 0)
            }
        }
        if settings.arrival {
            if follower.arrivals != arrivalsSeen {
                arrivalsSeen = follower.arrivals
                arrivedAt = follower.lastArrival?.id ?? ""
                arrivalRaisedAt = now
                update(.arrival, raise: true, clear: false, hold: 0)
            } else {
                update(.arrival, raise: false, clear: now - arrivalRaisedAt >= settings.arrivalDuration, hold: 0)
            }
        }
        if let limit = settings.shallow, let depth = values.depth {
            update(.shallow, raise: depth < limit, clear: depth > limit + max(0.2, limit * 0.05), hold: 2)
        }
        if let limit = settings.windShift, let shift = windShift.shift(direction: values.trueWindDirection, at: now) {
            windShiftNow = shift
            update(
                .windShift, raise: shift.magnitude > limit, clear: shift.magnitude < limit - heel.hysteresis,
                hold: heel.hold)
        }
        return changed
    }

    /// Whether an alarm is switched on (a sensor-lost alarm once its group has been received).
    func isConfigured(_ kind: AlarmKind) -> Bool {
        alarmWatched[kind.rawValue] && (!kind.waitsToBeSeen || alarmSeen[kind.rawValue])
    }

    /// Which alarms the configuration switches on, by ``AlarmKind`` raw value.
    static func watchedAlarms(_ configuration: EngineConfiguration) -> [Bool] {
        let heel = configuration.heelAlarms
        let settings = configuration.alarms
        return AlarmKind.allCases.map { kind in
            switch kind {
            case .overHeel: heel.overHeel != nil
            case .underHeel: heel.underHeel != nil
            case .crossTrack: settings.crossTrackLimit != nil
            case .arrival: settings.arrival
            case .shallow: settings.shallow != nil
            case .windShift: settings.windShift != nil
            case .overEarly: settings.overEarly
            default: kind.lostGroup.map { settings.sensorLost.contains($0) } ?? false
            }
        }
    }

    /// The ALR number of an alarm.
    public func alarmNumber(_ kind: AlarmKind) -> Int {
        switch kind {
        case .overHeel: configuration.heelAlarms.overHeelNumber
        case .underHeel: configuration.heelAlarms.underHeelNumber
        default: kind.defaultNumber
        }
    }

    /// What an alarm says in ALR, TXT, Signal K and on the panel: the sailor's words, or Telltale's.
    public func alarmText(_ kind: AlarmKind) -> String {
        if let text = configuration.alarms.text[kind] { return text }
        let heel = configuration.heelAlarms
        let settings = configuration.alarms
        switch kind {
        case .overHeel: return "Heel over \(Int(heel.overHeel ?? 0)) deg"
        case .underHeel: return "Heel under \(Int(heel.underHeel ?? 0)) deg"
        case .windLost: return "Wind data lost"
        case .headingLost: return "Heading data lost"
        case .speedLost: return "Speed data lost"
        case .positionLost: return "Position lost"
        case .depthLost: return "Depth data lost"
        case .attitudeLost: return "Heel and pitch data lost"
        case .crossTrack:
            let miles = (settings.crossTrackLimit ?? 0) / Units.metresPerNauticalMile
            return "XTE over \(FixedDecimal.text(miles, decimals: 2)) NM"
        case .arrival: return arrivedAt.isEmpty ? "Waypoint reached" : "Arrived at \(arrivedAt)"
        case .shallow: return "Depth under \(FixedDecimal.text(settings.shallow ?? 0, decimals: 1)) m"
        case .windShift: return "Wind shift over \(Int(settings.windShift ?? 0)) deg"
        case .overEarly: return "Over early"
        }
    }

    /// What is said when an alarm is raised: the sailor's words, or Telltale's with the value now.
    func alarmWords(_ kind: AlarmKind) -> String {
        if let words = configuration.alarms.spoken[kind] { return words }
        let heel = configuration.heelAlarms
        let settings = configuration.alarms
        switch kind {
        case .overHeel: return "heel over \(Int(heel.overHeel ?? 0)) degrees"
        case .underHeel: return "heel under \(Int(heel.underHeel ?? 0)) degrees"
        case .crossTrack:
            let miles = (values.navigation?.crossTrack.magnitude ?? settings.crossTrackLimit ?? 0)
            return "cross track error \(FixedDecimal.text(miles / Units.metresPerNauticalMile, decimals: 2)) miles"
        case .arrival: return arrivedAt.isEmpty ? "waypoint reached" : "arriving at \(arrivedAt)"
        case .shallow: return "shallow water, \(FixedDecimal.text(values.depth ?? 0, decimals: 1)) metres"
        case .windShift:
            return "wind \(windShiftNow > 0 ? "veered" : "backed") \(Int(windShiftNow.magnitude.rounded())) degrees"
        case .overEarly: return "over early"
        default: return "\(kind.lostGroup?.rawValue ?? "sensor") lost"
        }
    }

    /// The configured alarms and their state, for Signal K notifications and the panel.
    public var alarms: [AlarmStatus] {
        var result: [AlarmStatus] = []
        for rawValue in 0..<alarmLatches.count {
            guard let kind = AlarmKind(rawValue: rawValue), isConfigured(kind) else { continue }
            let latch = alarmLatches[rawValue]
            result.append(
                AlarmStatus(
                    path: kind.path, number: alarmNumber(kind), isActive: latch.isActive,
                    isAcknowledged: latch.isAcknowledged, message: alarmText(kind)))
        }
        return result
    }

    /// Whether an alarm is active now.
    public func isAlarmActive(_ kind: AlarmKind) -> Bool { alarmLatches[kind.rawValue].isActive }

    /// Acknowledges an active alarm by its path (`heel.over`) or ALR number; false when there is no such active,
    /// unacknowledged alarm. The acknowledged state goes out in ALR at the next tick.
    @discardableResult
    public mutating func acknowledgeAlarm(path: String? = nil, number: Int? = nil) -> Bool {
        let time = lastTickTime ?? 0
        for rawValue in 0..<alarmLatches.count {
            guard let kind = AlarmKind(rawValue: rawValue), isConfigured(kind) else { continue }
            guard path == kind.path || number == alarmNumber(kind) else { continue }
            if alarmLatches[rawValue].acknowledge(at: time) {
                alarmAcknowledged = true
                return true
            }
        }
        return false
    }

    /// An ACK or ACN (acknowledge) from a plotter or display; nil for any other message.
    mutating func acknowledge(_ message: Message) -> Bool? {
        switch message {
        case .ack(let ack): return ack.alarmNumber.map { acknowledgeAlarm(number: $0) } ?? false
        case .acn(let acn):
            guard acn.command == .acknowledge, acn.manufacturer == nil, let number = acn.alertIdentifier else {
                return false
            }
            return acknowledgeAlarm(number: number)
        default: return nil
        }
    }

    /// ALR for each configured alarm (active ones, and those that changed or were acknowledged since the last
    /// tick), or TXT for the ones raised or cleared.
    func alarmSentences(_ kind: ComputedKind) -> [Sentence] {
        var sentences: [Sentence] = []
        let since = lastTickTime ?? -.infinity
        for rawValue in 0..<alarmLatches.count {
            guard let alarm = AlarmKind(rawValue: rawValue), isConfigured(alarm) else { continue }
            let latch = alarmLatches[rawValue]
            let changedNow = latch.changedAt.map { $0 >= since } ?? false
            if kind == .alarmText {
                guard changedNow else { continue }
                let notice = (latch.isActive ? "ALARM: " : "Cleared: ") + alarmText(alarm)
                sentences += TXT.messages(notice, identifier: alarmNumber(alarm) % 100).compactMap {
                    try? $0.encode(talker: configuration.talker)
                }
                continue
            }
            let acknowledgedNow = latch.acknowledgedAt.map { $0 >= since } ?? false
            guard latch.isActive || changedNow || acknowledgedNow else { continue }
            let changedAt = latch.changedAt.flatMap(unixTime(at:)).map { UTCTime(secondsOfDay: $0) }
            let sentence = ALR(
                time: changedAt ?? values.utc, alarmNumber: alarmNumber(alarm), isActive: latch.isActive,
                isAcknowledged: latch.isAcknowledged, text: alarmText(alarm))
            if let encoded = try? sentence.encode(talker: configuration.talker) { sentences.append(encoded) }
        }
        return sentences
    }
}

/// One alarm as Signal K and the panel see it.
public struct AlarmStatus: Hashable, Sendable {
    /// Below `notifications.` (`heel.over`).
    public var path: String
    /// The ALR alarm number.
    public var number: Int
    public var isActive: Bool
    public var isAcknowledged: Bool
    public var message: String

    public init(path: String, number: Int, isActive: Bool, isAcknowledged: Bool, message: String) {
        self.path = path
        self.number = number
        self.isActive = isActive
        self.isAcknowledged = isAcknowledged
        self.message = message
    }
}
