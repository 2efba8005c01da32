import CPosix
import Gateway
import Platform

/// A connection from one of the shore's helpers to a server (the mail server, a push service): by name, plain or in
/// TLS (from the first byte, or begun later: STARTTLS), each wait bounded by one deadline for the whole exchange. The
/// helper is a child of its own; blocking it is what it is for.
final class ServerConnection {
    let host: String
    let fd: Int32
    private let deadline: Double
    private var tls: TLSClient.Session?

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ words: String) { description = words }
    }

    /// Connected to the first of `host`'s addresses that answers, before `deadline` (monotonic seconds).
    init(host: String, port: Int, deadline: Double) throws(Failure) {
        self.host = host
        self.deadline = deadline
        let addresses: [POSIX.SocketAddress]
        do { addresses = try POSIX.resolve(host: host, port: port) } catch {
            throw Failure("\(error.operation) \(host)")
        }
        var last = "no address"
        for address in addresses {
            let url = "\(host):\(port)"
            guard let fd = try? POSIX.socket(.stream, for: address, naming: url) else { continue }
            do throws(POSIX.Failure) {
                if try !POSIX.connect(fd, to: address, naming: url) {
                    guard Self.wait(fd, write: true, until: deadline) else {
                        throw POSIX.Failure(operation: "timed out connecting to", path: url, code: ETIMEDOUT)
                    }
                    let code = POSIX.socketError(fd)
                    guard code == 0 else { throw POSIX.Failure(operation: "cannot connect to", path: url, code: code) }
                }
                self.fd = fd
                return
            } catch {
                POSIX.close(fd)
                last = error.description
            }
        }
        throw Failure(last)
    }

    deinit {
        tls = nil
        POSIX.close(fd)
    }

    var inTLS: Bool { tls != nil }

    /// TLS on the connection from here on, the server's certificate checked for `host`.
    func startTLS(_ client: TLSClient) throws(Failure) {
        guard let session = client.session(fd: fd, host: host) else { throw Failure("TLS: no session") }
        while true {
            switch session.handshake() {
            case .done, .closed:
                tls = session
                return
            case .wantRead: try waitFor(write: false)
            case .wantWrite: try waitFor(write: true)
            case .failed(let words): throw Failure(words)
            }
        }
    }

    /// Every byte written.
    func send(_ bytes: [UInt8]) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            let step: TLSClient.Step = bytes.withUnsafeBytes { raw in
                let rest = UnsafeRawBufferPointer(rebasing: raw[offset...])
                if let tls { return tls.write(rest) }
                switch POSIX.send(fd, rest) {
                case .bytes(let count): return .done(count)
                case .wouldBlock: return .wantWrite
                case .end: return .closed
                case .failed(let code): return .failed("cannot write to \(host): \(POSIX.message(code))")
                }
            }
            switch step {
            case .done(let count): offset += count
            case .wantRead: try waitFor(write: false)
            case .wantWrite: try waitFor(write: true)
            case .closed: throw Failure("\(host) closed the connection")
            case .failed(let words): throw Failure(words)
            }
        }
    }

    /// What the server sent next (empty at its end).
    func receive() throws(Failure) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let step: TLSClient.Step = buffer.withUnsafeMutableBytes { raw in
                if let tls { return tls.read(into: raw) }
                switch POSIX.receive(fd, into: raw) {
                case .bytes(let count): return .done(count)
                case .wouldBlock: return .wantRead
                case .end: return .closed
                case .failed(let code): return .failed("cannot read from \(host): \(POSIX.message(code))")
                }
            }
            switch step {
            case .done(let count): return Array(buffer[0..<count])
            case .closed: return []
            case .wantRead: try waitFor(write: false)
            case .wantWrite: try waitFor(write: true)
            case .failed(let words): throw Failure(words)
            }
        }
    }

    private func waitFor(write: Bool) throws(Failure) {
        guard Self.wait(fd, write: write, until: deadline) else { throw Failure("\(host) did not answer in time") }
    }

    private static func wait(_ fd: Int32, write: Bool, until deadline: Double) -> Bool {
        var set = PollSet(capacity: 1)
        while case let left = deadline - POSIX.monotonic(), left > 0 {
            set.removeAll()
            _ = set.add(fd, read: !write, write: write)
            _ = set.wait(seconds: min(left, 1))
            if set.readiness(of: fd) != [] { return true }
        }
        return false
    }
}
