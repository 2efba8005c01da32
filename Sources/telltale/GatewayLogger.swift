import Gateway
import Logging
import Platform

/// The gateway's log on the desktop build: each ``Gateway.LogEvent`` to swift-log with its level and metadata, its id as
/// the `id` metadata key. Under systemd (journald's `JOURNAL_STREAM` set) the Pi build's writer is used instead,
/// so journald reads the level from the `<N>` prefix. Repeats are held back by the runtime's LogLimiter first.
enum GatewayLogger {
    static func make(minimum: Gateway.LogEvent.Level) -> (Gateway.LogEvent) -> Void {
        if POSIX.environment("JOURNAL_STREAM") != nil { return StandardErrorLog.make(minimum: minimum) }
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
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
