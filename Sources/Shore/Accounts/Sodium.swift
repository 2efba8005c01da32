import Platform

/// libsodium (Debian's `libsodium23`), looked up with dlopen(3) when the shore first checks or keeps a password: its
/// Argon2id password hash (`crypto_pwhash_str_alg`, memory-hard, the salt and parameters inside the string it writes)
/// only. No header is needed: the few functions take bytes and sizes.
struct Sodium: @unchecked Sendable {
    private let initialise: @convention(c) () -> Int32
    private let hashString:
        @convention(c) (
            UnsafeMutablePointer<CChar>?, UnsafePointer<CChar>?, UInt64, UInt64, Int, Int32
        ) -> Int32
    private let verifyString: @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?, UInt64) -> Int32
    private let argon2id: @convention(c) () -> Int32

    /// `crypto_pwhash_STRBYTES`: the hash string's room, its final NUL included.
    static let stringBytes = 128
    /// Argon2id's cost: three passes over 64 MiB (libsodium's "moderate" is 3 and 256 MiB, "interactive" 2 and
    /// 64 MiB); about a tenth of a second on a laptop's core, what a login may wait (docs/benchmarks.md).
    static let passes: UInt64 = 3
    static let memory = 64 << 20

    static let shared: Sodium? = {
        do throws(DynamicLibrary.Failure) {
            let library = try DynamicLibrary.open(["libsodium.so.23", "libsodium.so"])
            let sodium = Sodium(
                initialise: try library.function("sodium_init", as: (@convention(c) () -> Int32).self),
                hashString: try library.function(
                    "crypto_pwhash_str_alg",
                    as: (@convention(c) (
                        UnsafeMutablePointer<CChar>?, UnsafePointer<CChar>?, UInt64, UInt64, Int, Int32
                    ) -> Int32).self),
                verifyString: try library.function(
                    "crypto_pwhash_str_verify",
                    as: (@convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?, UInt64) -> Int32).self),
                argon2id: try library.function(
                    "crypto_pwhash_alg_argon2id13", as: (@convention(c) () -> Int32).self))
            return sodium.initialise() >= 0 ? sodium : nil
        } catch {
            return nil
        }
    }()

    /// Why the shore cannot keep passwords here, for the words of a refusal.
    static let missing = "libsodium cannot be loaded (Debian's libsodium23)"

    /// The Argon2id string of `password` (`$argon2id$v=19$m=65536,t=3,p=1$salt$hash`); nil when the hash could not
    /// be made (out of memory).
    func hash(_ password: String) -> String? {
        var out = [CChar](repeating: 0, count: Self.stringBytes)
        let bytes = Array(password.utf8)
        let status = bytes.withUnsafeBufferPointer { raw in
            raw.withMemoryRebound(to: CChar.self) {
                hashString(&out, $0.baseAddress, UInt64($0.count), Self.passes, Self.memory, argon2id())
            }
        }
        guard status == 0, let end = out.firstIndex(of: 0) else { return nil }
        return String(decoding: out[..<end].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether `password` is the one `string` was made from (its own parameters and salt).
    func verify(_ password: String, against string: String) -> Bool {
        var stored = Array(string.utf8.prefix(Self.stringBytes - 1)).map { CChar(bitPattern: $0) }
        stored.append(0)
        let bytes = Array(password.utf8)
        return bytes.withUnsafeBufferPointer { raw in
            raw.withMemoryRebound(to: CChar.self) { verifyString(stored, $0.baseAddress, UInt64($0.count)) == 0 }
        }
    }
}
