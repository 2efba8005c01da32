import Marine
import NMEA

/// What the alarms say: in ALR, TXT, Signal K and on the panel (the text), and aloud (the words).
extension AlarmMonitor {
    /// An alarm's text: the sailor's words (`[alarms.text]`), or Telltale's.
    public func text(_ kind: AlarmKind) -> String {
        if let text = settings.text[kind] { return text }
        switch kind {
        case .overHeel: return "Heel over \(Int(settings.overHeel ?? 0)) deg"
        case .underHeel: return "Heel under \(Int(settings.underHeel ?? 0)) deg"
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

    /// What is said when an alarm is raised: the sailor's words (`[alarms.spoken]`), or Telltale's with the value now.
    func words(_ kind: AlarmKind, _ values: InstrumentValues) -> String {
        if let words = settings.spoken[kind] { return words }
        switch kind {
        case .overHeel: return "heel over \(Int(settings.overHeel ?? 0)) degrees"
        case .underHeel: return "heel under \(Int(settings.underHeel ?? 0)) degrees"
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

    /// What is said at `now` for the alarms that changed then: each one raised, and a lost sensor back.
    func announcements(_ values: InstrumentValues, at now: Double) -> [Announcement] {
        var said: [Announcement] = []
        for rawValue in 0..<latches.count {
            guard let kind = AlarmKind(rawValue: rawValue), isConfigured(kind) else { continue }
            let latch = latches[rawValue]
            guard latch.changedAt == now else { continue }
            if latch.isActive {
                said.append(Announcement(text: words(kind, values), due: now))
            } else if let group = kind.lostGroup {
                said.append(Announcement(text: "\(group.rawValue) back", due: now))
            }
        }
        return said
    }

    /// ALR for each listed alarm (active ones, and those that changed or were acknowledged since `since`), or TXT
    /// for the ones raised or cleared since then. `utc` turns an engine time into UNIX seconds.
    func sentences(
        _ kind: ComputedKind, since: Double, now utcNow: UTCTime?, talker: Talker, utc: (Double) -> Double?
    ) -> [Sentence] {
        var sentences: [Sentence] = []
        for rawValue in 0..<latches.count {
            guard let alarm = AlarmKind(rawValue: rawValue), isConfigured(alarm) else { continue }
            let latch = latches[rawValue]
            let changedNow = latch.changedAt.map { $0 >= since } ?? false
            if kind == .alarmText {
                guard changedNow else { continue }
                let notice = (latch.isActive ? "ALARM: " : "Cleared: ") + text(alarm)
                sentences += TXT.messages(notice, identifier: settings.number(alarm) % 100).compactMap {
                    try? $0.encode(talker: talker)
                }
                continue
            }
            let acknowledgedNow = latch.acknowledgedAt.map { $0 >= since } ?? false
            guard latch.isActive || changedNow || acknowledgedNow else { continue }
            let changedAt = latch.changedAt.flatMap(utc).map { UTCTime(secondsOfDay: $0) }
            let sentence = ALR(
                time: changedAt ?? utcNow, alarmNumber: settings.number(alarm), isActive: latch.isActive,
                isAcknowledged: latch.isAcknowledged, text: text(alarm))
            if let encoded = try? sentence.encode(talker: talker) { sentences.append(encoded) }
        }
        return sentences
    }
}
