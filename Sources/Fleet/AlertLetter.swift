import Marine
import NMEA
import SignalK

/// The e-mail the boat watch sends for one of its alerts (``BoatWatch/Action``): raised, said again, or all clear.
/// Plain text a phone's mail shows whole: what happened in the subject, then the boat, where it is (degrees and
/// minutes, and decimal degrees a chart takes), how far from its anchor, when, and what to do about the repeats. The
/// headers are RFC 5322's; a subject that is not ASCII is encoded (RFC 2047), a body that is not, in base64.
public enum AlertLetter {
    /// The message's bytes. `token` makes the Message-ID unique (the caller's random); `panel` is where the shore's
    /// panel is reached, when the operator said so.
    public static func message(
        _ action: BoatWatch.Action, from: String, to: [String], at time: Double, token: String,
        repeatEvery: Double, panel: String? = nil
    ) -> [UInt8] {
        let (alert, subject, closing) = words(action, repeatEvery: repeatEvery)
        var body = [alert.message, ""]
        body.append("Boat: \(alert.boat)")
        if let position = alert.position {
            body.append("Position: \(Self.position(position))")
            body.append(
                "          \(FixedDecimal.text(position.latitude, decimals: 5)), \(FixedDecimal.text(position.longitude, decimals: 5)) (decimal degrees)"
            )
        }
        if let distance = alert.distance { body.append("From the anchor: \(Int(distance.rounded())) m") }
        body.append(
            "Time: " + String(SignalKTime.text(unixTime: alert.at).prefix(19).map { $0 == "T" ? " " : $0 }) + " UTC")
        body += ["", closing]
        if let panel { body.append("The shore's panel: \(panel)") }
        body += ["", "-- ", "Telltale's boat watch, on the shore"]
        let text = body.joined(separator: "\r\n") + "\r\n"
        let ascii = text.utf8.allSatisfy { $0 < 128 }
        let headers = [
            "From: Telltale <\(from)>",
            "To: " + to.joined(separator: ", "),
            "Subject: " + header(subject),
            "Date: " + date(time),
            "Message-ID: <\(token)@telltale>",
            "Auto-Submitted: auto-generated",
            "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: " + (ascii ? "7bit" : "base64"),
        ]
        let content = ascii ? text : lines(Base64.encode(Array(text.utf8)), width: 76)
        return Array((headers.joined(separator: "\r\n") + "\r\n\r\n" + content).utf8)
    }

    static func words(_ action: BoatWatch.Action, repeatEvery: Double) -> (BoatWatch.Alert, String, String) {
        let minutes = Int((repeatEvery / 60).rounded())
        switch action {
        case .raise(let alert):
            return (
                alert, "Telltale: " + alert.message,
                "Said again every \(minutes) min until someone acknowledges it on the shore's panel (Alerts)."
            )
        case .again(let alert):
            return (
                alert, "Telltale, again: " + alert.message,
                "Not acknowledged yet: said again every \(minutes) min until it is, on the shore's panel (Alerts)."
            )
        case .clear(let alert):
            return (alert, "Telltale: " + alert.message, "Nothing more is said about it unless it happens again.")
        }
    }

    /// 47°17.123′N 002°30.456′W
    static func position(_ point: GeoPoint) -> String {
        func part(_ value: Double, _ width: Int, _ positive: String, _ negative: String) -> String {
            let minutesTotal = (abs(value) * 60_000).rounded() / 1000
            let degrees = Int(minutesTotal / 60)
            let minutes = minutesTotal - Double(degrees) * 60
            let degreeText = String(degrees)
            return String(repeating: "0", count: max(0, width - degreeText.count)) + degreeText + "°"
                + (minutes < 10 ? "0" : "") + FixedDecimal.text(minutes, decimals: 3) + "′"
                + (value < 0 ? negative : positive)
        }
        return part(point.latitude, 2, "N", "S") + " " + part(point.longitude, 3, "E", "W")
    }

    /// RFC 5322's date in UTC: `Sat, 28 Nov 2026 21:30:05 +0000`.
    static func date(_ time: Double) -> String {
        let seconds = Int64(time.rounded(.down))
        let days = Int(seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400)
        let ofDay = Int(seconds - Int64(days) * 86_400)
        let day = UTCDate(daysSinceEpoch: days)
        let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(weekdays[((days % 7) + 7) % 7]), \(two(day.day)) \(months[max(0, min(11, day.month - 1))]) "
            + "\(day.year) \(two(ofDay / 3600)):\(two(ofDay / 60 % 60)):\(two(ofDay % 60)) +0000"
    }

    /// A header's text as it may go: ASCII as it is, anything else as RFC 2047's UTF-8 base64 words.
    static func header(_ text: String) -> String {
        // By scalars: "\r\n" is one Character, and would slip past a test of each character.
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { scalars.append(scalar == "\r" || scalar == "\n" ? " " : scalar) }
        let clean = String(scalars)
        guard !clean.utf8.allSatisfy({ $0 < 128 }) else { return clean }
        // Words of at most 45 bytes (60 characters of base64), cut between characters (scalars, never inside one).
        var words: [String] = []
        var chunk: [UInt8] = []
        for scalar in clean.unicodeScalars {
            let bytes = Array(String(scalar).utf8)
            if chunk.count + bytes.count > 45 {
                words.append("=?UTF-8?B?" + Base64.encode(chunk) + "?=")
                chunk.removeAll()
            }
            chunk += bytes
        }
        if !chunk.isEmpty { words.append("=?UTF-8?B?" + Base64.encode(chunk) + "?=") }
        return words.joined(separator: "\r\n ")
    }

    static func lines(_ text: String, width: Int) -> String {
        var out: [String] = []
        var rest = Substring(text)
        while !rest.isEmpty {
            out.append(String(rest.prefix(width)))
            rest = rest.dropFirst(width)
        }
        return out.joined(separator: "\r\n") + "\r\n"
    }
}
