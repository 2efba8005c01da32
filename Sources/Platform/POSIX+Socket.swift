import CPosix

/// Sockets through the funnel: IPv4 and IPv6 addresses, non-blocking descriptors, typed failures.
extension POSIX {
    /// A socket address, IPv4 or IPv6, from a numeric host (`127.0.0.1`, `::1`, `0.0.0.0`, `::`) or `localhost`.
    public struct SocketAddress {
        var storage = sockaddr_storage()
        public internal(set) var length: socklen_t = 0

        init() {}

        /// nil when `host` is not a numeric IPv4 or IPv6 address (nor `localhost`, nor empty for any address).
        public init?(host: String, port: Int) {
            let text = host == "localhost" ? "127.0.0.1" : host.isEmpty ? "0.0.0.0" : host
            let networkPort = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
            var v4 = sockaddr_in()
            var v6 = sockaddr_in6()
            if inet_pton(AF_INET, text, &v4.sin_addr) == 1 {
                v4.sin_family = sa_family_t(AF_INET)
                v4.sin_port = networkPort
                withUnsafeMutableBytes(of: &storage) { raw in
                    withUnsafeBytes(of: v4) { raw.copyMemory(from: $0) }
                }
                length = socklen_t(MemoryLayout<sockaddr_in>.size)
            } else if inet_pton(AF_INET6, text, &v6.sin6_addr) == 1 {
                v6.sin6_family = sa_family_t(AF_INET6)
                v6.sin6_port = networkPort
                withUnsafeMutableBytes(of: &storage) { raw in
                    withUnsafeBytes(of: v6) { raw.copyMemory(from: $0) }
                }
                length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            } else {
                return nil
            }
        }

        public var family: Int32 { Int32(storage.ss_family) }

        func withPointer<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
            withUnsafeBytes(of: storage) { raw in
                body(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), length)
            }
        }
    }

    public enum SocketKind {
        case stream
        case datagram

        var type: Int32 {
            switch self {
            case .stream: Int32(SOCK_STREAM.rawValue)
            case .datagram: Int32(SOCK_DGRAM.rawValue)
            }
        }
    }

    /// A non-blocking socket for `address`'s family; an IPv6 socket also takes IPv4 (dual stack).
    public static func socket(
        _ kind: SocketKind, for address: SocketAddress, naming url: String
    ) throws(Failure) -> Int32 {
        let fd = CPosix.socket(
            address.family, kind.type | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(operation: "cannot create a socket for", path: url, code: errno) }
        if address.family == AF_INET6 { setOption(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, 0) }
        return fd
    }

    /// setsockopt(2) with an integer value.
    @discardableResult
    public static func setOption(_ fd: Int32, _ level: Int32, _ name: Int32, _ value: Int32) -> Bool {
        var value = value
        return setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size)) == 0
    }

    /// Connections the kernel holds for a listener before its next accept. 16 made a burst of phones (or the 200
    /// clients that connect and vanish of the Signal K checks) wait out a dropped SYN: a second each, for clients
    /// that would have been accepted within the loop's next turn.
    public static let listenBacklog: Int32 = 128

    /// bind(2), then listen(2) for stream sockets.
    public static func bind(_ fd: Int32, to address: SocketAddress, listen: Bool, naming url: String) throws(Failure) {
        setOption(fd, SOL_SOCKET, SO_REUSEADDR, 1)
        let bound = address.withPointer { CPosix.bind(fd, $0, $1) }
        guard bound == 0 else { throw Failure(operation: "cannot bind", path: url, code: errno) }
        if listen, CPosix.listen(fd, listenBacklog) != 0 {
            throw Failure(operation: "cannot listen on", path: url, code: errno)
        }
    }

    /// Starts connect(2) on a non-blocking socket: true when connected at once, false when under way.
    public static func connect(_ fd: Int32, to address: SocketAddress, naming url: String) throws(Failure) -> Bool {
        while true {
            if address.withPointer({ CPosix.connect(fd, $0, $1) }) == 0 { return true }
            let code = errno
            if code == EINTR { continue }
            if code == EINPROGRESS { return false }
            throw Failure(operation: "cannot connect to", path: url, code: code)
        }
    }

    /// The pending error of a socket (SO_ERROR), 0 when none.
    public static func socketError(_ fd: Int32) -> Int32 {
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
        return error
    }

    /// The local port a socket is bound to (for port 0).
    public static func localPort(_ fd: Int32) -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let got = withUnsafeMutableBytes(of: &storage) { raw in
            getsockname(fd, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), &length)
        }
        guard got == 0 else { return 0 }
        // sin_port and sin6_port sit at the same offset, right after the family.
        return withUnsafeBytes(of: storage) { raw in
            Int(UInt16(bigEndian: raw.loadUnaligned(fromByteOffset: 2, as: UInt16.self)))
        }
    }

    /// The address bytes of a socket address (4 for IPv4, 16 for IPv6; an IPv4-mapped IPv6 address as IPv4).
    static func addressBytes(_ raw: UnsafeRawBufferPointer, family given: Int32? = nil) -> [UInt8] {
        let family = given ?? Int32(raw.load(as: sa_family_t.self))
        if family == AF_INET {
            let offset = MemoryLayout<sockaddr_in>.offset(of: \sockaddr_in.sin_addr)!
            return Array(raw[offset..<(offset + 4)])
        }
        if family == AF_INET6 {
            let offset = MemoryLayout<sockaddr_in6>.offset(of: \sockaddr_in6.sin6_addr)!
            let bytes = Array(raw[offset..<(offset + 16)])
            if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
                return Array(bytes[12...])
            }
            return bytes
        }
        return []
    }

    /// The address of a connected socket's peer (empty when unknown).
    public static func peerAddress(_ fd: Int32) -> [UInt8] {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let got = withUnsafeMutableBytes(of: &storage) { raw in
            getpeername(fd, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), &length)
        }
        guard got == 0 else { return [] }
        return withUnsafeBytes(of: storage) { addressBytes($0) }
    }

    /// The address a connected socket has on this machine (empty when unknown).
    public static func localAddress(_ fd: Int32) -> [UInt8] {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let got = withUnsafeMutableBytes(of: &storage) { raw in
            getsockname(fd, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), &length)
        }
        guard got == 0 else { return [] }
        return withUnsafeBytes(of: storage) { addressBytes($0) }
    }

    /// The networks this machine is on: address bytes and prefix length, from the kernel's own tables
    /// (`/proc/self/net/route`: the IPv4 routes without a gateway; `/proc/self/net/if_inet6`: the IPv6 addresses).
    /// Read as files rather than with getifaddrs(3), whose netlink socket the packaged unit's
    /// `RestrictAddressFamilies` refuses; through `self`, as the unit's `ProcSubset=pid` hides `/proc/net`.
    public static func localNetworks() -> [(address: [UInt8], prefix: Int)] {
        func text(_ path: String) -> String { (try? readFile(path)).map { String(decoding: $0, as: UTF8.self) } ?? "" }
        return networks(routes: text("/proc/self/net/route"), inet6: text("/proc/self/net/if_inet6"))
    }

    /// The networks in the texts of the kernel's `net/route` and `net/if_inet6`.
    public static func networks(routes: String, inet6: String) -> [(address: [UInt8], prefix: Int)] {
        var result: [(address: [UInt8], prefix: Int)] = []
        func lines(_ text: String) -> [[Substring]] {
            text.split(separator: "\n").map { $0.split(whereSeparator: { $0 == " " || $0 == "\t" }) }
        }
        for fields in lines(routes).dropFirst() where fields.count >= 8 {
            // Destination and mask as the kernel holds them: the address's bytes in memory order, printed as a
            // host-order number (little-endian on every Pi).
            guard let destination = UInt32(fields[1], radix: 16), let gateway = UInt32(fields[2], radix: 16),
                let mask = UInt32(fields[7], radix: 16), gateway == 0, destination != 0
            else { continue }
            let bytes = (0..<4).map { UInt8(truncatingIfNeeded: destination.littleEndian >> ($0 * 8)) }
            result.append((bytes, mask.nonzeroBitCount))
        }
        for fields in lines(inet6) where fields.count >= 6 && fields[0].count == 32 {
            let hex = Array(fields[0].utf8)
            var bytes: [UInt8] = []
            for index in stride(from: 0, to: 32, by: 2) {
                guard let byte = UInt8(String(decoding: hex[index..<(index + 2)], as: UTF8.self), radix: 16) else {
                    break
                }
                bytes.append(byte)
            }
            guard bytes.count == 16, let prefix = Int(fields[2], radix: 16), fields[5] != "lo" else { continue }
            result.append((bytes, prefix))
        }
        return result
    }

    /// The interfaces with an IPv4 network of their own (named in `/proc/self/net/route`, loopback left out), by
    /// index: where a multicast question goes (a boat's access point has no default route to carry it).
    public static func multicastInterfaces() -> [UInt32] {
        let routes = (try? readFile("/proc/self/net/route")).map { String(decoding: $0, as: UTF8.self) } ?? ""
        var names: [String] = []
        for line in routes.split(separator: "\n").dropFirst() {
            guard let name = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init),
                name != "lo", !names.contains(name)
            else { continue }
            names.append(name)
        }
        return names.compactMap { name in
            let index = if_nametoindex(name)
            return index == 0 ? nil : index
        }
    }

    /// sendto(2) of one multicast datagram out of the interface `index` (TTL 255), never blocking.
    public static func send(
        _ fd: Int32, _ bytes: UnsafeRawBufferPointer, to address: SocketAddress, interface index: UInt32
    ) -> Transfer {
        guard cposix_multicast_out(fd, index) == 0 else { return .failed(code: errno) }
        return send(fd, bytes, to: address)
    }

    /// accept(2): a non-blocking, close-on-exec descriptor, or nil when none waits.
    public static func accept(_ listener: Int32) -> Int32? {
        while true {
            let fd = CPosix.accept(listener, nil, nil)
            if fd >= 0 {
                _ = cposix_fcntl(fd, F_SETFL, cposix_fcntl(fd, F_GETFL, 0) | O_NONBLOCK)
                _ = cposix_fcntl(fd, F_SETFD, FD_CLOEXEC)
                return fd
            }
            if errno != EINTR { return nil }
        }
    }

    /// recv(2) into `buffer`, EINTR retried.
    public static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Transfer {
        transfer(endsAtZero: true) { interrupted() ? -1 : recv(fd, buffer.baseAddress, buffer.count, 0) }
    }

    /// send(2) without SIGPIPE, EINTR retried.
    public static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Transfer {
        transfer(endsAtZero: false) { CPosix.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)) }
    }

    /// sendto(2) of one datagram, never blocking.
    public static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, to address: SocketAddress) -> Transfer {
        transfer(endsAtZero: false) {
            address.withPointer {
                sendto(fd, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL), $0, $1)
            }
        }
    }
}
