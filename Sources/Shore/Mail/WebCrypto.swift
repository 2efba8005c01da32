import Gateway
import Platform

/// The elliptic curve and AES-GCM Web Push needs, from OpenSSL 3's libcrypto (looked up with dlopen(3), as the shore's
/// TLS is): P-256 keys made, kept (DER) and read back, ECDH, ES256 signatures (DER, which ``WebPushFraming`` turns
/// into JWS's raw form) and AES-128-GCM.
final class WebCrypto {
    typealias Key = OpaquePointer
    private typealias Context = OpaquePointer

    private let lib: DynamicLibrary

    init() throws(CommandError) {
        do throws(DynamicLibrary.Failure) { lib = try DynamicLibrary.open(["libcrypto.so.3"]) } catch {
            throw CommandError("Web Push needs OpenSSL 3 (Debian's libssl3): \(error)", status: 69)
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private func fn<F>(_ name: String, _ type: F.Type) throws(Failure) -> F {
        do throws(DynamicLibrary.Failure) { return try lib.function(name, as: type) } catch {
            throw Failure(description: "\(error)")
        }
    }

    /// A new P-256 key.
    func generate() throws(Failure) -> Key {
        let newContext = try fn(
            "EVP_PKEY_CTX_new_from_name",
            (@convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Context?).self)
        let initialise = try fn("EVP_PKEY_keygen_init", (@convention(c) (Context?) -> Int32).self)
        let group = try fn(
            "EVP_PKEY_CTX_set_group_name", (@convention(c) (Context?, UnsafePointer<CChar>?) -> Int32).self)
        let generate = try fn(
            "EVP_PKEY_generate", (@convention(c) (Context?, UnsafeMutablePointer<Key?>?) -> Int32).self)
        let freeContext = try fn("EVP_PKEY_CTX_free", (@convention(c) (Context?) -> Void).self)
        guard let context = newContext(nil, "EC", nil) else { throw Failure(description: "no EC context") }
        defer { freeContext(context) }
        var key: Key?
        guard initialise(context) == 1, group(context, "P-256") == 1, generate(context, &key) == 1, let key else {
            throw Failure(description: "cannot make a P-256 key")
        }
        return key
    }

    func free(_ key: Key) {
        if let release = try? fn("EVP_PKEY_free", (@convention(c) (Key?) -> Void).self) { release(key) }
    }

    /// The private key as DER (SEC1, its public key inside), to keep.
    func privateDER(_ key: Key) throws(Failure) -> [UInt8] {
        let encode = try fn(
            "i2d_PrivateKey", (@convention(c) (Key?, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32).self
        )
        let length = encode(key, nil)
        guard length > 0 else { throw Failure(description: "cannot write the key") }
        var out = [UInt8](repeating: 0, count: Int(length))
        out.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            _ = encode(key, &cursor)
        }
        return out
    }

    /// A key kept as DER read back.
    func privateKey(der: [UInt8]) throws(Failure) -> Key {
        let decode = try fn(
            "d2i_AutoPrivateKey",
            (@convention(c) (UnsafeMutablePointer<Key?>?, UnsafeMutablePointer<UnsafePointer<UInt8>?>?, Int) -> Key?)
                .self)
        let key = der.withUnsafeBufferPointer { buffer -> Key? in
            var cursor = buffer.baseAddress
            return decode(nil, &cursor, buffer.count)
        }
        guard let key else { throw Failure(description: "the kept key cannot be read") }
        return key
    }

    /// A phone's public key (the 65-byte uncompressed point of `p256dh`).
    func publicKey(point: [UInt8]) throws(Failure) -> Key {
        guard point.count == 65, point[0] == 4 else { throw Failure(description: "p256dh is not a P-256 point") }
        // SubjectPublicKeyInfo for id-ecPublicKey on prime256v1, then the point.
        let prefix: [UInt8] = [
            0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01, 0x06, 0x08, 0x2A, 0x86, 0x48,
            0xCE, 0x3D, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00,
        ]
        let decode = try fn(
            "d2i_PUBKEY",
            (@convention(c) (UnsafeMutablePointer<Key?>?, UnsafeMutablePointer<UnsafePointer<UInt8>?>?, Int) -> Key?)
                .self)
        let der = prefix + point
        let key = der.withUnsafeBufferPointer { buffer -> Key? in
            var cursor = buffer.baseAddress
            return decode(nil, &cursor, buffer.count)
        }
        guard let key else { throw Failure(description: "p256dh is not a point on P-256") }
        return key
    }

    /// A key's public point, uncompressed (65 bytes).
    func publicPoint(_ key: Key) throws(Failure) -> [UInt8] {
        let encoded = try fn(
            "EVP_PKEY_get1_encoded_public_key",
            (@convention(c) (Key?, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int).self)
        let release = try fn(
            "CRYPTO_free", (@convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, Int32) -> Void).self)
        var pointer: UnsafeMutablePointer<UInt8>?
        let length = encoded(key, &pointer)
        guard length == 65, let pointer else { throw Failure(description: "cannot read the public key") }
        defer { release(pointer, "", 0) }
        return Array(UnsafeBufferPointer(start: pointer, count: length))
    }

    /// ECDH between our key and theirs: the shared secret's 32 bytes.
    func sharedSecret(_ mine: Key, _ theirs: Key) throws(Failure) -> [UInt8] {
        let newContext = try fn("EVP_PKEY_CTX_new", (@convention(c) (Key?, OpaquePointer?) -> Context?).self)
        let initialise = try fn("EVP_PKEY_derive_init", (@convention(c) (Context?) -> Int32).self)
        let peer = try fn("EVP_PKEY_derive_set_peer", (@convention(c) (Context?, Key?) -> Int32).self)
        let derive = try fn(
            "EVP_PKEY_derive",
            (@convention(c) (Context?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int>?) -> Int32).self)
        let freeContext = try fn("EVP_PKEY_CTX_free", (@convention(c) (Context?) -> Void).self)
        guard let context = newContext(mine, nil) else { throw Failure(description: "no ECDH context") }
        defer { freeContext(context) }
        var length = 64
        var out = [UInt8](repeating: 0, count: 64)
        guard initialise(context) == 1, peer(context, theirs) == 1, derive(context, &out, &length) == 1, length == 32
        else { throw Failure(description: "ECDH refused") }
        return Array(out.prefix(length))
    }

    /// AES-128-GCM: the ciphertext and its 16-byte tag.
    func seal(key: [UInt8], nonce: [UInt8], _ plaintext: [UInt8]) throws(Failure) -> [UInt8] {
        typealias Bytes = UnsafePointer<UInt8>?
        let newContext = try fn("EVP_CIPHER_CTX_new", (@convention(c) () -> Context?).self)
        let cipher = try fn("EVP_aes_128_gcm", (@convention(c) () -> OpaquePointer?).self)
        let begin = try fn(
            "EVP_EncryptInit_ex",
            (@convention(c) (Context?, OpaquePointer?, OpaquePointer?, Bytes, Bytes) -> Int32).self)
        let update = try fn(
            "EVP_EncryptUpdate",
            (@convention(c) (Context?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int32>?, Bytes, Int32) ->
                Int32)
                .self)
        let final = try fn(
            "EVP_EncryptFinal_ex",
            (@convention(c) (Context?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int32>?) -> Int32).self)
        let control = try fn(
            "EVP_CIPHER_CTX_ctrl", (@convention(c) (Context?, Int32, Int32, UnsafeMutableRawPointer?) -> Int32).self)
        let freeContext = try fn("EVP_CIPHER_CTX_free", (@convention(c) (Context?) -> Void).self)
        guard key.count == 16, nonce.count == 12, let context = newContext() else {
            throw Failure(description: "AES-GCM: a 16-byte key and a 12-byte nonce")
        }
        defer { freeContext(context) }
        var out = [UInt8](repeating: 0, count: plaintext.count + 32)
        var written: Int32 = 0
        var last: Int32 = 0
        var tag = [UInt8](repeating: 0, count: 16)
        let sealed = out.withUnsafeMutableBufferPointer { buffer -> Bool in
            begin(context, cipher(), nil, key, nonce) == 1
                && update(context, buffer.baseAddress, &written, plaintext, Int32(plaintext.count)) == 1
                && final(context, buffer.baseAddress! + Int(written), &last) == 1
                && control(context, 0x10, 16, &tag) == 1  // EVP_CTRL_GCM_GET_TAG
        }
        guard sealed else { throw Failure(description: "AES-GCM refused") }
        return Array(out.prefix(Int(written + last))) + tag
    }

    /// ECDSA over SHA-256 (ES256): the signature as DER.
    func sign(_ key: Key, _ message: [UInt8]) throws(Failure) -> [UInt8] {
        let newContext = try fn("EVP_MD_CTX_new", (@convention(c) () -> Context?).self)
        let sha256 = try fn("EVP_sha256", (@convention(c) () -> OpaquePointer?).self)
        let initialise = try fn(
            "EVP_DigestSignInit",
            (@convention(c) (Context?, OpaquePointer?, OpaquePointer?, OpaquePointer?, Key?) -> Int32).self)
        let sign = try fn(
            "EVP_DigestSign",
            (@convention(c) (
                Context?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int>?, UnsafePointer<UInt8>?, Int
            )
                -> Int32).self)
        let freeContext = try fn("EVP_MD_CTX_free", (@convention(c) (Context?) -> Void).self)
        guard let context = newContext() else { throw Failure(description: "no signing context") }
        defer { freeContext(context) }
        var out = [UInt8](repeating: 0, count: 80)
        var length = out.count
        guard initialise(context, nil, sha256(), nil, key) == 1,
            sign(context, &out, &length, message, message.count) == 1
        else { throw Failure(description: "ES256 refused") }
        return Array(out.prefix(length))
    }
}
