import NMEA

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The boat's black box: every input sentence with an NMEA 4.10 tag block (`s:` the input's name, `c:` the receive
/// time in UNIX milliseconds), in files rotated by size or age, so that `telltale replay` plays them back on their
/// own clock. Files are named `telltale-<UNIX seconds>.nmea` in the recording directory.
public final class Recorder {
    public struct Settings: Hashable, Sendable {
        public var directory: String
        /// Start a new file past this many bytes.
        public var rotateBytes = 50 * 1024 * 1024
        /// Start a new file after this many seconds.
        public var rotateSeconds = 3600.0

        public init(directory: String) {
            self.directory = directory
        }
    }

    public let settings: Settings
    public private(set) var files: [String] = []
    public private(set) var sentences = 0
    private var fd: Int32 = -1
    private var written = 0
    private var openedAt = 0.0
    private var buffer: [UInt8] = []

    public init(settings: Settings) throws(POSIX.Failure) {
        self.settings = settings
        if mkdir(settings.directory, 0o755) != 0 && errno != EEXIST {
            throw POSIX.Failure(operation: "cannot create", path: settings.directory, code: errno)
        }
    }

    deinit {
        flush()
        if fd >= 0 { close(fd) }
    }

    /// Records one sentence received on input `source` at `unixTime` (seconds).
    public func record(_ sentence: Sentence, source: String, unixTime: Double) {
        if fd < 0 || written >= settings.rotateBytes || unixTime - openedAt >= settings.rotateSeconds {
            rotate(at: unixTime)
        }
        guard fd >= 0 else { return }
        let block = TagBlock(unixMilliseconds: Int64((unixTime * 1000).rounded()), source: source)
        let before = buffer.count
        buffer.append(contentsOf: block.encoded())
        sentence.appendWire(to: &buffer)
        written += buffer.count - before
        sentences += 1
        if buffer.count >= 16 * 1024 { flush() }
    }

    /// Writes what is buffered (also done every 16 KiB and on rotation).
    public func flush() {
        guard fd >= 0, !buffer.isEmpty else { return }
        POSIX.writeAll(fd, buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    private func rotate(at unixTime: Double) {
        flush()
        if fd >= 0 { close(fd) }
        var path = settings.directory + "/telltale-\(Int(unixTime)).nmea"
        var suffix = 1
        while access(path, F_OK) == 0 {
            path = settings.directory + "/telltale-\(Int(unixTime))-\(suffix).nmea"
            suffix += 1
        }
        fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if fd >= 0 { files.append(path) }
        written = 0
        openedAt = unixTime
    }
}
