import Fleet
import SignalK

/// The race office on a fleet's web side: the races and the fleet file it was given, and each race's standings read
/// from the store's tracks, kept for a while (10 s for a race under way, a minute for one over) so that many panels
/// cost one reading.
final class RaceOffice {
    let races: [RaceCourse]
    let entries: [FleetEntry]
    let entered: [String: FleetEntry]
    private var kept: [Int: (time: Double, standings: [RaceStanding])] = [:]
    /// Points a boat read from the store for a race: every position at the uplink's 10 s for eight hours.
    static let pointsPerBoat = 3_000

    init(races: [RaceCourse], entries: [FleetEntry]) {
        self.races = races
        self.entries = entries
        var entered: [String: FleetEntry] = [:]
        for entry in entries { entered[entry.boat] = entry }
        self.entered = entered
    }

    func standings(_ index: Int, store: FleetStore, at time: Double) throws(StoreError) -> [RaceStanding] {
        let course = races[index]
        let (first, last) = course.span
        let over = time > last
        if let kept = kept[index], time - kept.time < (over ? 60 : 10), time >= kept.time {
            return kept.standings
        }
        var tracks: [String: [(Double, Double, Double)]] = [:]
        if time > first - 600 {
            let to = min(time, last)
            if entries.isEmpty || entries.count > 50 {
                for track in try store.tracks(from: first - 600, to: to, perBoat: Self.pointsPerBoat) {
                    tracks[track.boat] = track.points
                }
            } else {
                for entry in entries where course.classes.isEmpty || course.classes.contains(entry.group) {
                    if let track = try store.tracks(
                        from: first - 600, to: to, boat: entry.boat, perBoat: Self.pointsPerBoat
                    ).first {
                        tracks[entry.boat] = track.points
                    }
                }
            }
        }
        let standings = RaceStandings.compute(course, entries: entries, tracks: tracks, at: time)
        kept[index] = (time, standings)
        return standings
    }

    /// The races, for the panel's choice: `{"races": [{"race", "name", "start", "timeLimit", "classes"}]}`.
    func list() -> String {
        var out = JSONWriter()
        out.beginObject()
        out.beginArray("races")
        for (index, course) in races.enumerated() {
            out.beginObject()
            out.value("race", index)
            out.value("name", course.name)
            out.value("start", course.start)
            if let limit = course.timeLimit { out.value("timeLimit", limit) } else { out.null("timeLimit") }
            out.beginArray("classes")
            for group in course.classes { out.value(nil, group) }
            out.endArray()
            out.endObject()
        }
        out.endArray()
        out.endObject()
        return out.text
    }
}
