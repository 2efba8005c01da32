import CPosix

/// Names into addresses (getaddrinfo(3), which reads /etc/hosts and asks the resolver): for the shore's helpers that
/// reach a server by its name (the mail server). It blocks while the resolver answers: never in the boat's loop.
extension POSIX {
    /// The stream addresses of `host` (a name or a numeric address), in the resolver's order; a failure names the
    /// host (the resolver's own words, as gai_strerror says them, in `operation`).
    public static func resolve(host: String, port: Int) throws(Failure) -> [SocketAddress] {
        if let numeric = SocketAddress(host: host, port: port) { return [numeric] }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            let words = String(cString: gai_strerror(status))
            throw Failure(operation: "cannot resolve (\(words))", path: host, code: status == EAI_SYSTEM ? errno : 0)
        }
        defer { freeaddrinfo(first) }
        var out: [SocketAddress] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let item = entry, out.count < 16 {
            if let address = item.pointee.ai_addr, item.pointee.ai_addrlen <= MemoryLayout<sockaddr_storage>.size,
                item.pointee.ai_family == AF_INET || item.pointee.ai_family == AF_INET6
            {
                var socketAddress = SocketAddress()
                withUnsafeMutableBytes(of: &socketAddress.storage) { raw in
                    raw.copyMemory(from: UnsafeRawBufferPointer(start: address, count: Int(item.pointee.ai_addrlen)))
                }
                socketAddress.length = item.pointee.ai_addrlen
                out.append(socketAddress)
            }
            entry = item.pointee.ai_next
        }
        guard !out.isEmpty else { throw Failure(operation: "no address for", path: host, code: 0) }
        return out
    }
}
