import Marine
import SignalK

/// The race office's views of a race: its course and standings as JSON for the panel, and the results as CSV.
public enum RaceResults {
    /// The course and every boat's standing at `time` (metres, seconds, UNIX seconds).
    public static func json(
        _ course: RaceCourse, index: Int, standings: [RaceStanding], entries: [String: FleetEntry], at time: Double,
        read: (boats: Int, of: Int)? = nil
    ) -> String {
        var out = JSONWriter()
        func optional(_ key: String, _ value: Double?, _ decimals: Int) {
            if let value { SignalKValue.number(key, value, decimals, &out) } else { out.null(key) }
        }
        out.beginObject()
        out.value("race", index)
        out.value("name", course.name)
        out.value("time", time)
        // How many of the race's boats the web side has read from the store so far (a race is read a few boats a
        // turn): the standings are the race's when they are equal.
        out.value("read", read?.boats ?? standings.count)
        out.value("entered", read?.of ?? standings.count)
        out.value("complete", read.map { $0.boats == $0.of } ?? true)
        out.value("start", course.start)
        if let limit = course.timeLimit { out.value("timeLimit", limit) } else { out.null("timeLimit") }
        out.beginObject("starts")
        for group in course.starts.keys.sorted() { out.value(group, course.starts[group]!) }
        out.endObject()
        SignalKValue.number("length", course.length, 1, &out)
        func point(_ p: GeoPoint) {
            out.beginArray()
            SignalKValue.number(nil, p.latitude, 7, &out)
            SignalKValue.number(nil, p.longitude, 7, &out)
            out.endArray()
        }
        out.beginArray("line")
        point(course.line.0)
        point(course.line.1)
        out.endArray()
        out.beginArray("finish")
        point(course.finish.0)
        point(course.finish.1)
        out.endArray()
        out.beginArray("marks")
        for mark in course.marks {
            out.beginObject()
            out.value("name", mark.name)
            SignalKValue.number("latitude", mark.point.latitude, 7, &out)
            SignalKValue.number("longitude", mark.point.longitude, 7, &out)
            SignalKValue.number("zone", mark.zone, 0, &out)
            out.endObject()
        }
        out.endArray()
        out.beginArray("boats")
        for s in standings {
            let entry = entries[s.boat]
            out.beginObject()
            out.value("id", s.boat)
            out.value("name", entry?.name ?? "")
            out.value("sail", entry?.sail ?? "")
            out.value("class", s.group)
            out.value("rating", entry?.rating ?? "")
            out.value("status", s.status.rawValue)
            out.value("stopped", s.stopped)
            optional("started", s.started, 1)
            out.beginArray("rounded")
            for t in s.rounded { SignalKValue.number(nil, t, 1, &out) }
            out.endArray()
            optional("finished", s.finished, 1)
            SignalKValue.number("sailed", s.sailed, 1, &out)
            optional("toGo", s.toGo, 1)
            optional("elapsed", s.elapsed, 1)
            optional("corrected", s.corrected, 1)
            out.value("projected", s.projected)
            out.value("placeElapsed", s.placeElapsed)
            out.value("placeCorrected", s.placeCorrected)
            if let last = s.last {
                out.beginArray("last")
                SignalKValue.number(nil, last.time, 1, &out)
                SignalKValue.number(nil, last.latitude, 7, &out)
                SignalKValue.number(nil, last.longitude, 7, &out)
                out.endArray()
            } else {
                out.null("last")
            }
            out.endObject()
        }
        out.endArray()
        out.endObject()
        return out.text
    }

    /// The results, class by class in order of corrected time: what a notice board or a results program takes.
    /// Times as h:mm:ss, distances in nautical miles; a boat still racing has its place and distance to go but no
    /// times; one that did not start or finish says so (DNS, DNF).
    public static func csv(_ course: RaceCourse, standings: [RaceStanding], entries: [String: FleetEntry]) -> String {
        var out = "Race,Class,Place,Sail,Boat,Name,Rating,Status,Start,Finish,Elapsed,Corrected,Sailed NM,To go NM\r\n"
        for s in standings {
            let entry = entries[s.boat]
            let status: String
            switch s.status {
            case .finished: status = "FIN"
            case .racing: status = s.stopped ? "stopped reporting" : "racing"
            case .didNotFinish: status = "DNF"
            case .notStarted: status = "DNS"
            }
            let finished = s.status == .finished
            let fields = [
                course.name, s.group, String(s.placeCorrected), entry?.sail ?? "", s.boat, entry?.name ?? "",
                entry?.rating ?? "", status, s.started.map(clock) ?? "", s.finished.map(clock) ?? "",
                finished ? s.elapsed.map(duration) ?? "" : "", finished ? s.corrected.map(duration) ?? "" : "",
                FleetExport.fixed(s.sailed / 1852, 2), s.toGo.map { FleetExport.fixed($0 / 1852, 2) } ?? "",
            ]
            out += fields.map(quoted).joined(separator: ",") + "\r\n"
        }
        return out
    }

    /// A time of day in UTC, hh:mm:ss.
    static func clock(_ time: Double) -> String {
        String(SignalKTime.text(unixTime: time.rounded()).dropFirst(11).prefix(8))
    }

    /// Seconds as h:mm:ss.
    public static func duration(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        let m = (total / 60) % 60
        let s = total % 60
        return "\(total / 3600):" + (m < 10 ? "0" : "") + "\(m):" + (s < 10 ? "0" : "") + "\(s)"
    }

    static func quoted(_ field: String) -> String {
        guard field.utf8.contains(where: { $0 == 44 || $0 == 34 || $0 == 10 || $0 == 13 }) else { return field }
        var out = "\""
        for c in field { out += c == "\"" ? "\"\"" : String(c) }
        return out + "\""
    }
}
