#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Thin wrappers over the C library: the gateway avoids Foundation to stay small on a Pi Zero 2 W.
public enum POSIX {
    public struct Failure: Error, CustomStringConvertible {
        public let operation: String
        public let path: String
        public let code: Int32

        public var description: String { "\(operation) \(path): \(String(cString: strerror(code)))" }
    }

    /// Reads a whole file; `-` is standard input.
    public static func readFile(_ path: String) throws(Failure) -> [UInt8] {
        let fd = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(operation: "cannot open", path: path, code: errno) }
        defer { if fd != 0 { close(fd) } }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let got = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else { throw Failure(operation: "cannot read", path: path, code: errno) }
            if got == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<got])
        }
    }

    /// Writes all bytes to a descriptor, retrying interrupted and partial writes.
    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < bytes.count {
            let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }

    public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { writeAll(fd, $0) }
    }

    public static func writeAll(_ fd: Int32, _ text: String) {
        var text = text
        text.withUTF8 { writeAll(fd, UnsafeRawBufferPointer($0)) }
    }

    /// UNIX seconds from the system clock.
    public static func unixTime() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Writes a whole file (created or truncated).
    public static func writeFile(_ path: String, _ text: String) throws(Failure) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Failure(operation: "cannot create", path: path, code: errno) }
        writeAll(fd, text)
        close(fd)
    }

    /// Seconds on the monotonic clock.
    public static func monotonic() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Sleeps until the monotonic clock reads `deadline` seconds (returns at once when it is past).
    public static func sleep(until deadline: Double) {
        let whole = deadline.rounded(.down)
        var target = timespec(tv_sec: Int(whole), tv_nsec: Int((deadline - whole) * 1e9))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, nil) == EINTR {}
    }

    public static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }
}
