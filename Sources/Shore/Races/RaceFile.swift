import Fleet
import Gateway
import Marine
import Platform
import SignalK

/// The race office's files for `telltale fleet`: the races (`--races FILE`, TOML) and the fleet (`--entries FILE`,
/// CSV, ``FleetEntries``).
///
/// ```toml
/// [[race]]
/// name = "Wednesday 3"
/// start = "2026-06-17T18:30:00Z"          # the gun (UTC)
/// time_limit = "2026-06-17T21:00:00Z"     # optional
/// classes = ["IRC 1", "Sonar"]            # optional: only these race
/// starts = { Sonar = "2026-06-17T18:35:00Z" }   # optional: a class's own gun
/// line = [[50.7655, -1.2985], [50.7665, -1.2935]]   # the start line's ends, [latitude, longitude]
/// finish = [[50.7655, -1.2985], [50.7665, -1.2935]] # optional: the start line
/// zone = 100                              # metres: how close past a mark counts as rounding it [100]
/// marks = [
///   { name = "Gurnard", at = [50.7700, -1.3300] },
///   { name = "Hill Head", at = [50.8000, -1.2500], zone = 300 },
/// ]
/// ```
enum RaceFile {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func read(_ path: String) throws(Failure) -> [RaceCourse] {
        let bytes: [UInt8]
        do { bytes = try POSIX.readFile(path, limit: 4 << 20) } catch {
            throw Failure(description: "\(path): \(error)")
        }
        do { return try parse(String(decoding: bytes, as: UTF8.self)) } catch {
            throw Failure(description: "\(path): \(error.description)")
        }
    }

    static func parse(_ text: String) throws(Failure) -> [RaceCourse] {
        let root: TOMLTable
        do { root = try TOMLReader.parse(text) } catch { throw Failure(description: error.description) }
        for key in root.keys where key != "race" {
            throw Failure(description: "line \(root.line(of: key) ?? 0): \(key) is not known (only [[race]])")
        }
        guard let list = root["race"]?.array, !list.isEmpty else {
            throw Failure(description: "no [[race]] in the file")
        }
        var races: [RaceCourse] = []
        for (n, item) in list.enumerated() {
            guard let table = item.table else { throw Failure(description: "race \(n + 1) must be a table") }
            races.append(try race(table, n + 1))
        }
        return races
    }

    static func number(_ value: TOMLValue?) -> Double? {
        if let v = value?.double { return v }
        if let v = value?.int { return Double(v) }
        return nil
    }

    static func race(_ table: TOMLTable, _ n: Int) throws(Failure) -> RaceCourse {
        func fail(_ key: String, _ message: String) -> Failure {
            Failure(description: "line \(table.line(of: key) ?? 0): race \(n) \(key): \(message)")
        }
        let allowed = ["name", "start", "time_limit", "classes", "starts", "line", "finish", "zone", "marks"]
        for key in table.keys where !allowed.contains(key) { throw fail(key, "is not known") }
        func time(_ value: TOMLValue?, _ key: String) throws(Failure) -> Double {
            guard let text = value?.string, let time = SignalKTime.unixTime(text) else {
                throw fail(key, "must be a time in UTC, such as \"2026-06-17T18:30:00Z\"")
            }
            return time
        }
        func point(_ value: TOMLValue?, _ key: String) throws(Failure) -> GeoPoint {
            guard let pair = value?.array, pair.count == 2, let latitude = number(pair[0]),
                let longitude = number(pair[1]), abs(latitude) <= 90, abs(longitude) <= 180
            else { throw fail(key, "must be [latitude, longitude] in degrees") }
            return GeoPoint(latitude: latitude, longitude: longitude)
        }
        func line(_ key: String) throws(Failure) -> (GeoPoint, GeoPoint) {
            guard let ends = table[key]?.array, ends.count == 2 else {
                throw fail(key, "must be its two ends, [[latitude, longitude], [latitude, longitude]]")
            }
            let line = (try point(ends[0], key), try point(ends[1], key))
            let metres = Geodesic.wgs84.inverse(line.0, line.1).distance
            guard metres >= 1, metres <= 20_000 else { throw fail(key, "must be 1 m to 20 km long") }
            return line
        }
        guard let name = table["name"]?.string, !name.isEmpty, name.utf8.count <= 80 else {
            throw fail("name", "a race needs a name (80 bytes at most)")
        }
        let zone = number(table["zone"]) ?? 100
        guard zone >= 5, zone <= 20_000 else { throw fail("zone", "must be 5 to 20,000 metres") }
        var marks: [RaceCourse.Mark] = []
        for item in table["marks"]?.array ?? [] {
            guard let mark = item.table, let markName = mark["name"]?.string else {
                throw fail("marks", "each mark is { name = \"...\", at = [latitude, longitude] }")
            }
            let markZone = number(mark["zone"]) ?? zone
            guard markZone >= 5, markZone <= 20_000 else { throw fail("marks", "\(markName): zone 5 to 20,000 metres") }
            marks.append(RaceCourse.Mark(name: markName, point: try point(mark["at"], "marks"), zone: markZone))
        }
        guard marks.count <= 100 else { throw fail("marks", "100 marks at most") }
        let startLine = try line("line")
        var course = RaceCourse(
            name: name, start: try time(table["start"], "start"), line: startLine, marks: marks,
            finish: table["finish"] == nil ? nil : try line("finish"))
        guard !marks.isEmpty || table["finish"] != nil else {
            throw fail("marks", "a race needs a mark, or a finish line apart from the start line")
        }
        if table["time_limit"] != nil {
            course.timeLimit = try time(table["time_limit"], "time_limit")
            guard course.timeLimit! > course.start else { throw fail("time_limit", "must be after the start") }
        }
        if let starts = table["starts"] {
            guard let starts = starts.table else { throw fail("starts", "must be { class = \"time\", ... }") }
            for group in starts.keys { course.starts[group] = try time(starts[group], "starts") }
        }
        if let classes = table["classes"] {
            guard let list = classes.array, list.allSatisfy({ $0.string != nil }) else {
                throw fail("classes", "must be a list of class names")
            }
            course.classes = list.compactMap { $0.string }
        }
        return course
    }
}
