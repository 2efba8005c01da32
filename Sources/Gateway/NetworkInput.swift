import NMEA

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A network input: a TCP connection to a server (a multiplexer, a plotter's NMEA port), reconnected with backoff
/// when it fails or closes; or a UDP port listened on. Bytes go through the input's framer.
final class NetworkInput {
    enum Kind {
        case tcpClient(host: String, port: Int)
        case udpListener(port: Int)
    }

    struct Statistics {
        var connects = 0
        var disconnects = 0
        var bytes = 0
    }

    let name: String
    let kind: Kind
    private(set) var framer: SentenceFramer
    private(set) var statistics = Statistics()
    private var fd: Int32 = -1
    private var connecting = false
    private var retryAt = 0.0
    private var backoff = 0.1
    private let log: (String) -> Void

    init(name: String, kind: Kind, framing: FramerConfiguration, log: @escaping (String) -> Void) {
        self.name = name
        self.kind = kind
        framer = SentenceFramer(configuration: framing)
        self.log = log
    }

    deinit { if fd >= 0 { close(fd) } }

    var isConnected: Bool { fd >= 0 && !connecting }

    /// Opens the socket when it is time to (at start, and after a failure, with backoff up to 1 s).
    func maintain(now: Double) {
        guard fd < 0, now >= retryAt else { return }
        switch kind {
        case .tcpClient(let host, let port):
            fd = socket(
                AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { return scheduleRetry(now) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            guard inet_pton(AF_INET, host == "localhost" ? "127.0.0.1" : host, &address.sin_addr) == 1 else {
                log("input \(name): \(host) is not an IPv4 address")
                close(fd)
                fd = -1
                return scheduleRetry(now)
            }
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            if result == 0 {
                connected(now)
            } else if errno == EINPROGRESS {
                connecting = true
            } else {
                close(fd)
                fd = -1
                scheduleRetry(now)
            }
        case .udpListener(let port):
            fd = socket(
                AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { return scheduleRetry(now) }
            var yes: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = INADDR_ANY
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            if bound != 0 {
                log("input \(name): cannot listen on udp port \(port): \(String(cString: strerror(errno)))")
                close(fd)
                fd = -1
                return scheduleRetry(now)
            }
            statistics.connects += 1
        }
    }

    private func connected(_ now: Double) {
        connecting = false
        backoff = 0.1
        statistics.connects += 1
        if case .tcpClient(let host, let port) = kind { log("input \(name): connected to tcp://\(host):\(port)") }
    }

    private func scheduleRetry(_ now: Double) {
        retryAt = now + backoff
        backoff = min(backoff * 2, 1)
    }

    private func lost(_ now: Double, _ reason: String, _ body: (FramerEvent) -> Void) {
        if fd >= 0 { close(fd) }
        fd = -1
        connecting = false
        statistics.disconnects += 1
        // A sentence cut by the disconnect is judged (and rejected, counted) rather than joined to the next connection.
        framer.finish(body)
        log("input \(name): \(reason); reconnecting")
        scheduleRetry(now)
    }

    func pollDescriptors(into fds: inout [pollfd]) {
        guard fd >= 0 else { return }
        fds.append(pollfd(fd: fd, events: Int16(connecting ? POLLOUT : POLLIN), revents: 0))
    }

    /// Reads what has arrived and hands every framed sentence on.
    func service(now: Double, _ body: (FramerEvent) -> Void) {
        guard fd >= 0 else { return }
        if connecting {
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
            if error == 0 {
                var probe = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                guard poll(&probe, 1, 0) > 0 else { return }
                connected(now)
            } else {
                return lost(now, "cannot connect: \(String(cString: strerror(error)))", body)
            }
        }
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let got = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if got > 0 {
                statistics.bytes += got
                buffer.withUnsafeBufferPointer { framer.feed(UnsafeBufferPointer(rebasing: $0[0..<got]), body) }
                if case .udpListener = kind { framer.finish(body) }  // a datagram ends its sentences
                continue
            }
            if got == 0, case .tcpClient = kind { return lost(now, "connection closed", body) }
            if got < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR {
                return lost(now, String(cString: strerror(errno)), body)
            }
            return
        }
    }
}
