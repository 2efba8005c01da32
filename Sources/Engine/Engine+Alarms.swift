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
            time: changedAt ?? values.utc, alarmNumber: number, isActive: latch.isActive, isAcknowledged: false,
            text: "\(label) \(Int(threshold)) deg")
        if let sentence = try? alarm.encode(talker: configuration.talker) { sentences.append(sentence) }
    }
}
