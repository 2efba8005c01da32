import Marine
import NMEA

/// The engine's alarms (``AlarmMonitor``): judged at each tick, sent as ALR while active (and at once when they
/// change or are acknowledged) and TXT when they change, acknowledged by number (NMEA ACK/ACN) or by name.
extension Engine {
    /// Advances every alarm but over-early (``updateStartLine(at:)`` judges that one); true when one was raised or
    /// cleared.
    mutating func updateAlarms(at now: Double) -> Bool {
        var fresh = AlarmMonitor.Freshness()
        fresh.wind = inputs.hasFresh(.wind, at: now)
        fresh.heading = inputs.hasFresh(.heading, at: now)
        fresh.speed = inputs.hasFresh(.speed, at: now)
        fresh.position = inputs.hasFresh(.position, at: now)
        fresh.depth = inputs.hasFresh(.depth, at: now)
        fresh.attitude = inputs.hasFresh(.attitude, at: now)
        let judged = alarmMonitor.judge(
            values, fresh: fresh, arrivals: follower.arrivals, lastArrival: follower.lastArrival?.id, at: now)
        let pressure = alarmMonitor.judgePressure(values.pressureTendency, barometer: values.pressure != nil, at: now)
        let pilot = pilotReport.map { alarmMonitor.judgePilot($0, at: now) } ?? false
        let lowWater = alarmMonitor.judgeLowWater(
            values.tide, anchored: anchor.set != nil, utc: unixTime(at: now), at: now)
        return judged || pressure || pilot || lowWater
    }

    /// The listed alarms and their state, for Signal K notifications and the panel.
    public var alarms: [AlarmStatus] { alarmMonitor.statuses }

    /// Whether an alarm is active now.
    public func isAlarmActive(_ kind: AlarmKind) -> Bool { alarmMonitor.isActive(kind) }

    /// Acknowledges an active alarm by its kind or ALR number; nil when it was, else why not. The acknowledged
    /// state goes out in ALR at the next tick.
    @discardableResult
    public mutating func acknowledgeAlarm(_ kind: AlarmKind?, number: Int? = nil) -> AlarmMonitor.AcknowledgeRefusal? {
        alarmMonitor.acknowledge(kind, number: number, at: lastTickTime ?? 0)
    }

    /// An ACK or ACN (acknowledge) from a plotter or display; nil for any other message.
    mutating func acknowledge(_ message: Message) -> Bool? {
        switch message {
        case .ack(let ack): return ack.alarmNumber.map { acknowledgeAlarm(nil, number: $0) == nil } ?? false
        case .acn(let acn):
            guard acn.command == .acknowledge, acn.manufacturer == nil, let number = acn.alertIdentifier else {
                return false
            }
            return acknowledgeAlarm(nil, number: number) == nil
        default: return nil
        }
    }

    /// ALR or TXT sentences for this tick (``AlarmMonitor/sentences(_:since:now:talker:utc:)``).
    func alarmSentences(_ kind: ComputedKind) -> [Sentence] {
        alarmMonitor.sentences(
            kind, since: lastTickTime ?? -.infinity, now: values.utc, talker: configuration.talker, utc: unixTime(at:))
    }
}
