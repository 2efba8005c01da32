import CPosix

/// systemd's notification protocol, spoken directly (one datagram per message to `$NOTIFY_SOCKET`; no library):
/// `READY=1` once the inputs and outputs are set up, `WATCHDOG=1` from the engine loop at half the watchdog period
/// (`$WATCHDOG_USEC`), so that a loop that hangs is restarted, and `STOPPING=1` on the way out.
final class SystemdNotifier {
    private let fd: Int32
    private var address = sockaddr_un()
    private var length = socklen_t(0)
    /// Seconds between keep-alives, when systemd asked for them.
    let keepAliveInterval: Double?
    private var nextKeepAlive = 0.0

    /// From `$NOTIFY_SOCKET` and `$WATCHDOG_USEC`; nil when not started by systemd with `Type=notify`.
    convenience init?() {
        guard let socketPath = getenv("NOTIFY_SOCKET").map({ String(cString: $0) }), !socketPath.isEmpty else {
            return nil
        }
        self.init(socketPath: socketPath, watchdogUsec: getenv("WATCHDOG_USEC").flatMap { Double(String(cString: $0)) })
    }

    init?(socketPath: String, watchdogUsec: Double?) {
        var bytes = Array(socketPath.utf8)
        // An abstract socket is written with a leading '@' and addressed with a leading NUL.
        if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            for (index, byte) in bytes.enumerated() { path[index] = byte }
        }
        length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
        if let usec = watchdogUsec, usec > 0 {
            keepAliveInterval = usec / 1e6 / 2
        } else {
            keepAliveInterval = nil
        }
    }

    deinit { close(fd) }

    func send(_ message: String) {
        var message = message
        message.withUTF8 { text in
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, text.baseAddress, text.count, Int32(MSG_NOSIGNAL), $0, length)
                }
            }
        }
    }

    /// Called from the loop: a keep-alive when one is due.
    func keepAlive(now: Double) {
        guard let keepAliveInterval, now >= nextKeepAlive else { return }
        send("WATCHDOG=1")
        nextKeepAlive = now + keepAliveInterval
    }
}
