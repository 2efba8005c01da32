import CPosix

/// GPIO lines through the kernel's character device (`/dev/gpiochipN`, v2 interface): a button's edges.
extension POSIX {
    /// One edge of a line: when (the kernel's monotonic clock, seconds) and whether it rose.
    public struct Edge: Equatable, Sendable {
        public var time: Double
        public var rising: Bool

        public init(time: Double, rising: Bool) {
            self.time = time
            self.rising = rising
        }
    }

    /// Requests `line` of `chip` as a pulled-up input reporting both edges, debounced by the kernel; the
    /// descriptor to poll and read edges from.
    public static func gpioLine(chip: String, line: Int, debounceMicroseconds: Int = 10_000) throws(Failure) -> Int32 {
        while true {
            let fd = cposix_gpio_line(chip, UInt32(clamping: line), UInt32(clamping: debounceMicroseconds), "telltale")
            if fd >= 0 { return fd }
            let code = errno
            if code != EINTR { throw Failure(operation: "cannot request GPIO line \(line) of", path: chip, code: code) }
        }
    }

    /// The next edge waiting on a line's descriptor; nil when none is; a failure with its errno.
    public static func gpioEdge(_ fd: Int32) -> Result<Edge?, Failure> {
        var nanoseconds: UInt64 = 0
        var rising: Int32 = 0
        while true {
            let got = cposix_gpio_event(fd, &nanoseconds, &rising)
            if got == 1 { return .success(Edge(time: Double(nanoseconds) / 1e9, rising: rising != 0)) }
            if got == 0 { return .success(nil) }
            let code = errno
            if code != EINTR {
                return .failure(Failure(operation: "cannot read GPIO events from", path: "line", code: code))
            }
        }
    }

    /// The bytes of one edge as the kernel writes it (tests play a button down a pipe).
    public static var gpioEdgeSize: Int { Int(cposix_gpio_event_size()) }
}
