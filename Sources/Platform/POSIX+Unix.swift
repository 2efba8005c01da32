import CPosix

/// Unix-domain datagrams through the funnel: what systemd's notification protocol is carried on.
extension POSIX {
    /// A Unix socket address; a leading `@` names an abstract socket (a leading NUL on the wire).
    public struct UnixAddress {
        var storage = sockaddr_un()
        let length: socklen_t

        /// nil when the path does not fit `sun_path`.
        public init?(path: String) {
            var bytes = Array(path.utf8)
            if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }
            guard !bytes.isEmpty, bytes.count < MemoryLayout.size(ofValue: storage.sun_path) else { return nil }
            storage.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &storage.sun_path) { raw in
                for (index, byte) in bytes.enumerated() { raw[index] = byte }
            }
            length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
        }
    }

    /// A Unix datagram socket to send from.
    public static func unixDatagramSocket(naming path: String) throws(Failure) -> Int32 {
        let fd = CPosix.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(operation: "cannot create a socket for", path: path, code: errno) }
        return fd
    }

    /// sendto(2) of one datagram to a Unix address, never blocking.
    public static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, to address: UnixAddress) -> Transfer {
        var address = address
        let length = address.length
        return transfer(endsAtZero: false) {
            withUnsafePointer(to: &address.storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL), $0, length)
                }
            }
        }
    }
}
