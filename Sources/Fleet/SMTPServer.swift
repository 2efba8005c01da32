import SignalK

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

    /// The user or password percent-decoded (a `+` is itself here); nil for a control character in it.
    static func decoded(_ text: Substring) -> String? {
        guard let out = HTTPRequestReader.percentDecoded(String(text), plusIsSpace: false),
            !out.utf8.contains(where: { $0 < 32 || $0 == 127 })
        else { return nil }
        return out
    }
}
