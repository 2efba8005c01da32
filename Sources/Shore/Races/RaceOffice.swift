import Fleet
import Gateway
import Platform
import SignalK

/// The race office on a fleet's web side: the races and the fleet file it was given, and each race followed boat by
/// boat (``RaceFollower``: what a boat has done so far, not its track).
///
/// A race is read from the store once, a few boats a turn (so the web side answers meanwhile, and never holds a whole
/// race's positions at once), and then follows the positions as the web side takes them (``feed``). A position
/// older than a boat's last by more than ``lateAfter`` (a late batch: the boat's link was down) has that boat read
/// again from the store. A race under way is read from the start; a past one when it is first asked for.
final class RaceOffice {
    let races: [RaceCourse]
    let entries: [FleetEntry]
    let entered: [String: FleetEntry]
    /// Boats read from the store a turn.
    static let boatsPerTurn = 25
    /// Seconds a position may be older than a boat's last and still be passed over as one already taken.
    static let lateAfter = 30.0

    struct Race {
        let geometry: RaceGeometry
        var followers: [String: RaceFollower] = [:]
        /// Boats still to read from the store (in order), and whether the list of boats is known.
        var pending: [String] = []
        var listed = false
        var total = 0
        var kept: (time: Double, standings: [RaceStanding])?
        var complete: Bool { listed && pending.isEmpty }
    }

    private var state: [Race]
    /// After the store failed a reading, none before this (UNIX seconds).
    private var pauseUntil = 0.0

    init(races: [RaceCourse], entries: [FleetEntry]) {
        self.races = races
        self.entries = entries
        var entered: [String: FleetEntry] = [:]
        for entry in entries { entered[entry.boat] = entry }
        self.entered = entered
        state = races.map { Race(geometry: RaceGeometry($0)) }
    }

    /// Whether a race takes positions at `time`: from ten minutes before its first gun to an hour after its end.
    private func live(_ index: Int, at time: Double) -> Bool {
        let (first, last) = races[index].span
        return time >= first - 600 && time <= last + 3_600
    }

    /// Positions as the web side takes them (in the order they came).
    func feed(_ positions: [(boat: String, time: Double, latitude: Double, longitude: Double)], at now: Double) {
        guard !positions.isEmpty else { return }
        for index in state.indices where state[index].listed && live(index, at: now) {
            let (first, last) = races[index].span
            for p in positions where p.time >= first - 600 && p.time <= last {
                if var follower = state[index].followers[p.boat] {
                    if let seen = follower.lastTime, p.time < seen - Self.lateAfter {
                        // A late batch: the boat is read again from the store.
                        if !state[index].pending.contains(p.boat) { state[index].pending.append(p.boat) }
                        continue
                    }
                    follower.take(p.time, p.latitude, p.longitude, in: state[index].geometry)
                    state[index].followers[p.boat] = follower
                } else if entries.isEmpty && !state[index].pending.contains(p.boat) {
                    // A boat first heard in the race (no fleet file: every boat heard races).
                    var follower = RaceFollower(boat: p.boat, group: "")
                    follower.take(p.time, p.latitude, p.longitude, in: state[index].geometry)
                    state[index].followers[p.boat] = follower
                    state[index].total += 1
                }
            }
            state[index].kept = nil
        }
    }

    /// Whether a race is being read from the store (the web side then turns without waiting).
    var reading: Bool { state.contains { $0.listed && !$0.pending.isEmpty } && POSIX.unixTime() >= pauseUntil }

    /// One turn's reading from the store: the races under way (and those asked for) a few boats further, one race a
    /// turn.
    func work(store: FleetStore, at time: Double, log: Log) {
        guard time >= pauseUntil else { return }
        for index in state.indices where live(index, at: time) || state[index].listed {
            guard !state[index].complete else { continue }
            do { try read(index, store: store, at: time) } catch {
                pauseUntil = time + 5
                log.warning("fleet.store.read", "fleet: cannot read the store: \(error)", [("device", "fleet")])
            }
            return
        }
    }

    private func read(_ index: Int, store: FleetStore, at time: Double) throws(StoreError) {
        let course = races[index]
        let (first, last) = course.span
        guard time > first - 600 else { return }
        if !state[index].listed {
            let heard = entries.isEmpty ? try store.boatsHeard(from: first - 600, to: min(time, last)) : []
            let boats = RaceStandings.racing(course, entries: entries, heard: heard)
            for (boat, group) in boats { state[index].followers[boat] = RaceFollower(boat: boat, group: group) }
            state[index].pending = boats.map { $0.0 }
            state[index].total = boats.count
            state[index].listed = true
        }
        let chunk = Array(state[index].pending.prefix(Self.boatsPerTurn))
        guard !chunk.isEmpty else { return }
        let tracks = try store.tracks(
            from: first - 600, to: min(time, last), boats: chunk, perBoat: 1_000_000, every: true)
        var read: [String: [(Double, Double, Double)]] = [:]
        for track in tracks { read[track.boat] = track.points }
        for boat in chunk {
            let group = state[index].followers[boat]?.standing.group ?? entered[boat]?.group ?? ""
            var follower = RaceFollower(boat: boat, group: group)
            for (t, latitude, longitude) in read[boat] ?? [] {
                follower.take(t, latitude, longitude, in: state[index].geometry)
            }
            state[index].followers[boat] = follower
        }
        state[index].pending.removeFirst(chunk.count)
        state[index].kept = nil
    }

    /// A race's standings at `time`, and how many of its boats are read so far: a race not yet read is begun (its
    /// first boats read now, the rest over the next turns).
    func standings(_ index: Int, store: FleetStore, at time: Double) throws(StoreError) -> (
        standings: [RaceStanding], read: Int, boats: Int
    ) {
        if !state[index].listed { try read(index, store: store, at: time) }
        let race = state[index]
        let done = race.total - race.pending.count
        if let kept = race.kept, time - kept.time < 1, time >= kept.time {
            return (kept.standings, done, race.total)
        }
        let pending = Set(race.pending)
        var list: [RaceStanding] = []
        list.reserveCapacity(race.followers.count)
        for (boat, follower) in race.followers where !pending.contains(boat) {
            list.append(follower.standing(at: time, in: race.geometry, entry: entered[boat]))
        }
        let placed = RaceStandings.placed(list)
        state[index].kept = (time, placed)
        return (placed, done, race.total)
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
