/// Where the shore's e-mail goes: `smtp://[user:password@]host[:port]` (submission, port 587 by default, STARTTLS
/// always) or `smtps://...` (TLS from the first byte, port 465). The user and password may be percent-encoded (an `@`
/// in a password is `%40`).
public struct SMTPServer: Equatable, Sendable {
    public var host: String
    public var port: Int
    public var user: String?
    public var password: String?
    /// TLS from the first byte (smtps), rather than STARTTLS.
    public var implicitTLS: Bool

    /// nil for anything that is not such a URL.
    public init?(_ url: String) {
        let rest: Substring
        if url.hasPrefix("smtp://") {
            rest = url.dropFirst(7)
            implicitTLS = false
        } else if url.hasPrefix("smtps://") {
            rest = url.dropFirst(8)
            implicitTLS = true
        } else {
            return nil
        }
        var place = rest.hasSuffix("/") ? rest.dropLast() : rest
        if let at = place.lastIndex(of: "@") {
            let credentials = place[..<at]
            place = place[place.index(after: at)...]
            guard let colon = credentials.firstIndex(of: ":"),
                let user = Self.decoded(credentials[..<colon]),
                let password = Self.decoded(credentials[credentials.index(after: colon)...]), !user.isEmpty
            else { return nil }
            self.user = user
            self.password = password
        }
        var host = place
        var portText: Substring?
        if place.hasPrefix("[") {
            guard let close = place.firstIndex(of: "]") else { return nil }
            host = place[place.index(after: place.startIndex)..<close]
            let after = place[place.index(after: close)...]
            if after.hasPrefix(":") { portText = after.dropFirst() } else if !after.isEmpty { return nil }
        } else if let colon = place.lastIndex(of: ":") {
            host = place[..<colon]
            portText = place[place.index(after: colon)...]
        }
        guard !host.isEmpty, host.utf8.count <= 253,
            host.utf8.allSatisfy({ $0 > 32 && $0 < 127 && $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") })
        else { return nil }
        self.host = String(host)
        if let portText {
            guard let port = Int(portText), port > 0, port < 65_536 else { return nil }
            self.port = port
        } else {
            port = implicitTLS ? 465 : 587
        }
    }

    /// The URL with its password hidden, for the log.
    public var described: String {
        (implicitTLS ? "smtps://" : "smtp://") + (user.map { $0 + ":***@" } ?? "")
            + (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
    }

    static func decoded(_ text: Substring) -> String? {
        var out: [UInt8] = []
        var bytes = text.utf8.makeIterator()
        while let byte = bytes.next() {
            guard byte == UInt8(ascii: "%") else {
                out.append(byte)
                continue
            }
            guard let high = bytes.next().flatMap(hex), let low = bytes.next().flatMap(hex) else { return nil }
            out.append(high << 4 | low)
        }
        guard !out.contains(where: { $0 < 32 || $0 == 127 }) else { return nil }
        let text = String(decoding: out, as: UTF8.self)
        return Array(text.utf8) == out ? text : nil
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
