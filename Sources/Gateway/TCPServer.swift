import CPosix
import Platform

/// A TCP server output: many clients, each with its own bounded queue, so a client that never reads does not
/// delay the others. A client whose queue is full loses sentences (counted); one that has lost more than
/// `dropLimit` in a row is disconnected. Bytes clients send are read and thrown away.
public final class TCPServer {
    public struct Statistics: Hashable, Sendable {
        public var accepted = 0
        public var disconnected = 0
        public var droppedSentences = 0
        public var bytesSent = 0
        /// Bytes clients sent to this output, read and thrown away.
        public var bytesDiscarded = 0
    }

    private struct Client {
        var fd: Int32
        var queue: [UInt8] = []
        var sent = 0
        var droppedInARow = 0
    }

    public let port: Int
    public private(set) var statistics = Statistics()
    private let listener: Int32
    private var clients: [Client] = []
    private let bufferLimit: Int
    private let maximumClients: Int
    private let dropLimit: Int
    private var scratch = [UInt8](repeating: 0, count: 4096)

    public init(host: String, port: Int, bufferLimit: Int = 64 * 1024, maximumClients: Int = 16, dropLimit: Int = 2000)
        throws(POSIX.Failure)
    {
        self.bufferLimit = bufferLimit
        self.maximumClients = maximumClients
        self.dropLimit = dropLimit
        let url = Endpoint.tcp(host: host, port: port).description
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
        // Port 0 asks for any free port: read back which.
        self.port = POSIX.localPort(fd)
        listener = fd
    }

    deinit {
        for client in clients { POSIX.close(client.fd) }
        POSIX.close(listener)
    }

    public var clientCount: Int { clients.count }

    /// Whether any client still has bytes queued.
    public var hasPending: Bool { clients.contains { $0.queue.count > $0.sent } }

    /// Queues bytes (whole sentences) for every client.
    public func send(_ bytes: UnsafeRawBufferPointer) {
        for index in clients.indices {
            if clients[index].queue.count - clients[index].sent + bytes.count > bufferLimit {
                clients[index].droppedInARow += 1
                statistics.droppedSentences += 1
                continue
            }
            clients[index].droppedInARow = 0
            clients[index].queue.append(contentsOf: bytes)
        }
    }

    /// The descriptors to poll and what for.
    public func pollDescriptors(into fds: inout [pollfd]) {
        fds.append(pollfd(fd: listener, events: Int16(POLLIN), revents: 0))
        for client in clients {
            let wantsWrite = client.queue.count > client.sent
            fds.append(pollfd(fd: client.fd, events: Int16(POLLIN) | (wantsWrite ? Int16(POLLOUT) : 0), revents: 0))
        }
    }

    /// Accepts new clients, discards what clients send, writes what is queued, drops the dead and the stalled.
    public func service() { service { _ in } }

    /// The same, saying each client accepted (true) and each dropped (false).
    public func service(_ changed: (Bool) -> Void) {
        while let fd = POSIX.accept(listener) {
            if clients.count >= maximumClients {
                POSIX.close(fd)
                continue
            }
            POSIX.setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
            // Keep the kernel's share small: what waits for a slow client waits in our bounded, counted queue.
            POSIX.setOption(fd, SOL_SOCKET, SO_SNDBUF, Int32(min(bufferLimit, Int(Int32.max))))
            clients.append(Client(fd: fd))
            statistics.accepted += 1
            changed(true)
        }
        var index = 0
        while index < clients.count {
            var alive = discardInput(of: clients[index].fd)
            if alive && clients[index].queue.count > clients[index].sent {
                let client = clients[index]
                let outcome = client.queue.withUnsafeBytes {
                    POSIX.send(client.fd, UnsafeRawBufferPointer(rebasing: $0[client.sent...]))
                }
                switch outcome {
                case .bytes(let written):
                    clients[index].sent += written
                    statistics.bytesSent += written
                    if clients[index].sent == clients[index].queue.count {
                        clients[index].queue.removeAll(keepingCapacity: true)
                        clients[index].sent = 0
                    } else if clients[index].sent > bufferLimit / 2 {
                        clients[index].queue.removeFirst(clients[index].sent)
                        clients[index].sent = 0
                    }
                case .wouldBlock: break
                case .end, .failed: alive = false
                }
            }
            if clients[index].droppedInARow > dropLimit { alive = false }
            if alive {
                index += 1
            } else {
                POSIX.close(clients[index].fd)
                clients.remove(at: index)
                statistics.disconnected += 1
                changed(false)
            }
        }
    }

    /// Reads and throws away what a client sent (an output port takes no input), at most `readLimit` bytes a
    /// turn: a client that writes without pause must not hold the loop. False when the connection has closed.
    private func discardInput(of fd: Int32) -> Bool {
        var total = 0
        while total < Self.readLimit {
            switch scratch.withUnsafeMutableBytes({ POSIX.receive(fd, into: $0) }) {
            case .bytes(let got):
                total += got
                statistics.bytesDiscarded += got
            case .wouldBlock: return true
            case .end, .failed: return false
            }
        }
        return true
    }

    /// Bytes read from one client in one turn of the loop, at most.
    static let readLimit = 16 * 1024
}

extension TCPServer: OutputTransport {
    func send(_ bytes: UnsafeRawBufferPointer, computed: Bool, now: Double) { send(bytes) }
    func service(now: Double, _ clients: (ClientChange) -> Void) { service { clients($0 ? .connected : .gone) } }
    var counts: String { ", \(clientCount) clients, \(statistics.droppedSentences) dropped for slow clients" }
    var listeningPort: Int? { port }
    var clientStatistics: Statistics? { statistics }
    var servesClients: Bool { true }
}
