import CPosix
import Platform

/// A UDP output: unicast or broadcast datagrams, one sentence each, IPv4 or IPv6.
final class UDPSender: OutputTransport {
    private let fd: Int32
    private let address: POSIX.SocketAddress
    private(set) var failures = 0

    init(host: String, port: Int) throws(POSIX.Failure) {
        let url = Endpoint.udp(host: host, port: port).description
        guard let address = POSIX.SocketAddress(host: host, port: port) else {
            throw POSIX.Failure(operation: "not a numeric IPv4 or IPv6 address:", path: host, code: EINVAL)
        }
        self.address = address
        fd = try POSIX.socket(.datagram, for: address, naming: url)
        if address.family == AF_INET { POSIX.setOption(fd, SOL_SOCKET, SO_BROADCAST, 1) }
    }

    deinit { POSIX.close(fd) }

    func send(_ bytes: UnsafeRawBufferPointer, computed: Bool, now: Double) {
        if case .failed = POSIX.send(fd, bytes, to: address) { failures += 1 }
    }

    var counts: String { failures > 0 ? ", \(failures) failed sends" : "" }
}
