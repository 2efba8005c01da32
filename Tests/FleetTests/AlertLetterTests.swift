import Marine
import SignalK
import Testing

@testable import Fleet

/// The boat watch's e-mail: headers as RFC 5322 has them, the position twice, the distance, the subject encoded when
/// it is not ASCII, the body in base64 then.
@Suite struct AlertLetterTests {
    static let alert = BoatWatch.Alert(
        boat: "aurora", kind: .anchorDrag, message: "aurora is dragging its anchor: 85 m from it, the circle 50 m",
        position: GeoPoint(latitude: 47.285383, longitude: -2.507600), distance: 85.4, at: 1_795_900_000)

    static func text(_ action: BoatWatch.Action) -> String {
        String(
            decoding: AlertLetter.message(
                action, from: "watch@shore.test", to: ["a@b.test", "c@d.test"], at: 1_795_900_005, token: "tok",
                repeatEvery: 900),
            as: UTF8.self)
    }

    @Test("a drag: the subject, To, Date, the position in degrees and minutes and decimal, the distance")
    func drag() {
        let text = Self.text(.raise(Self.alert))
        let parts = text.components("\r\n\r\n")
        #expect(parts.count == 2)
        let headers = parts[0]
        #expect(headers.contains("To: a@b.test, c@d.test\r\n"))
        #expect(headers.contains("Subject: Telltale: aurora is dragging its anchor: 85 m from it, the circle 50 m"))
        #expect(headers.contains("Date: Sat, 28 Nov 2026 21:06:45 +0000\r\n"))
        #expect(headers.contains("Message-ID: <tok@telltale>") && headers.contains("Content-Transfer-Encoding: base64"))
        let body = String(decoding: Base64.decode(parts[1].filter { !$0.isWhitespace }) ?? [], as: UTF8.self)
        #expect(body.contains("Position: 47°17.123′N 002°30.456′W"))
        #expect(body.contains("47.28538, -2.50760 (decimal degrees)"))
        #expect(body.contains("From the anchor: 85 m") && body.contains("Said again every 15 min"))
    }

    @Test("RFC 5322 dates: the weekday and month right across the epoch and a leap day")
    func dates() {
        #expect(AlertLetter.date(0) == "Thu, 01 Jan 1970 00:00:00 +0000")
        #expect(AlertLetter.date(951_782_400) == "Tue, 29 Feb 2000 00:00:00 +0000")
        #expect(AlertLetter.date(1_795_900_005) == "Sat, 28 Nov 2026 21:06:45 +0000")
    }

    @Test("a subject not in ASCII as RFC 2047 words that decode back; CR and LF never reach a header")
    func subject() {
        let encoded = AlertLetter.header("Hélène: über 15 m\r\nBcc: x@y")
        #expect(!encoded.contains("\n Bcc") && encoded.hasPrefix("=?UTF-8?B?"))
        let decoded = encoded.components("\r\n ").map { word -> String in
            let inner = word.dropFirst(10).dropLast(2)
            return String(decoding: Base64.decode(String(inner)) ?? [], as: UTF8.self)
        }.joined()
        #expect(decoded == "Hélène: über 15 m  Bcc: x@y")
    }

    @Test("all clear in plain ASCII, 7bit")
    func clear() {
        var alert = Self.alert
        alert.message = "all clear: aurora is back inside its circle"
        alert.position = nil
        alert.distance = nil
        let text = Self.text(.clear(alert))
        #expect(text.contains("Content-Transfer-Encoding: 7bit") && text.contains("Nothing more is said about it"))
    }
}

extension String {
    fileprivate func components(_ separator: String) -> [String] {
        var out: [String] = []
        var rest = Substring(self)
        while let range = rest.firstRange(of: separator) {
            out.append(String(rest[..<range.lowerBound]))
            rest = rest[range.upperBound...]
        }
        out.append(String(rest))
        return out
    }
}
