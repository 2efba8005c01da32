/// One line for the log: a level, a fixed id naming what kind of message it is, the text a sailor reads, and
/// metadata for whatever collects the log (input or output name, URL, counts, errno).
///
/// The desktop build hands these to swift-log (level and metadata kept); the Pi build writes them to standard
/// error with the syslog priority prefix journald reads (`<4>` for a warning). Repeats are held back by
/// ``LogLimiter`` on the id and subject, never by comparing texts.
public struct LogEvent {
    public enum Level: Int, Comparable, Sendable {
        case debug, info, notice, warning, error

        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }

        public var name: String {
            switch self {
            case .debug: "debug"
            case .info: "info"
            case .notice: "notice"
            case .warning: "warning"
            case .error: "error"
            }
        }

        public static func named(_ name: String) -> Level? {
            for level in [Level.debug, .info, .notice, .warning, .error] where level.name == name { return level }
            return nil
        }

        /// The syslog priority journald reads from a `<N>` prefix on a standard-error line.
        public var syslogPriority: Int { 7 - rawValue }
    }

    public var level: Level
    /// What kind of message: `input.lost`, `serial.open-failed`, `summary`. Fixed per call site.
    public var id: String
    public var message: String
    public var metadata: [(key: String, value: String)]
    /// Whether repeats may be held back; the periodic summary and the last words on stopping never are.
    public var throttled: Bool

    public init(
        _ level: Level, _ id: String, _ message: String, _ metadata: [(key: String, value: String)] = [],
        throttled: Bool = true
    ) {
        self.level = level
        self.id = id
        self.message = message
        self.metadata = metadata
        self.throttled = throttled
    }

    /// Whom the message is about (the input, output, device or file it names): two inputs failing are two messages.
    public var subject: String {
        for item in metadata
        where item.key == "input" || item.key == "output" || item.key == "device" || item.key == "path" {
            return item.value
        }
        return ""
    }

    /// The message with what its metadata adds, `key=value` after it: each fact said once (a value the message already
    /// says, an input's or output's name, a URL in the text, is not said again), on one line. How a line is written,
    /// on the Pi and on the desktop alike.
    public var line: String {
        var text = message
        for item in metadata where item.key != "input" && item.key != "output" && !Self.says(message, item.value) {
            text += " " + item.key + "=" + item.value
        }
        return Self.oneLine(text)
    }

    /// `text` with each control character (a newline, a carriage return, an escape) written as `\xHH`: a route's name
    /// or a message from a client can neither start a line of its own (a forged `<0>` priority for journald, a made-up
    /// event) nor drive the terminal that shows the log.
    public static func oneLine(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return text }
        let hex = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = []
        for byte in text.utf8 {
            if byte < 0x20 || byte == 0x7F {
                bytes += [UInt8(ascii: "\\"), UInt8(ascii: "x"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether `text` holds `part` (by bytes: the Pi build's Swift has no string search).
    static func says(_ text: String, _ part: String) -> Bool {
        let haystack = Array(text.utf8)
        let needle = Array(part.utf8)
        guard !needle.isEmpty, needle.count <= haystack.count else { return needle.isEmpty }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }
}

/// Where the gateway's components log. A value, cheap to copy: each component keeps one.
public struct Log {
    private let sink: (LogEvent) -> Void

    public init(_ sink: @escaping (LogEvent) -> Void) {
        self.sink = sink
    }

    /// Drops everything (tests that do not look at the log).
    public static var discard: Log { Log { _ in } }

    public func callAsFunction(_ event: LogEvent) { sink(event) }

    public func debug(_ id: String, _ message: String, _ metadata: [(key: String, value: String)] = []) {
        sink(LogEvent(.debug, id, message, metadata))
    }

    public func info(_ id: String, _ message: String, _ metadata: [(key: String, value: String)] = []) {
        sink(LogEvent(.info, id, message, metadata))
    }

    public func notice(_ id: String, _ message: String, _ metadata: [(key: String, value: String)] = []) {
        sink(LogEvent(.notice, id, message, metadata))
    }

    public func warning(_ id: String, _ message: String, _ metadata: [(key: String, value: String)] = []) {
        sink(LogEvent(.warning, id, message, metadata))
    }

    public func error(_ id: String, _ message: String, _ metadata: [(key: String, value: String)] = []) {
        sink(LogEvent(.error, id, message, metadata))
    }
}
