import Fleet
import Gateway
import Platform
import SignalK

/// One Web Push message (RFC 8030) to a phone's push service, from `telltale fleet send`: the payload encrypted for the
/// phone alone (RFC 8291: a fresh P-256 key, ECDH with the phone's, HKDF, AES-128-GCM), signed for by the shore's
/// VAPID key (RFC 8292), POSTed over HTTPS.
enum WebPushSend {
    static func run(_ letter: JSONValue, deadline: Double) throws(CommandError) -> String {
        guard let endpoint = letter["endpoint"]?.string, let audience = WebPushFraming.origin(of: endpoint),
            let p256dh = letter["p256dh"]?.string.flatMap(Base64.decode),
            let auth = letter["auth"]?.string.flatMap(Base64.decode),
            let vapid = letter["vapid"]?.string.flatMap(Base64.decode), let subject = letter["subject"]?.string,
            let payload = letter["payload"]?.string, let expires = letter["expires"]?.number
        else { throw CommandError("fleet send: the push letter lacks endpoint, keys, vapid or payload", status: 65) }
        guard payload.utf8.count <= WebPushFraming.largestPayload, auth.count == 16 else {
            throw CommandError(
                "fleet send: the push letter's payload is too long or its auth secret not 16 bytes", status: 65)
        }
        let body: [UInt8]
        let token: String
        let vapidPublic: [UInt8]
        do throws(WebCrypto.Failure) {
            guard let crypto = try? WebCrypto() else { throw WebCrypto.Failure(description: "no OpenSSL 3") }
            (body, vapidPublic) = try encrypt(Array(payload.utf8), p256dh: p256dh, auth: auth, vapid: vapid, crypto)
            token = try self.token(audience: audience, expires: Int(expires), subject: subject, vapid: vapid, crypto)
        } catch {
            throw CommandError("fleet send: push: \(error.description)", status: 69)
        }
        let request =
            "Authorization: vapid t=\(token), k=\(Base64.encodeURL(vapidPublic))\r\nTTL: 86400\r\nUrgency: high\r\n"
            + "Content-Encoding: aes128gcm\r\nContent-Type: application/octet-stream\r\n"
        let status: Int
        do throws(ServerConnection.Failure) {
            status = try post(endpoint, headers: request, body: body, ca: letter["ca"]?.string, deadline: deadline)
        } catch {
            throw CommandError("fleet send: push to \(audience): \(error)", status: 75)
        }
        switch status {
        case 200..<300: return "delivered to \(audience) (\(status))"
        case 404, 410:
            throw CommandError("fleet send: push to \(audience): the subscription is gone (\(status))", status: 69)
        case 400, 401, 403, 413:
            throw CommandError("fleet send: push to \(audience): refused (\(status))", status: 69)
        default: throw CommandError("fleet send: push to \(audience): \(status), to be tried again", status: 75)
        }
    }

    /// The body (RFC 8188's one record) and the VAPID public key.
    static func encrypt(
        _ payload: [UInt8], p256dh: [UInt8], auth: [UInt8], vapid: [UInt8], _ crypto: WebCrypto
    ) throws(WebCrypto.Failure) -> (body: [UInt8], vapidPublic: [UInt8]) {
        let phone = try crypto.publicKey(point: p256dh)
        defer { crypto.free(phone) }
        let mine = try crypto.generate()
        defer { crypto.free(mine) }
        let asPublic = try crypto.publicPoint(mine)
        let secret = try crypto.sharedSecret(mine, phone)
        guard let salt = try? POSIX.randomBytes(16) else { throw WebCrypto.Failure(description: "no random salt") }
        let keys = WebPushFraming.keys(
            sharedSecret: secret, authSecret: auth, uaPublic: p256dh, asPublic: asPublic, salt: salt)
        let sealed = try crypto.seal(key: keys.key, nonce: keys.nonce, WebPushFraming.plaintext(payload))
        let key = try crypto.privateKey(der: vapid)
        defer { crypto.free(key) }
        return (WebPushFraming.body(salt: salt, asPublic: asPublic, ciphertext: sealed), try crypto.publicPoint(key))
    }

    /// VAPID's JWT, ES256.
    static func token(
        audience: String, expires: Int, subject: String, vapid: [UInt8], _ crypto: WebCrypto
    ) throws(WebCrypto.Failure) -> String {
        let key = try crypto.privateKey(der: vapid)
        defer { crypto.free(key) }
        let input = WebPushFraming.tokenInput(audience: audience, expires: expires, subject: subject)
        guard let signature = WebPushFraming.rawSignature(der: try crypto.sign(key, Array(input.utf8))) else {
            throw WebCrypto.Failure(description: "the signature is not ECDSA's DER")
        }
        return input + "." + Base64.encodeURL(signature)
    }

    /// The POST's status.
    static func post(
        _ endpoint: String, headers: String, body: [UInt8], ca: String?, deadline: Double
    ) throws(ServerConnection.Failure) -> Int {
        guard let (authority, host, port, path) = WebPushFraming.parts(of: endpoint) else {
            throw ServerConnection.Failure("not an https endpoint")
        }
        guard let client = try? TLSClient(caFile: ca) else {
            throw ServerConnection.Failure("TLS: OpenSSL 3 or the CA file")
        }
        let connection = try ServerConnection(host: host, port: port, deadline: deadline)
        try connection.startTLS(client)
        let head =
            "POST \(path) HTTP/1.1\r\nHost: \(authority)\r\n" + headers
            + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        try connection.send(Array(head.utf8) + body)
        var answer: [UInt8] = []
        while !answer.contains(10) && answer.count < 8192 {
            let got = try connection.receive()
            guard !got.isEmpty else { break }
            answer += got
        }
        // "HTTP/1.1 201 Created"
        let line = String(decoding: answer.prefix { $0 != 13 && $0 != 10 }, as: UTF8.self).split(separator: " ")
        guard line.count >= 2, line[0].hasPrefix("HTTP/"), let status = Int(line[1]) else {
            throw ServerConnection.Failure("the push service's answer is not HTTP")
        }
        return status
    }
}
