import SignalK

/// Web Push's message encryption (RFC 8291 over RFC 8188's `aes128gcm`) and its VAPID token (RFC 8292), the parts that
/// are arithmetic on bytes: the keys derived with HKDF-SHA-256, the record's header, the JWT's text. The elliptic
/// curve and AES-GCM themselves are OpenSSL's (the shore's messenger, `WebCrypto`); this says what they are given.
public enum WebPushFraming {
    /// The content key (16 bytes) and nonce (12) for one message, from the ECDH secret between the sender's fresh key
    /// and the phone's (`uaPublic`), the phone's auth secret, the sender's public key and the salt.
    public static func keys(
        sharedSecret: [UInt8], authSecret: [UInt8], uaPublic: [UInt8], asPublic: [UInt8], salt: [UInt8]
    ) -> (key: [UInt8], nonce: [UInt8]) {
        let prkKey = SHA256.hmac(key: authSecret, sharedSecret)
        let keyInfo = Array("WebPush: info".utf8) + [0] + uaPublic + asPublic
        let ikm = expand(prk: prkKey, info: keyInfo, length: 32)
        let prk = SHA256.hmac(key: salt, ikm)
        let key = expand(prk: prk, info: Array("Content-Encoding: aes128gcm".utf8) + [0], length: 16)
        let nonce = expand(prk: prk, info: Array("Content-Encoding: nonce".utf8) + [0], length: 12)
        return (key, nonce)
    }

    /// HKDF-Expand (RFC 5869) for at most 32 bytes: one block.
    static func expand(prk: [UInt8], info: [UInt8], length: Int) -> [UInt8] {
        Array(SHA256.hmac(key: prk, info + [1]).prefix(length))
    }

    /// The one record's plaintext: the payload and its last-record delimiter (0x02), no padding.
    public static func plaintext(_ payload: [UInt8]) -> [UInt8] { payload + [2] }

    /// The body sent: salt, record size (4,096), the sender's public key as the key id, then the ciphertext with its
    /// 16-byte tag.
    public static func body(salt: [UInt8], asPublic: [UInt8], ciphertext: [UInt8]) -> [UInt8] {
        salt + [0, 0, 0x10, 0] + [UInt8(asPublic.count)] + asPublic + ciphertext
    }

    /// A payload the push services carry: 4,096 bytes of body at most, less the header and tag.
    public static let largestPayload = 4096 - 16 - 5 - 65 - 16 - 1

    /// The VAPID token's signing input: `header.claims`, base64url each. `audience` is the push service's origin.
    public static func tokenInput(audience: String, expires: Int, subject: String) -> String {
        var claims = JSONWriter()
        claims.beginObject()
        claims.value("aud", audience)
        claims.value("exp", expires)
        claims.value("sub", subject)
        claims.endObject()
        return Base64.encodeURL(Array(#"{"typ":"JWT","alg":"ES256"}"#.utf8)) + "."
            + Base64.encodeURL(Array(claims.text.utf8))
    }

    /// An ECDSA signature as DER (`SEQUENCE { INTEGER r, INTEGER s }`, as OpenSSL writes it) into JWS's raw r || s,
    /// 32 bytes each; nil for anything else.
    public static func rawSignature(der: [UInt8]) -> [UInt8]? {
        guard der.count >= 8, der[0] == 0x30, Int(der[1]) == der.count - 2 else { return nil }
        var index = 2
        var out: [UInt8] = []
        for _ in 0..<2 {
            guard index + 2 <= der.count, der[index] == 0x02 else { return nil }
            let length = Int(der[index + 1])
            index += 2
            guard length >= 1, index + length <= der.count else { return nil }
            var integer = Array(der[index..<(index + length)])
            index += length
            while integer.count > 32 && integer.first == 0 { integer.removeFirst() }
            guard integer.count <= 32 else { return nil }
            out += [UInt8](repeating: 0, count: 32 - integer.count) + integer
        }
        return index == der.count ? out : nil
    }

    /// The origin of a push endpoint (`https://host[:port]`): VAPID's audience; nil for anything not https.
    public static func origin(of endpoint: String) -> String? {
        guard let parts = parts(of: endpoint) else { return nil }
        return "https://" + parts.authority
    }

    /// A push endpoint's pieces: the authority as written, the host (an IPv6 address without its brackets, in small
    /// letters), the port (443 unless said) and the path with its query; nil for anything not https, or with a user.
    public static func parts(of endpoint: String) -> (authority: String, host: String, port: Int, path: String)? {
        guard endpoint.hasPrefix("https://") else { return nil }
        let rest = endpoint.dropFirst(8)
        let authority = String(rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" })
        guard !authority.isEmpty, !authority.utf8.contains(UInt8(ascii: "@")) else { return nil }
        var host = Substring(authority)
        var port = 443
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":"), let number = Int(after.dropFirst()) else { return nil }
                port = number
            }
        } else if let colon = authority.lastIndex(of: ":") {
            guard let number = Int(authority[authority.index(after: colon)...]) else { return nil }
            host = authority[..<colon]
            port = number
        }
        guard !host.isEmpty, port > 0, port < 65_536 else { return nil }
        let path = String(rest.dropFirst(authority.utf8.count))
        let small = String(decoding: host.utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self)
        return (authority, small, port, path.isEmpty ? "/" : path)
    }
}
