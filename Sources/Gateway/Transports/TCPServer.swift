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
        /// The most bytes read from one client in one turn of the loop: bounded by `readLimit`, so a client that
        /// writes without pause cannot hold the loop.
        public var largestTurnRead = 0
    }

    private struct Client {
        var fd: Int32
        var queue = ClientQueue()
        var droppedInARow = 0
    }

    public var port: Int { listener.port }
    public private(set) var statistics = Statistics()
    private let listener: Listener
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
        listener = try Listener(
            host: host, port: port, url: Endpoint.tcp(host: host, port: port).description,
            sendBuffer: min(bufferLimit, Int(Int32.max)))
    }

    deinit { close() }

    public var clientCount: Int { clients.count }

    /// Whether any client still has bytes queued.
    public var hasPending: Bool { clients.contains { !$0.queue.isEmpty } }

    /// Queues bytes (whole sentences) for every client.
    public func send(_ bytes: UnsafeRawBufferPointer) {
        for index in clients.indices {
            if clients[index].queue.pending + bytes.count > bufferLimit {
                clients[index].droppedInARow += 1
                statistics.droppedSentences += 1
                continue
            }
            clients[index].droppedInARow = 0
            clients[index].queue.append(bytes)
        }
    }

    /// The descriptors to poll and what for.
    public func pollDescriptors(into set: inout PollSet) {
        listener.register(into: &set)
        for client in clients {
            let wantsWrite = !client.queue.isEmpty
            set.add(client.fd, write: wantsWrite)
        }
    }

    /// Accepts new clients, discards what clients send, writes what is queued, drops the dead and the stalled.
    public func service() { service { _ in } }

    /// The same, saying each client accepted (true) and each dropped (false).
    public func service(_ changed: (Bool) -> Void) {
        while let fd = listener.accept() {
            if clients.count >= maximumClients {
                POSIX.close(fd)
                continue
            }
            clients.append(Client(fd: fd))
            statistics.accepted += 1
            changed(true)
        }
        var index = 0
        while index < clients.count {
            // An output port takes no input: what a client sends is read and thrown away.
            var turn = 0
            var alive = ClientQueue.read(clients[index].fd, into: &scratch, limit: Self.readLimit) { bytes in
                statistics.bytesDiscarded += bytes.count
                turn += bytes.count
                return true
            }
            statistics.largestTurnRead = max(statistics.largestTurnRead, turn)
            if alive {
                if let written = clients[index].queue.write(to: clients[index].fd, compactingPast: bufferLimit / 2) {
                    statistics.bytesSent += written
                } else {
                    alive = false
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

    /// Closes every client (the listener goes with the server).
    public func close() {
        for client in clients { POSIX.close(client.fd) }
        clients.removeAll()
    }

    /// Bytes read from one client in one turn of the loop, at most.
    public static let readLimit = 16 * 1024
}

extension TCPServer: OutputTransport {
    func send(_ bytes: UnsafeRawBufferPointer, computed: Bool, now: Double) { send(bytes) }
    func service(now: Double, _ clients: (ClientChange) -> Void) { service { clients($0 ? .connected : .gone) } }
    var counts: String { ", \(clientCount) clients, \(statistics.droppedSentences) dropped for slow clients" }
    var listeningPort: Int? { port }
    var clientStatistics: Statistics? { statistics }
    var servesClients: Bool { true }
}
