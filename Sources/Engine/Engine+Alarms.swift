import Marine
import NMEA

/// The heel alarms: latched on the mean heel, sent as ALR while active and TXT when they change.
extension Engine {
    /// Advances the heel alarms on the mean heel; true when one of them changed.
    mutating func updateAlarms(at now: Double) -> Bool {
        let settings = configuration.heelAlarms
        guard let mean = values.meanHeel.map(abs) else { return false }
        var changed = false
        if let threshold = settings.overHeel {
            changed =
                overHeel.update(
                    raise: mean > threshold, clear: mean < threshold - settings.hysteresis, hold: settings.hold, at: now
                )
                || changed
        }
        if let threshold = settings.underHeel {
            let sailing = (values.speedThroughWater ?? 0) > Units.metresPerSecond(knots: settings.minimumSpeed)
            changed =
                underHeel.update(
                    raise: sailing && mean < threshold, clear: !sailing || mean > threshold + settings.hysteresis,
                    hold: settings.hold, at: now) || changed
        }
        return changed
    }

    /// The configured alarms and their state, for Signal K notifications and the panel.
    public var alarms: [AlarmStatus] {
        let settings = configuration.heelAlarms
        var result: [AlarmStatus] = []
        if let threshold = settings.overHeel {
            result.append(
                AlarmStatus(
                    path: "heel.over", number: settings.overHeelNumber, isActive: overHeel.isActive,
                    isAcknowledged: overHeel.isAcknowledged, message: "Heel over \(Int(threshold)) deg"))
        }
        if let threshold = settings.underHeel {
            result.append(
                AlarmStatus(
                    path: "heel.under", number: settings.underHeelNumber, isActive: underHeel.isActive,
                    isAcknowledged: underHeel.isAcknowledged, message: "Heel under \(Int(threshold)) deg"))
        }
        return result
    }

    /// Acknowledges an active alarm by its path (`heel.over`) or ALR number; false when there is no such active alarm.
    @discardableResult
    public mutating func acknowledgeAlarm(path: String? = nil, number: Int? = nil) -> Bool {
        let settings = configuration.heelAlarms
        if overHeel.isActive && (path == "heel.over" || number == settings.overHeelNumber) {
            overHeel.isAcknowledged = true
            return true
        }
        if underHeel.isActive && (path == "heel.under" || number == settings.underHeelNumber) {
            underHeel.isAcknowledged = true
            return true
        }
        return false
    }

    /// ALR for each configured alarm (active ones only on the periodic repeat), or TXT for the ones that changed.
    func alarmSentences(_ kind: ComputedKind, changedOnly: Bool) -> [Sentence] {
        let settings = configuration.heelAlarms
        var sentences: [Sentence] = []
        appendAlarm(kind, overHeel, settings.overHeelNumber, "Heel over", settings.overHeel, to: &sentences)
        appendAlarm(kind, underHeel, settings.underHeelNumber, "Heel under", settings.underHeel, to: &sentences)
        return sentences
    }

    /// One alarm's sentences; an empty array costs nothing when there is nothing to say (no allocation per tick).
    private func appendAlarm(
        _ kind: ComputedKind, _ latch: AlarmLatch, _ number: Int, _ label: String, _ threshold: Double?,
        to sentences: inout [Sentence]
    ) {
        guard let threshold else { return }
        let changedNow = latch.changedAt.map { $0 >= (lastTickTime ?? -.infinity) } ?? false
        if kind == .heelAlarmText {
            guard changedNow else { return }
            let notice = (latch.isActive ? "ALARM: " : "Cleared: ") + "\(label) \(Int(threshold)) deg"
            sentences += TXT.messages(notice, identifier: 2).compactMap { try? $0.encode(talker: configuration.talker) }
            return
        }
        guard latch.isActive || changedNow else { return }
        let changedAt = latch.changedAt.flatMap(unixTime(at:)).map { UTCTime(secondsOfDay: $0) }
        let alarm = ALR(
            time: changedAt ?? values.utc, alarmNumber: number, isActive: latch.isActive,
            isAcknowledged: latch.isAcknowledged,
            text: "\(label) \(Int(threshold)) deg")
        if let sentence = try? alarm.encode(talker: configuration.talker) { sentences.append(sentence) }
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
