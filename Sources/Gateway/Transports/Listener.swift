import CPosix
import Platform

/// A listening TCP socket for the outputs' and the web server's clients: bound to a numeric address, non-blocking,
/// accepting clients configured alike (no Nagle delay, a small kernel send buffer, so that what waits for a slow
/// client waits in our bounded, counted queue rather than the kernel's; TCP keepalive, so a vanished peer is found).
final class Listener {
    let fd: Int32
    /// The port bound (the one asked for, or the one the kernel chose for port 0).
    let port: Int
    private let sendBuffer: Int32

    init(host: String, port: Int, url: String, sendBuffer: Int) throws(POSIX.Failure) {
        guard let address = POSIX.SocketAddress(host: host, port: port) else {
            throw POSIX.Failure(operation: "not a numeric IPv4 or IPv6 address:", path: host, code: EINVAL)
        }
        let fd = try POSIX.socket(.stream, for: address, naming: url)
        do {
            try POSIX.bind(fd, to: address, listen: true, naming: url)
        } catch {
            POSIX.close(fd)
            throw error
        }
        self.fd = fd
        self.port = POSIX.localPort(fd)
        self.sendBuffer = Int32(clamping: sendBuffer)
    }

    deinit { POSIX.close(fd) }

    /// A client waiting to be accepted, configured; nil when none waits.
    func accept() -> Int32? {
        guard let client = POSIX.accept(fd) else { return nil }
        POSIX.setOption(client, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
        POSIX.setOption(client, SOL_SOCKET, SO_SNDBUF, sendBuffer)
        // A peer that vanished without a word (a phone gone to sleep or out of Wi-Fi range, a plotter switched off)
        // is found by the kernel within a minute and a half of silence, and its slot freed: probed after 45 s idle,
        // then every 15 s, given up after 3 unanswered.
        POSIX.setOption(client, SOL_SOCKET, SO_KEEPALIVE, 1)
        POSIX.setOption(client, Int32(IPPROTO_TCP), TCP_KEEPIDLE, 45)
        POSIX.setOption(client, Int32(IPPROTO_TCP), TCP_KEEPINTVL, 15)
        POSIX.setOption(client, Int32(IPPROTO_TCP), TCP_KEEPCNT, 3)
        return client
    }

    /// The listener's entry in the poll set.
    /// Waits for a connection to accept.
    func register(into set: inout PollSet) { set.add(fd) }
}

/// One client's outgoing bytes: appended whole (sentences, frames), written as the socket takes them, the written
/// part dropped from the front once it is large, so the queue stays within its owner's bound.
struct ClientQueue {
    private var bytes: [UInt8] = []
    private var sent = 0

    /// Bytes still to write.
    var pending: Int { bytes.count - sent }
    var isEmpty: Bool { pending == 0 }

    mutating func append(_ more: UnsafeRawBufferPointer) { bytes.append(contentsOf: more) }
    mutating func append(_ more: [UInt8]) { bytes.append(contentsOf: more) }

    mutating func removeAll() {
        bytes.removeAll()
        sent = 0
    }

    /// Writes what the socket takes now; the count written, or nil when the client is gone.
    mutating func write(to fd: Int32, compactingPast limit: Int) -> Int? {
        write(compactingPast: limit) { POSIX.send(fd, $0) }
    }

    /// Writes what `send` takes now (the socket, or a TLS session over it).
    mutating func write(compactingPast limit: Int, _ send: (UnsafeRawBufferPointer) -> POSIX.Transfer) -> Int? {
        guard pending > 0 else { return 0 }
        let start = sent
        let outcome = bytes.withUnsafeBytes { send(UnsafeRawBufferPointer(rebasing: $0[start...])) }
        switch outcome {
        case .bytes(let written):
            sent += written
            if sent == bytes.count {
                // Keep a modest buffer for the next sentences; give back one a burst made large.
                bytes.removeAll(keepingCapacity: bytes.capacity <= 64 * 1024)
                sent = 0
            } else if sent > limit {
                bytes.removeFirst(sent)
                sent = 0
            }
            return written
        case .wouldBlock: return 0
        case .end, .failed: return nil
        }
    }

    /// Reads what a client sent, at most `limit` bytes (a client that writes without pause must not hold the
    /// loop), handing each read's bytes to `body`; false when the connection has closed.
    static func read(
        _ fd: Int32, into scratch: inout [UInt8], limit: Int, _ body: (ArraySlice<UInt8>) -> Bool
    ) -> Bool {
        read(into: &scratch, limit: limit, from: { POSIX.receive(fd, into: $0) }, body)
    }

    /// The same from `receive` (the socket, or a TLS session over it).
    static func read(
        into scratch: inout [UInt8], limit: Int, from receive: (UnsafeMutableRawBufferPointer) -> POSIX.Transfer,
        _ body: (ArraySlice<UInt8>) -> Bool
    ) -> Bool {
        var total = 0
        while total < limit {
            let room = min(scratch.count, limit - total)
            switch scratch.withUnsafeMutableBytes({
                receive(UnsafeMutableRawBufferPointer(rebasing: $0[0..<room]))
            }) {
            case .bytes(let got):
                total += got
                guard body(scratch[0..<got]) else { return true }
            case .wouldBlock: return true
            case .end, .failed: return false
            }
        }
        return true
    }
}
