import SignalK
import Testing

@testable import Fleet

/// Web Push's arithmetic against the RFCs' own examples: HKDF (RFC 5869's first case), RFC 8291's Appendix A (the
/// keys, the header of the body), and ECDSA's DER signature into JWS's raw form.
@Suite struct WebPushFramingTests {
    static func d(_ text: String) -> [UInt8] { Base64.decode(text) ?? [] }
    static func hex(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        var chars = Array(text.utf8)[...]
        while chars.count >= 2 {
            out.append(UInt8(String(decoding: chars.prefix(2), as: UTF8.self), radix: 16) ?? 0)
            chars = chars.dropFirst(2)
        }
        return out
    }

    // RFC 8291, Appendix A.
    static let uaPublic = d("BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4")
    static let asPublic = d("BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8")
    static let auth = d("BTBZMqHH6r4Tts7J_aSIgg")
    static let salt = d("DGv6ra1nlYgDCS1FRnbzlw")
    static let secret = d("kyrL1jIIOHEzg3sM2ZWRHDRB62YACZhhSlknJ672kSs")
    static let body = d(
        "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl"
            + "7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN")

    @Test("HKDF-Expand: RFC 5869's test case 1, the first 32 bytes")
    func hkdf() {
        let prk = Self.hex("077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5")
        let info = Self.hex("f0f1f2f3f4f5f6f7f8f9")
        #expect(
            WebPushFraming.expand(prk: prk, info: info, length: 32)
                == Self.hex("3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf"))
    }

    @Test("RFC 8291's example: the content key and nonce from its ECDH secret, and the body's header")
    func example() {
        let keys = WebPushFraming.keys(
            sharedSecret: Self.secret, authSecret: Self.auth, uaPublic: Self.uaPublic, asPublic: Self.asPublic,
            salt: Self.salt)
        #expect(keys.key == Self.d("oIhVW04MRdy2XN9CiKLxTg"))
        #expect(keys.nonce == Self.d("4h_95klXJ5E_qnoN"))
        let ciphertext = Array(Self.body.dropFirst(16 + 4 + 1 + 65))
        #expect(WebPushFraming.body(salt: Self.salt, asPublic: Self.asPublic, ciphertext: ciphertext) == Self.body)
        #expect(Self.body.count == 144)
    }

    @Test("DER signatures into r || s: leading zero bytes dropped, short integers padded; anything else refused")
    func signature() {
        let r = [UInt8](repeating: 0x81, count: 32)
        let s: [UInt8] = [0x01, 0x02]
        let der: [UInt8] = [0x30, UInt8(2 + 33 + 2 + 2), 0x02, 33, 0] + r + [0x02, 2] + s
        #expect(WebPushFraming.rawSignature(der: der) == r + [UInt8](repeating: 0, count: 30) + s)
        #expect(WebPushFraming.rawSignature(der: Array(der.dropLast())) == nil)
        #expect(WebPushFraming.rawSignature(der: [0x31] + der.dropFirst()) == nil)
        #expect(WebPushFraming.rawSignature(der: []) == nil)
    }

    @Test("the VAPID token's input: the header and claims as base64url JSON; the audience an https origin")
    func token() {
        let input = WebPushFraming.tokenInput(
            audience: "https://push.example.net", expires: 1_800_000_000, subject: "mailto:watch@shore.test")
        let parts = input.split(separator: ".").map { String(decoding: Base64.decode(String($0)) ?? [], as: UTF8.self) }
        #expect(
            parts == [
                #"{"typ":"JWT","alg":"ES256"}"#,
                #"{"aud":"https://push.example.net","exp":1800000000,"sub":"mailto:watch@shore.test"}"#,
            ])
        #expect(
            WebPushFraming.origin(of: "https://fcm.googleapis.com:443/fcm/send/abc") == "https://fcm.googleapis.com:443"
        )
        #expect(WebPushFraming.origin(of: "http://x/y") == nil && WebPushFraming.origin(of: "https://u@x/") == nil)
        let apple = WebPushFraming.parts(of: "https://Web.Push.Apple.com/QO?x=1")
        #expect(apple?.host == "web.push.apple.com" && apple?.port == 443 && apple?.path == "/QO?x=1")
        let six = WebPushFraming.parts(of: "https://[::1]:8443")
        #expect(six?.host == "::1" && six?.port == 8443 && six?.path == "/" && six?.authority == "[::1]:8443")
        for bad in ["https://h:x/", "https://h:0/", "https://[::1/", "https://[::1]x/", "https://:443/"] {
            #expect(WebPushFraming.parts(of: bad) == nil, "\(bad)")
        }
    }

    @Test("base64 both ways, both alphabets, with and without padding; nonsense refused")
    func base64() {
        for n in 0..<40 {
            let bytes = (0..<n).map { UInt8(truncatingIfNeeded: $0 * 37 + 250) }
            #expect(Base64.decode(Base64.encode(bytes)) == bytes && Base64.decode(Base64.encodeURL(bytes)) == bytes)
        }
        #expect(Base64.encode(Array("any carnal pleas".utf8)) == "YW55IGNhcm5hbCBwbGVhcw==")
        #expect(Base64.decode("a") == nil && Base64.decode("ab*d") == nil && Base64.decode("ab=c") == nil)
    }
}
