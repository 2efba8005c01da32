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
        case .collision: return traffic.text.isEmpty ? "Collision risk" : traffic.text
        case .aisDistress: return distress.text.isEmpty ? "AIS distress beacon" : distress.text
        case .anchorDrag: return anchorText.isEmpty ? "Anchor dragging" : anchorText
        case .pressureFall:
            return "Barometer falling \(FixedDecimal.text((settings.pressureFall ?? 0) / 100, decimals: 1)) hPa in 3 h"
        case .autopilot: return pilotText.isEmpty ? "Autopilot not steering" : pilotText
        case .lowWater: return lowWaterText.isEmpty ? "Too little water at low water" : lowWaterText
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
        case .collision: return traffic.words.isEmpty ? "collision risk" : traffic.words
        case .aisDistress: return distress.words.isEmpty ? "distress beacon" : distress.words
        case .anchorDrag:
            guard let distance = values.anchor?.distance else { return "anchor dragging" }
            return "anchor dragging, \(Int(distance.rounded())) metres from the anchor"
        case .pressureFall:
            let fall = -(values.pressureTendency?.change ?? -(settings.pressureFall ?? 0)) / 100
            return "barometer \(values.pressureTendency?.words ?? "falling"), "
                + "\(FixedDecimal.text(fall, decimals: 1)) hectopascals in 3 hours"
        case .autopilot: return pilotWords.isEmpty ? "autopilot not steering" : pilotWords
        case .lowWater: return lowWaterWords.isEmpty ? "too little water at low water" : lowWaterWords
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

    /// "Ever Diadem closing, passing 2 cables in 6 minutes, starboard bow" (or "on collision course, 6 minutes" under
    /// half a cable); the text "Collision risk: EVER DIADEM CPA 0.2 NM in 6 min".
    static func collisionWords(_ target: AISTarget, _ approach: ClosestApproach, bow: Double?) -> (
        text: String, words: String
    ) {
        let name = target.name ?? "MMSI \(target.mmsi)"
        let spokenName = target.name.map(capitalised) ?? "ship"
        let minutes = max(1, Int((approach.time / 60).rounded()))
        let text =
            "Collision risk: \(name) CPA \(FixedDecimal.text(approach.distance / Units.metresPerNauticalMile, decimals: 1))"
            + " NM in \(minutes) min"
        let inMinutes = "\(minutes) minute\(minutes == 1 ? "" : "s")"
        // Under half a cable it is a collision course, not a passing distance.
        var words =
            approach.distance < Units.metresPerNauticalMile / 20
            ? "\(spokenName) on collision course, \(inMinutes)"
            : "\(spokenName) closing, passing \(distance(approach.distance)) in \(inMinutes)"
        if let bow { words += ", " + side(Angle.relative(approach.bearing - bow)) }
        return (text, words)
    }

    /// "AIS-SART 970012345 1.2 NM 045 deg"; aloud "AIS SART, 1.2 miles, port bow".
    static func distressWords(_ target: AISTarget, bow: Double?) -> (text: String, words: String) {
        let kind: (String, String) =
            switch target.station {
            case .manOverboard: ("MOB beacon", "man overboard beacon")
            case .epirb: ("EPIRB", "EPIRB")
            default: ("AIS-SART", "AIS SART")
            }
        guard let approach = target.approach else { return ("\(kind.0) \(target.mmsi)", kind.1 + " heard") }
        let bearing = Int(approach.bearing.rounded()) % 360
        let digits = (bearing < 10 ? "00" : bearing < 100 ? "0" : "") + String(bearing)
        let text =
            "\(kind.0) \(target.mmsi) \(FixedDecimal.text(approach.range / Units.metresPerNauticalMile, decimals: 1)) NM "
            + "\(digits) deg"
        let whereItIs = bow.map { ", " + side(Angle.relative(approach.bearing - $0)) } ?? ", bearing \(bearing) degrees"
        return (text, "\(kind.1), \(distance(approach.range))" + whereItIs)
    }

    /// Cables (a tenth of a mile) under a mile, then miles to a tenth.
    static func distance(_ metres: Double) -> String {
        let cables = Int((metres / (Units.metresPerNauticalMile / 10)).rounded())
        if cables < 10 { return cables <= 1 ? "1 cable" : "\(cables) cables" }
        return "\(FixedDecimal.text(metres / Units.metresPerNauticalMile, decimals: 1)) miles"
    }

    /// Where something is from the bow, in the eight words a helmsman uses (relative degrees, positive starboard).
    static func side(_ relative: Double) -> String {
        let magnitude = relative.magnitude
        if magnitude <= 22.5 { return "ahead" }
        if magnitude >= 157.5 { return "astern" }
        let side = relative > 0 ? "starboard" : "port"
        return side + (magnitude < 67.5 ? " bow" : magnitude < 112.5 ? " beam" : " quarter")
    }

    /// "EVER DIADEM" as "Ever Diadem", so that it is read as words and not spelt out.
    static func capitalised(_ name: String) -> String {
        var out: [UInt8] = []
        var start = true
        for byte in name.utf8 {
            let letter = (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122)
            if letter {
                out.append(start ? (byte >= 97 ? byte - 32 : byte) : (byte <= 90 ? byte + 32 : byte))
                start = false
            } else {
                out.append(byte)
                start = true
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
