import Logging

/// The gateway's log: swift-log to standard error (journald under systemd). Repeats are held back by the
/// runtime's LogLimiter before they get here.
enum GatewayLogger {
    static func make() -> (String) -> Void {
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        let logger = Logger(label: "telltale")
        return { message in logger.notice("\(message)") }
    }
}
