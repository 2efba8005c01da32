#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A TCP server output: many clients, each with its own bounded queue, so a client that never reads does not
/// delay the others. A client whose queue is full loses sentences (counted); one that has lost more than
/// `dropLimit` in a row is disconnected. Bytes clients send are read and thrown away.
public final class TCPServer {
    public struct Statistics: Hashable, Sendable {
        public var accepted = 0
        public var disconnected = 0
        public var droppedSentences = 0
        public var bytesSent = 0
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

    public init(host: String, port: Int, bufferLimit: Int = 64 * 1024, maximumClients: Int = 16, dropLimit: Int = 2000)
        throws(POSIX.Failure)
    {
        self.bufferLimit = bufferLimit
        self.maximumClients = maximumClients
        self.dropLimit = dropLimit
        let fd = socket(
            AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else {
            throw POSIX.Failure(operation: "cannot create socket for", path: "tcp://\(host):\(port)", code: errno)
        }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        guard inet_pton(AF_INET, host == "localhost" ? "127.0.0.1" : host, &address.sin_addr) == 1 else {
            close(fd)
            throw POSIX.Failure(operation: "not an IPv4 address:", path: host, code: EINVAL)
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            let code = errno
            close(fd)
            throw POSIX.Failure(operation: "cannot listen on", path: "tcp://\(host):\(port)", code: code)
        }
        // Port 0 asks for any free port: read back which.
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        self.port = Int(UInt16(bigEndian: actual.sin_port))
        listener = fd
    }

    deinit {
        for client in clients { close(client.fd) }
        close(listener)
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
    public func service() {
        while true {
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { break }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            if clients.count >= maximumClients {
                close(fd)
                continue
            }
            var yes: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
            // Keep the kernel's share small: what waits for a slow client waits in our bounded, counted queue.
            var sendBuffer = Int32(min(bufferLimit, Int(Int32.max)))
            setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sendBuffer, socklen_t(MemoryLayout<Int32>.size))
            clients.append(Client(fd: fd))
            statistics.accepted += 1
        }
        var scratch = [UInt8](repeating: 0, count: 4096)
        var index = 0
        while index < clients.count {
            var alive = true
            // Read and ignore: an output port takes no input. A read of 0 is a closed connection.
            while true {
                let got = scratch.withUnsafeMutableBytes { recv(clients[index].fd, $0.baseAddress, $0.count, 0) }
                if got > 0 { continue }
                if got == 0 || (got < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) { alive = false }
                break
            }
            if alive && clients[index].queue.count > clients[index].sent {
                let client = clients[index]
                let written = client.queue.withUnsafeBytes {
                    Glibc.send(
                        client.fd, $0.baseAddress! + client.sent, client.queue.count - client.sent, Int32(MSG_NOSIGNAL))
                }
                if written > 0 {
                    clients[index].sent += written
                    statistics.bytesSent += written
                    if clients[index].sent == clients[index].queue.count {
                        clients[index].queue.removeAll(keepingCapacity: true)
                        clients[index].sent = 0
                    } else if clients[index].sent > bufferLimit / 2 {
                        clients[index].queue.removeFirst(clients[index].sent)
                        clients[index].sent = 0
                    }
                } else if written < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR {
                    alive = false
                }
            }
            if clients[index].droppedInARow > dropLimit { alive = false }
            if alive {
                index += 1
            } else {
                close(clients[index].fd)
                clients.remove(at: index)
                statistics.disconnected += 1
            }
        }
    }
}
