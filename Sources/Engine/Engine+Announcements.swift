/// What the crew hears: the race timer's countdown and the alarms as they are raised.
extension Engine {
    /// The race timer's announcements that came due since the last tick (none on the first tick: nothing is said
    /// late for a moment the engine never saw go by).
    mutating func announceRace(at now: Double) {
        guard let previous = lastTickTime, let left = raceTimer.timeToStart(at: now) else { return }
        let gun = now + left
        for seconds in raceTimer.announcements(after: previous, through: now) {
            announce(Announcement(text: RaceTimer.words(secondsBefore: seconds), due: gun - seconds))
        }
    }

    /// Kept until taken, at most the last 32: a user of the engine that never takes them (a replay) holds no more.
    private mutating func announce(_ announcement: Announcement) {
        if announcements.count >= 32 { announcements.removeFirst() }
        announcements.append(announcement)
    }

    /// The alarms raised at this tick, in the sailor's words or Telltale's ("heel over 25 degrees"), and a lost
    /// sensor back ("wind back").
    mutating func announceAlarms(at now: Double) {
        for announcement in alarmMonitor.announcements(values, at: now) { announce(announcement) }
    }
}

/// Something to be said aloud, and the engine time it was due.
public struct Announcement: Hashable, Sendable {
    public var text: String
    public var due: Double

    public init(text: String, due: Double) {
        self.text = text
        self.due = due
    }
}
