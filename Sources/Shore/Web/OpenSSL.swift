import CPosix
import Gateway
import Platform

/// OpenSSL 3 (Debian's `libssl3`, which the uplink's libmosquitto already brings), looked up with dlopen(3) when
/// `telltale fleet --tls-cert --tls-key` asks for HTTPS: one server context (TLS 1.2 at least, the certificate chain
/// and its key checked against each other at start), a session a client, read and written without blocking, as the
/// web server's ``WebServer/Cipher``. No header is needed: the handles are opaque, the constants few.
final class OpenSSL: @unchecked Sendable {
    typealias Context = OpaquePointer
    typealias Session = OpaquePointer

    private let serverMethod: @convention(c) () -> OpaquePointer?
    private let newContext: @convention(c) (OpaquePointer?) -> Context?
    private let useChain: @convention(c) (Context?, UnsafePointer<CChar>?) -> Int32
    private let useKey: @convention(c) (Context?, UnsafePointer<CChar>?, Int32) -> Int32
    private let checkKey: @convention(c) (Context?) -> Int32
    private let contextControl: @convention(c) (Context?, Int32, Int, UnsafeMutableRawPointer?) -> Int
    private let newSession: @convention(c) (Context?) -> Session?
    private let setDescriptor: @convention(c) (Session?, Int32) -> Int32
    private let acceptState: @convention(c) (Session?) -> Void
    private let readBytes: @convention(c) (Session?, UnsafeMutableRawPointer?, Int32) -> Int32
    private let writeBytes: @convention(c) (Session?, UnsafeRawPointer?, Int32) -> Int32
    private let errorOf: @convention(c) (Session?, Int32) -> Int32
    private let shutdown: @convention(c) (Session?) -> Int32
    private let free: @convention(c) (Session?) -> Void
    private let clearErrors: @convention(c) () -> Void
    private let nextError: @convention(c) () -> UInt
    private let errorText: @convention(c) (UInt, UnsafeMutablePointer<CChar>?, Int) -> Void
    private var context: Context?

    static let wantRead: Int32 = 2
    static let wantWrite: Int32 = 3
    static let zeroReturn: Int32 = 6

    init() throws(CommandError) {
        do throws(DynamicLibrary.Failure) {
            let ssl = try DynamicLibrary.open(["libssl.so.3"])
            let crypto = try DynamicLibrary.open(["libcrypto.so.3"])
            serverMethod = try ssl.function("TLS_server_method", as: (@convention(c) () -> OpaquePointer?).self)
            newContext = try ssl.function("SSL_CTX_new", as: (@convention(c) (OpaquePointer?) -> Context?).self)
            useChain = try ssl.function(
                "SSL_CTX_use_certificate_chain_file",
                as: (@convention(c) (Context?, UnsafePointer<CChar>?) -> Int32).self)
            useKey = try ssl.function(
                "SSL_CTX_use_PrivateKey_file",
                as: (@convention(c) (Context?, UnsafePointer<CChar>?, Int32) -> Int32).self)
            checkKey = try ssl.function("SSL_CTX_check_private_key", as: (@convention(c) (Context?) -> Int32).self)
            contextControl = try ssl.function(
                "SSL_CTX_ctrl", as: (@convention(c) (Context?, Int32, Int, UnsafeMutableRawPointer?) -> Int).self)
            newSession = try ssl.function("SSL_new", as: (@convention(c) (Context?) -> Session?).self)
            setDescriptor = try ssl.function("SSL_set_fd", as: (@convention(c) (Session?, Int32) -> Int32).self)
            acceptState = try ssl.function("SSL_set_accept_state", as: (@convention(c) (Session?) -> Void).self)
            readBytes = try ssl.function(
                "SSL_read", as: (@convention(c) (Session?, UnsafeMutableRawPointer?, Int32) -> Int32).self)
            writeBytes = try ssl.function(
                "SSL_write", as: (@convention(c) (Session?, UnsafeRawPointer?, Int32) -> Int32).self)
            errorOf = try ssl.function("SSL_get_error", as: (@convention(c) (Session?, Int32) -> Int32).self)
            shutdown = try ssl.function("SSL_shutdown", as: (@convention(c) (Session?) -> Int32).self)
            free = try ssl.function("SSL_free", as: (@convention(c) (Session?) -> Void).self)
            clearErrors = try crypto.function("ERR_clear_error", as: (@convention(c) () -> Void).self)
            nextError = try crypto.function("ERR_get_error", as: (@convention(c) () -> UInt).self)
            errorText = try crypto.function(
                "ERR_error_string_n", as: (@convention(c) (UInt, UnsafeMutablePointer<CChar>?, Int) -> Void).self)
        } catch {
            throw CommandError("fleet: HTTPS needs OpenSSL 3 (Debian's libssl3): \(error)", status: 69)
        }
    }

    /// The server's context from the certificate chain and key (PEM files); the words when they do not do.
    func serve(certificate: String, key: String) throws(CommandError) {
        clearErrors()
        guard let context = newContext(serverMethod()) else { throw failure("cannot make a TLS context") }
        guard useChain(context, certificate) == 1 else { throw failure("--tls-cert \(certificate)") }
        guard useKey(context, key, 1) == 1 else {
            throw failure("--tls-key \(key) cannot be read, or is not the certificate's key")
        }
        guard checkKey(context) == 1 else { throw failure("--tls-key \(key) is not the certificate's key") }
        // TLS 1.2 at least (SSL_CTRL_SET_MIN_PROTO_VERSION, TLS1_2_VERSION); writes that may end part way and be
        // given again from a buffer that moved (SSL_CTRL_MODE: ENABLE_PARTIAL_WRITE | ACCEPT_MOVING_WRITE_BUFFER).
        _ = contextControl(context, 123, 0x0303, nil)
        _ = contextControl(context, 33, 1 | 2, nil)
        self.context = context
    }

    private func failure(_ what: String) -> CommandError {
        var words: [String] = []
        while case let code = nextError(), code != 0 {
            var text = [CChar](repeating: 0, count: 256)
            errorText(code, &text, text.count)
            words.append(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return CommandError("fleet: \(what): " + (words.last ?? "refused by OpenSSL"), status: 66)
    }

    /// The web server's way to its clients through TLS.
    var cipher: WebServer.Cipher {
        WebServer.Cipher(
            accept: { [self] fd in
                guard let session = newSession(context) else { return nil }
                guard setDescriptor(session, fd) == 1 else {
                    free(session)
                    return nil
                }
                acceptState(session)
                return session
            },
            receive: { [self] session, buffer in
                clearErrors()
                let got = readBytes(session, buffer.baseAddress, Int32(clamping: buffer.count))
                return got > 0 ? .bytes(Int(got)) : transfer(session, got)
            },
            send: { [self] session, bytes in
                clearErrors()
                let sent = writeBytes(session, bytes.baseAddress, Int32(clamping: min(bytes.count, 16_384)))
                return sent > 0 ? .bytes(Int(sent)) : transfer(session, sent)
            },
            close: { [self] session in
                _ = shutdown(session)
                free(session)
            })
    }

    /// What a read or write that did not move bytes means: wait for the socket, the peer's end, or a failure (a
    /// plain HTTP request on the HTTPS port, a handshake refused).
    private func transfer(_ session: Session, _ result: Int32) -> POSIX.Transfer {
        switch errorOf(session, result) {
        case Self.wantRead, Self.wantWrite: .wouldBlock
        case Self.zeroReturn: .end
        default: .failed(code: EPROTO)
        }
    }
}
