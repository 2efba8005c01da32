import Platform

/// The clocks of `telltale run`: the loop's monotonic zero (the engine's time zero) and UNIX seconds beside it, and
/// the clock the boat's records are kept on (the history, the uplink's samples). That is the fixes' clock (GNSS, or a
/// replay's) while the router has one; else the system clock, but only once systemd-timesyncd says it is
/// synchronized (looked at once a minute) and two minutes have passed since the start; else none. So a replay's
/// voyage and this machine's day never share a timeline.
struct RecordClock {
    /// The monotonic time the loop started, and UNIX seconds minus the monotonic clock then.
    private(set) var startTime = 0.0
    private(set) var unixOffset = 0.0
    /// Whether the router's clock was the fixes' at the end of the last turn (read inside the tick, where the router
    /// itself may not be).
    var fromFixes = false
    /// Whether the uplink was let go on an unsynchronized system clock (a boat with no GPS), said once.
    var uplinkOnSystemClock = false
    private var checkedAt = -Double.infinity
    private var synchronized = false

    /// The loop starts: its monotonic time and UNIX seconds now.
    mutating func start(monotonic: Double, unixTime: Double) {
        startTime = monotonic
        unixOffset = unixTime - monotonic
    }

    /// Engine seconds at a monotonic time.
    func engineTime(_ now: Double) -> Double { now - startTime }

    /// The system clock for the records when no fix gives the time (see the type's notes); nil otherwise.
    mutating func system(at now: Double) -> Double? {
        if now - checkedAt > 60 {
            checkedAt = now
            synchronized = POSIX.exists("/run/systemd/timesync/synchronized")
        }
        return synchronized && now - startTime > 120 ? POSIX.unixTime() : nil
    }
}
