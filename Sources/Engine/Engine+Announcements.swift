import Marine

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

    /// Turn-by-turn guidance on the route, for a helmsman who cannot look at a screen: as the boat comes within each
    /// of ``RouteSettings/announceDistances`` of the waypoint, "East in 2 cables, next course zero four five" (or
    /// "the last mark"), and when the leg changes, "North next, course zero four five, 1.2 miles". A distance already
    /// inside when the leg begins is not said late; a plotter's route (upstream) is spoken as the boat's own.
    mutating func announceGuidance(at now: Double) {
        guard let solution = values.navigation, let route = follower.route, !solution.routeComplete else {
            return
        }
        let leg = solution.legIndex
        let name = AlarmMonitor.capitalised(solution.destination.id)
        let distance = solution.distanceToWaypoint
        let thresholds = follower.settings.announceDistances.sorted(by: >)
        if let guidance, guidance.leg == leg, guidance.destination == solution.destination.id {
            var said = guidance.said
            for (index, threshold) in thresholds.enumerated() where said & (1 << index) == 0 {
                guard distance <= threshold, (guidance.distance ?? 0) > threshold else { continue }
                said |= 1 << index
                // Only the nearest threshold crossed at once is said.
                if thresholds.indices.contains(index + 1), distance <= thresholds[index + 1] { continue }
                announce(
                    Announcement(
                        text: "\(name) in \(AlarmMonitor.distance(distance)), " + Self.nextCourse(route, after: leg),
                        due: now))
            }
            self.guidance = (leg, solution.destination.id, distance, said)
            return
        }
        // A new leg: what is already inside is taken as said; after an arrival, the new leg is named.
        var said = 0
        for (index, threshold) in thresholds.enumerated() where distance <= threshold { said |= 1 << index }
        if let guidance, guidance.leg + 1 == leg, !thresholds.isEmpty {
            let course = Self.threeDigits(
                Rhumb.wgs84.inverse(solution.origin.position, solution.destination.position).course)
            announce(
                Announcement(
                    text: "\(name) next, course \(course), \(AlarmMonitor.distance(distance))", due: now))
        }
        guidance = (leg, solution.destination.id, distance, said)
    }

    /// "next course zero four five", or "the last mark" for the route's end.
    static func nextCourse(_ route: Route, after leg: Int) -> String {
        guard leg + 2 < route.waypoints.count else { return "the last mark" }
        let course = Rhumb.wgs84.inverse(route.waypoints[leg + 1].position, route.waypoints[leg + 2].position).course
        return "next course " + threeDigits(course)
    }

    /// A course as a helmsman says it: 45 degrees is "zero four five".
    static func threeDigits(_ degrees: Double) -> String {
        let words = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
        let value = Int(Angle.direction(degrees).rounded()) % 360
        return [value / 100, value / 10 % 10, value % 10].map { words[$0] }.joined(separator: " ")
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
