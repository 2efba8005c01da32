import Platform

/// systemd's notification protocol, spoken directly (one datagram per message to `$NOTIFY_SOCKET`; no library):
/// `READY=1` once the inputs and outputs are set up, `WATCHDOG=1` from the engine loop at half the watchdog period
/// (`$WATCHDOG_USEC`), so that a loop that hangs is restarted, and `STOPPING=1` on the way out.
final class SystemdNotifier {
    private let fd: Int32
    private let address: POSIX.UnixAddress
    /// Seconds between keep-alives, when systemd asked for them.
    let keepAliveInterval: Double?
    private(set) var nextKeepAlive = 0.0
    /// The loop ends to start again on a new configuration: systemd is told RELOADING, not STOPPING.
    var reloading = false

    /// From `$NOTIFY_SOCKET` and `$WATCHDOG_USEC`; nil when not started by systemd with `Type=notify`.
    convenience init?() {
        guard let socketPath = POSIX.environment("NOTIFY_SOCKET"), !socketPath.isEmpty else { return nil }
        self.init(socketPath: socketPath, watchdogUsec: POSIX.environment("WATCHDOG_USEC").flatMap { Double($0) })
    }

    init?(socketPath: String, watchdogUsec: Double?) {
        guard let address = POSIX.UnixAddress(path: socketPath),
            let fd = try? POSIX.unixDatagramSocket(naming: socketPath)
        else { return nil }
        self.address = address
        self.fd = fd
        if let usec = watchdogUsec, usec > 0 {
            keepAliveInterval = usec / 1e6 / 2
        } else {
            keepAliveInterval = nil
        }
    }

    deinit { POSIX.close(fd) }

    func send(_ message: String) {
        var message = message
        message.withUTF8 { text in _ = POSIX.send(fd, UnsafeRawBufferPointer(text), to: address) }
    }

    /// Called from the loop: a keep-alive when one is due.
    func keepAlive(now: Double) {
        guard let keepAliveInterval, now >= nextKeepAlive else { return }
        send("WATCHDOG=1")
        nextKeepAlive = now + keepAliveInterval
    }
}
