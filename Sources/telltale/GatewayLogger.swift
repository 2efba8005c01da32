import Gateway
import Logging
import Platform
import SignalK

/// The gateway's log on the desktop build: each ``Gateway.LogEvent`` to swift-log with its level and metadata (its id
/// as the `id` key), for any handler a program bootstraps; on standard error each event is one line, said once: the
/// time, the level, the message and what its metadata adds (``GatewayLogHandler``), not swift-log's stream format,
/// which prints the metadata and then the message that repeats it. Under systemd (journald's `JOURNAL_STREAM` set) the
/// Pi build's writer is used instead, so journald reads the level from the `<N>` prefix. Repeats are held back by the
/// runtime's LogLimiter first.
enum GatewayLogger {
    static func make(minimum: Gateway.LogEvent.Level) -> (Gateway.LogEvent) -> Void {
        if POSIX.environment("JOURNAL_STREAM") != nil { return StandardErrorLog.make(minimum: minimum) }
        LoggingSystem.bootstrap { label in GatewayLogHandler(label: label) }
        var logger = Logger(label: "telltale")
        logger.logLevel = level(minimum)
        return { event in
            var metadata: Logger.Metadata = ["id": .string(event.id)]
            for item in event.metadata { metadata[item.key] = .string(item.value) }
            logger.log(level: level(event.level), "\(event.message)", metadata: metadata)
        }
    }

    private static func level(_ level: Gateway.LogEvent.Level) -> Logger.Level {
        switch level {
        case .debug: .debug
        case .info: .info
        case .notice: .notice
        case .warning: .warning
        case .error: .error
        }
    }
}

/// One line an event on standard error (its control characters escaped, as ``Gateway/LogEvent/line`` does): `2026-11-26T07:03:22.364Z notice telltale: output plotter: serving on
/// tcp://0.0.0.0:10110`, then only what the metadata adds to the message (never its `id`, nor a value the message
/// already says).
struct GatewayLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: Logging.LogEvent) {
        let text = "\(event.message)"
        var line = SignalKTime.text(unixTime: POSIX.unixTime()) + " \(event.level) \(label): " + text
        let all = metadata.merging(event.metadata ?? [:]) { $1 }
        for key in all.keys.sorted() where key != "id" && key != "input" && key != "output" {
            let value = "\(all[key]!)"
            if !text.contains(value) { line += " \(key)=\(value)" }
        }
        POSIX.writeAll(2, Gateway.LogEvent.oneLine(line) + "\n")
    }
}
