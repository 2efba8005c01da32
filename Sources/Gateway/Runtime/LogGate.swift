import Platform

/// A program's log behind its ``LogLimiter`` (the gateway's runtime, the shore's loop): each event let through as it
/// comes, or held back; what was held back and never carried by a later message said when its interval is over
/// (``sayHeldBack(all:)``).
public final class LogGate {
    private var limiter = LogLimiter()
    private let sink: (LogEvent) -> Void

    public init(sink: @escaping (LogEvent) -> Void) {
        self.sink = sink
    }

    public func admit(_ event: LogEvent) {
        if let admitted = limiter.admit(event, at: POSIX.monotonic()) { sink(admitted) }
    }

    /// Once a second (the runtime's housekeeping) or more often; `all` on stopping, the 30 s over or not.
    public func sayHeldBack(all: Bool = false) {
        for event in limiter.due(at: POSIX.monotonic(), all: all) { sink(event) }
    }
}
