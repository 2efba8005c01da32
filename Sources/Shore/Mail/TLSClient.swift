import CPosix
import Gateway
import Platform

/// OpenSSL 3 as a client (Debian's `libssl3`, looked up with dlopen(3) as the shore's HTTPS is), for the shore's
/// helpers that reach a server: the mail server's STARTTLS or smtps, a phone's push service. The server's certificate
/// is checked against the system's CAs (and the file given: a private CA) and its name against the host asked for;
/// TLS 1.2 at least. A session is driven over a non-blocking socket: each call says whether it wants to read or write.
final class TLSClient {
    typealias Handle = OpaquePointer

    private let ssl: DynamicLibrary
    private let crypto: DynamicLibrary
    private var context: Handle?

    enum Step: Equatable {
        case done(Int)
        case wantRead
        case wantWrite
        case closed
        case failed(String)
    }

    /// Fails with the reason when OpenSSL 3 is not there or the CA file does not load.
    init(caFile: String?) throws(CommandError) {
        var loaded = true
        do throws(DynamicLibrary.Failure) {
            ssl = try DynamicLibrary.open(["libssl.so.3"])
            crypto = try DynamicLibrary.open(["libcrypto.so.3"])
            let method = try ssl.function("TLS_client_method", as: (@convention(c) () -> OpaquePointer?).self)
            let newContext = try ssl.function("SSL_CTX_new", as: (@convention(c) (OpaquePointer?) -> Handle?).self)
            guard let context = newContext(method()) else { throw .missing(library: ssl.name, symbol: "SSL_CTX_new") }
            self.context = context
            let defaults = try ssl.function(
                "SSL_CTX_set_default_verify_paths", as: (@convention(c) (Handle?) -> Int32).self)
            _ = defaults(context)
            if let caFile {
                let load = try ssl.function(
                    "SSL_CTX_load_verify_locations",
                    as: (@convention(c) (Handle?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32).self)
                loaded = load(context, caFile, nil) == 1
            }
            let verify = try ssl.function(
                "SSL_CTX_set_verify", as: (@convention(c) (Handle?, Int32, OpaquePointer?) -> Void).self)
            verify(context, 1, nil)  // SSL_VERIFY_PEER
            let control = try ssl.function(
                "SSL_CTX_ctrl", as: (@convention(c) (Handle?, Int32, Int, UnsafeMutableRawPointer?) -> Int).self)
            _ = control(context, 123, 0x0303, nil)  // SSL_CTRL_SET_MIN_PROTO_VERSION, TLS 1.2
        } catch {
            throw CommandError("TLS needs OpenSSL 3 (Debian's libssl3): \(error)", status: 69)
        }
        guard loaded else { throw CommandError("TLS: the CA file \(caFile ?? "") cannot be read", status: 66) }
    }

    /// A session on the connected socket `fd` for the server `host` (its name sent as SNI and checked against the
    /// certificate; an address checked as an address).
    func session(fd: Int32, host: String) -> Session? {
        do throws(DynamicLibrary.Failure) {
            return try Session(client: self, fd: fd, host: host)
        } catch {
            return nil
        }
    }

    final class Session {
        private let handle: Handle
        private let connect: @convention(c) (Handle?) -> Int32
        private let readBytes: @convention(c) (Handle?, UnsafeMutableRawPointer?, Int32) -> Int32
        private let writeBytes: @convention(c) (Handle?, UnsafeRawPointer?, Int32) -> Int32
        private let errorOf: @convention(c) (Handle?, Int32) -> Int32
        private let verifyResult: @convention(c) (Handle?) -> Int
        private let verifyText: @convention(c) (Int) -> UnsafePointer<CChar>?
        private let shutdown: @convention(c) (Handle?) -> Int32
        private let free: @convention(c) (Handle?) -> Void
        private let nextError: @convention(c) () -> UInt
        private let errorText: @convention(c) (UInt, UnsafeMutablePointer<CChar>?, Int) -> Void

        fileprivate init(client: TLSClient, fd: Int32, host: String) throws(DynamicLibrary.Failure) {
            let ssl = client.ssl
            let newSession = try ssl.function("SSL_new", as: (@convention(c) (Handle?) -> Handle?).self)
            let setDescriptor = try ssl.function("SSL_set_fd", as: (@convention(c) (Handle?, Int32) -> Int32).self)
            let control = try ssl.function(
                "SSL_ctrl", as: (@convention(c) (Handle?, Int32, Int, UnsafeMutableRawPointer?) -> Int).self)
            let setHost = try ssl.function(
                "SSL_set1_host", as: (@convention(c) (Handle?, UnsafePointer<CChar>?) -> Int32).self)
            connect = try ssl.function("SSL_connect", as: (@convention(c) (Handle?) -> Int32).self)
            readBytes = try ssl.function(
                "SSL_read", as: (@convention(c) (Handle?, UnsafeMutableRawPointer?, Int32) -> Int32).self)
            writeBytes = try ssl.function(
                "SSL_write", as: (@convention(c) (Handle?, UnsafeRawPointer?, Int32) -> Int32).self)
            errorOf = try ssl.function("SSL_get_error", as: (@convention(c) (Handle?, Int32) -> Int32).self)
            verifyResult = try ssl.function("SSL_get_verify_result", as: (@convention(c) (Handle?) -> Int).self)
            verifyText = try client.crypto.function(
                "X509_verify_cert_error_string", as: (@convention(c) (Int) -> UnsafePointer<CChar>?).self)
            shutdown = try ssl.function("SSL_shutdown", as: (@convention(c) (Handle?) -> Int32).self)
            free = try ssl.function("SSL_free", as: (@convention(c) (Handle?) -> Void).self)
            nextError = try client.crypto.function("ERR_get_error", as: (@convention(c) () -> UInt).self)
            errorText = try client.crypto.function(
                "ERR_error_string_n", as: (@convention(c) (UInt, UnsafeMutablePointer<CChar>?, Int) -> Void).self)
            guard let handle = newSession(client.context) else {
                throw .missing(library: ssl.name, symbol: "SSL_new")
            }
            self.handle = handle
            _ = setDescriptor(handle, fd)
            if POSIX.SocketAddress(host: host, port: 0) == nil || host == "localhost" {
                // SNI (SSL_CTRL_SET_TLSEXT_HOSTNAME, a host name) for names; the certificate checked for the host.
                host.withCString { _ = control(handle, 55, 0, UnsafeMutableRawPointer(mutating: $0)) }
            }
            _ = setHost(handle, host)
        }

        deinit {
            _ = shutdown(handle)
            free(handle)
        }

        /// The handshake, a step at a time.
        func handshake() -> Step { step(connect(handle), handshaking: true) }

        func read(into buffer: UnsafeMutableRawBufferPointer) -> Step {
            step(readBytes(handle, buffer.baseAddress, Int32(clamping: buffer.count)), handshaking: false)
        }

        func write(_ bytes: UnsafeRawBufferPointer) -> Step {
            step(writeBytes(handle, bytes.baseAddress, Int32(clamping: min(bytes.count, 16_384))), handshaking: false)
        }

        private func step(_ result: Int32, handshaking: Bool) -> Step {
            if result > 0 { return .done(Int(result)) }
            switch errorOf(handle, result) {
            case 2: return .wantRead
            case 3: return .wantWrite
            case 6: return .closed
            default:
                let verified = verifyResult(handle)
                if handshaking && verified != 0 {
                    return .failed(
                        "the server's certificate: " + (verifyText(verified).map { String(cString: $0) } ?? "refused"))
                }
                var words = "refused by OpenSSL"
                while case let code = nextError(), code != 0 {
                    var text = [CChar](repeating: 0, count: 256)
                    errorText(code, &text, text.count)
                    words = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                }
                return .failed("TLS: " + words)
            }
        }
    }
}
