import Platform

/// The log on standard error without swift-log (the Pi build, and one-shot commands): one line per event, its
/// metadata as `key=value`. Under systemd (journald's `JOURNAL_STREAM` set) each line starts with the syslog
/// priority in angle brackets, which journald reads as the level (`journalctl -p warning` then works); on a
/// terminal the level is written out.
public enum StandardErrorLog {
    public static func make(minimum: LogEvent.Level = .info) -> (LogEvent) -> Void {
        let journal = POSIX.environment("JOURNAL_STREAM") != nil
        return { event in
            guard event.level >= minimum else { return }
            POSIX.writeAll(2, format(event, journal: journal))
        }
    }

    /// One event as the line written.
    public static func format(_ event: LogEvent, journal: Bool) -> String {
        if journal { return "<\(event.level.syslogPriority)>\(event.line)\n" }
        let level = event.level >= .warning ? event.level.name + ": " : ""
        return "telltale: \(level)\(event.line)\n"
    }
}
