#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Reads a file or standard input in chunks through the C library (no Foundation on the gateway's path).
struct ByteSource: ~Copyable {
    enum OpenError: Error, CustomStringConvertible {
        case open(path: String, errno: Int32)

        var description: String {
            switch self {
            case .open(let path, let code): "cannot open \(path): \(String(cString: strerror(code)))"
            }
        }
    }

    let descriptor: Int32
    let ownsDescriptor: Bool

    /// Opens `path`, or standard input for `-`.
    init(path: String) throws(OpenError) {
        if path == "-" {
            descriptor = 0
            ownsDescriptor = false
        } else {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw .open(path: path, errno: errno) }
            descriptor = fd
            ownsDescriptor = true
        }
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// Calls `body` with each chunk read until end of file. Interrupted reads are retried.
    func forEachChunk(size: Int = 65536, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: size)
        defer { buffer.deallocate() }
        while true {
            let got = read(descriptor, buffer.baseAddress, size)
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { return }
            body(UnsafeBufferPointer(rebasing: buffer[0..<got]))
        }
    }

    /// Reads everything.
    func readAll() -> [UInt8] {
        var bytes: [UInt8] = []
        forEachChunk { bytes.append(contentsOf: $0) }
        return bytes
    }
}

/// Writes text to standard output or standard error without Foundation.
enum Console {
    static func out(_ text: String) {
        var text = text
        text.withUTF8 { writeAll(1, $0) }
    }

    static func error(_ text: String) {
        var text = text
        text.withUTF8 { writeAll(2, $0) }
    }

    static func writeAll(_ fd: Int32, _ bytes: UnsafeBufferPointer<UInt8>) {
        var offset = 0
        while offset < bytes.count {
            let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}

/// A monotonic clock reading in seconds.
func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// A file opened for writing (created or truncated), written through the C library.
struct OutputFile: ~Copyable {
    struct WriteError: Error, CustomStringConvertible {
        let path: String
        let code: Int32
        var description: String { "cannot write \(path): \(String(cString: strerror(code)))" }
    }

    let path: String
    let descriptor: Int32

    init(path: String) throws(WriteError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw WriteError(path: path, code: errno) }
        self.path = path
        descriptor = fd
    }

    deinit { close(descriptor) }

    func write(_ bytes: [UInt8]) throws(WriteError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes {
                Glibc.write(descriptor, $0.baseAddress! + offset, bytes.count - offset)
            }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw WriteError(path: path, code: errno) }
            offset += written
        }
    }
}
