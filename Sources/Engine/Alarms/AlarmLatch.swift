/// The state of one alarm, advanced on each tick.
struct AlarmLatch: Sendable {
    private(set) var isActive = false
    /// A crew member has acknowledged the active alarm (ALR's acknowledge flag); a new raise clears it.
    private(set) var isAcknowledged = false
    private var pendingSince: Double?
    /// When the state last changed (ALR's time field).
    private(set) var changedAt: Double?
    /// When it was last acknowledged (an ALR goes out at once to show it).
    private(set) var acknowledgedAt: Double?

    /// Advances with whether the raise condition and the clear condition hold now. Returns true when it changed.
    mutating func update(raise: Bool, clear: Bool, hold: Double, at now: Double) -> Bool {
        let wantsChange = isActive ? clear : raise
        guard wantsChange else {
            pendingSince = nil
            return false
        }
        let since = pendingSince ?? now
        pendingSince = since
        guard now - since >= hold else { return false }
        isActive.toggle()
        isAcknowledged = false
        pendingSince = nil
        changedAt = now
        return true
    }

    /// Returns it to normal now, whatever its condition (the crew cleared it): the next update raises it again, after
    /// its hold, if the condition still holds. True when it was active.
    mutating func clear(at now: Double) -> Bool {
        guard isActive else { return false }
        isActive = false
        isAcknowledged = false
        pendingSince = nil
        changedAt = now
        return true
    }

    /// Acknowledges it if active and not yet acknowledged; true when it was.
    mutating func acknowledge(at now: Double) -> Bool {
        guard isActive && !isAcknowledged else { return false }
        isAcknowledged = true
        acknowledgedAt = now
        return true
    }
}
