import Fleet
import SignalK
import Testing

@testable import Shore

/// OpenSSL's half of Web Push, through the shore's dlopen'd libcrypto: RFC 8291's example sealed to its own bytes, ECDH
/// agreeing both ways, a key kept and read back to the same public point, a DER signature JWS can take.
@Suite struct WebCryptoTests {
    static func d(_ text: String) -> [UInt8] { Base64.decode(text) ?? [] }
    /// RFC 8291, Appendix A: the body sent (salt, record size, key id, then the record).
    static let body = d(
        "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl"
            + "7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN")

    @Test("AES-128-GCM: RFC 8291's example record sealed with its key and nonce is the example's ciphertext")
    func seal() throws {
        let crypto = try WebCrypto()
        let body = Self.body
        let sealed = try crypto.seal(
            key: Self.d("oIhVW04MRdy2XN9CiKLxTg"), nonce: Self.d("4h_95klXJ5E_qnoN"),
            WebPushFraming.plaintext(Array("When I grow up, I want to be a watermelon".utf8)))
        #expect(sealed == Array(body.dropFirst(86)))
        #expect(throws: WebCrypto.Failure.self) { try crypto.seal(key: [1, 2], nonce: [], []) }
    }

    @Test("P-256: ECDH agrees both ways; a key kept as DER reads back to the same point; p256dh off the curve refused")
    func keys() throws {
        let crypto = try WebCrypto()
        let a = try crypto.generate()
        let b = try crypto.generate()
        let aPoint = try crypto.publicPoint(a)
        let bPoint = try crypto.publicPoint(b)
        let one = try crypto.sharedSecret(a, try crypto.publicKey(point: bPoint))
        let two = try crypto.sharedSecret(b, try crypto.publicKey(point: aPoint))
        #expect(one == two && one.count == 32 && aPoint != bPoint)
        let kept = try crypto.privateKey(der: try crypto.privateDER(a))
        #expect(try crypto.publicPoint(kept) == aPoint)
        var bent = aPoint
        bent[64] ^= 1
        #expect(throws: WebCrypto.Failure.self) { try crypto.publicKey(point: bent) }
        #expect(throws: WebCrypto.Failure.self) { try crypto.privateKey(der: [0x30, 0x03, 1, 2, 3]) }
    }

    @Test("ES256: a DER signature of 70 to 72 bytes that WebPushFraming turns into 64; two signatures differ")
    func sign() throws {
        let crypto = try WebCrypto()
        let key = try crypto.generate()
        let one = try crypto.sign(key, Array("a.b".utf8))
        let two = try crypto.sign(key, Array("a.b".utf8))
        #expect(WebPushFraming.rawSignature(der: one)?.count == 64 && one != two)
    }
}

/// Which push services a phone may subscribe with: the browsers' own, and the hosts the operator names; never an
/// address of the shore's own network.
@Suite struct PushServiceTests {
    @Test("Google's, Mozilla's, Apple's, Microsoft's and the named; not an address, not a look-alike, not http")
    func hosts() {
        let allowed = [
            "https://fcm.googleapis.com/fcm/send/abc", "https://updates.push.services.mozilla.com/wpush/v2/x",
            "https://web.push.apple.com/QO", "https://wns2-par02p.notify.windows.com/w/?token=x",
            "https://push.example.org:8443/x", "https://PUSH.example.org/x",
        ]
        let refused = [
            "https://127.0.0.1/x", "https://[::1]:443/x", "https://localhost/x",
            "https://fcm.googleapis.com.evil.test/",
            "https://evilpush.apple.com.test/", "http://fcm.googleapis.com/x", "https://u@fcm.googleapis.com/x",
        ]
        for endpoint in allowed {
            #expect(ShoreWeb.isPushService(endpoint, extra: ["push.example.org"]), "\(endpoint)")
        }
        for endpoint in refused {
            #expect(!ShoreWeb.isPushService(endpoint, extra: ["push.example.org"]), "\(endpoint)")
        }
    }
}
