import Fleet
import Gateway
import SignalK

/// The fleet's store as the panel and a race office read it, under `/telltale/v1/fleet/`:
///
/// - `days`: the UTC days with positions kept, newest first (`{"days": ["2026-06-21", ...]}`), for replay's choice;
/// - `span[?day=YYYY-MM-DD]`: the first and last time a position was kept that day, or at all (`{"first", "last"}`,
///   UNIX seconds), for replay's slider;
/// - `tracks?from=&to=[&boat=][&points=]`: every boat's positions in that span, `[[time, latitude, longitude], ...]`,
///   at most `points` a boat (300; up to 5,000) evenly through it;
/// - `boats/<id>/track.gpx?from=&to=`: one boat's track as GPX 1.1, every point kept;
/// - `boats/<id>/batches`: how many history batches of the boat the store keeps, the lowest and highest number;
/// - `races`: the races of the race office's file (`--races`);
/// - `races/<n>`: race n's course and standings (``RaceResults/json``), `races/<n>/results.csv` its results.
enum FleetQueries {
    static func answer(
        _ asked: SignalKServer.FleetRequest, store: FleetStore, office: RaceOffice? = nil, at time: Double, log: Log
    ) -> SignalKServer.ShellReply {
        let parts = asked.path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        // Behind the shore's door: a boat the asker does not see is refused; the races are the committee's.
        if let boats = asked.boats {
            let boat = parts.count == 3 && parts[0] == "boats" ? parts[1] : asked.parameters["boat"]
            if let boat, !boats.contains(boat) { return .message(status: 403, "not a boat of yours") }
        }
        if parts[0] == "races", let role = asked.role, role != "committee" && role != "admin" {
            return .message(status: 403, "the races are the committee's")
        }
        do {
            switch parts.count {
            case 1 where parts[0] == "days": return try days(store, boats: asked.boats)
            case 1 where parts[0] == "span": return try span(asked, store)
            case 1 where parts[0] == "tracks": return try tracks(asked, store, at: time)
            case 1 where parts[0] == "races": return .json(status: 200, office?.list() ?? #"{"races":[]}"#)
            case 2 where parts[0] == "races", 3 where parts[0] == "races" && parts[2] == "results.csv":
                return try race(parts, office, store, at: time)
            case 3 where parts[0] == "boats" && FleetModel.isValidBoat(parts[1]):
                return try boat(parts[1], parts[2], asked, store, at: time)
            default:
                return .message(status: 404, "not in the fleet's store")
            }
        } catch {
            log.warning("fleet.store.read", "fleet: cannot read the store: \(error)", [("device", "fleet")])
            return .message(status: 503, "the store cannot be read now")
        }
    }

    /// A finite number a query parameter gives.
    static func number(_ asked: SignalKServer.FleetRequest, _ name: String) -> Double? {
        asked.parameters[name].flatMap { Double($0) }.flatMap { $0.isFinite ? $0 : nil }
    }

    /// The times a store can hold (UNIX seconds, 1970 to 3000): a span asked beyond them is refused (1e21 s, past a
    /// minute's 64-bit number, stopped the shore until 2026-12-03).
    static let times = 0.0...32_503_680_000

    /// `days`.
    static func days(_ store: FleetStore, boats: Set<String>?) throws(StoreError) -> SignalKServer.ShellReply {
        var out = JSONWriter()
        out.beginObject()
        out.beginArray("days")
        for day in try store.daysKept(boats: boats) { out.value(nil, FleetStore.date(day)) }
        out.endArray()
        out.endObject()
        return .json(status: 200, out.text)
    }

    /// `span[?day=]`.
    static func span(_ asked: SignalKServer.FleetRequest, _ store: FleetStore) throws(StoreError)
        -> SignalKServer.ShellReply
    {
        var day: Int?
        if let text = asked.parameters["day"] {
            guard let time = SignalKTime.unixTime(text + "T00:00:00Z") else {
                return .message(status: 400, "day: YYYY-MM-DD")
            }
            day = FleetStore.day(time)
        }
        var out = JSONWriter()
        out.beginObject()
        if let (first, last) = try store.span(day: day, boats: asked.boats) {
            out.value("first", first)
            out.value("last", last)
        } else {
            out.null("first")
            out.null("last")
        }
        out.endObject()
        return .json(status: 200, out.text)
    }

    /// `tracks?from=&to=[&boat=][&points=]`.
    static func tracks(_ asked: SignalKServer.FleetRequest, _ store: FleetStore, at time: Double) throws(StoreError)
        -> SignalKServer.ShellReply
    {
        let to = number(asked, "to") ?? time
        let from = number(asked, "from") ?? (to - 3_600)
        let boat = asked.parameters["boat"]
        if let boat, !FleetModel.isValidBoat(boat) { return .message(status: 400, "not a boat's id") }
        guard from <= to, to - from <= 31 * 86_400, times.contains(from), times.contains(to) else {
            return .message(status: 400, "from and to: UNIX seconds, from before to, a month at most")
        }
        // Bounded before it is made whole: `Int(1e300)` traps (it ended the shore until 2026-12-01).
        let points = Int(max(2, min(5_000, number(asked, "points") ?? 300)))
        let tracks = try store.tracks(from: from, to: to, boat: boat, perBoat: points)
        var out = JSONWriter()
        out.beginObject()
        out.value("from", from)
        out.value("to", to)
        out.beginArray("boats")
        for track in tracks where asked.boats?.contains(track.boat) ?? true {
            out.beginObject()
            out.value("id", track.boat)
            out.beginArray("track")
            for (t, latitude, longitude) in track.points {
                out.beginArray()
                SignalKValue.number(nil, t, 1, &out)
                SignalKValue.number(nil, latitude, 6, &out)
                SignalKValue.number(nil, longitude, 6, &out)
                out.endArray()
            }
            out.endArray()
            out.endObject()
        }
        out.endArray()
        out.endObject()
        return .json(status: 200, out.text)
    }

    /// `races/<n>`, `races/<n>/results.csv`.
    static func race(_ parts: [String], _ office: RaceOffice?, _ store: FleetStore, at time: Double) throws(StoreError)
        -> SignalKServer.ShellReply
    {
        guard let office, let index = Int(parts[1]), index >= 0, index < office.races.count else {
            return .message(status: 404, "no such race")
        }
        let (standings, read, boats) = try office.standings(index, store: store, at: time)
        let course = office.races[index]
        if parts.count == 3 {
            guard read == boats else {
                return .message(
                    status: 503, "still reading the race from the store (\(read) of \(boats) boats)")
            }
            return .file(
                status: 200, contentType: "text/csv; charset=utf-8",
                body: Array(RaceResults.csv(course, standings: standings, entries: office.entered).utf8))
        }
        return .json(
            status: 200,
            RaceResults.json(
                course, index: index, standings: standings, entries: office.entered, at: time,
                read: (read, boats)))
    }

    /// `boats/<id>/track.gpx`, `boats/<id>/batches`.
    static func boat(
        _ boat: String, _ what: String, _ asked: SignalKServer.FleetRequest, _ store: FleetStore, at time: Double
    ) throws(StoreError) -> SignalKServer.ShellReply {
        switch what {
        case "track.gpx":
            let to = number(asked, "to") ?? time
            let from = number(asked, "from") ?? 0
            guard from <= to, times.contains(from), times.contains(to) else {
                return .message(status: 400, "from and to: UNIX seconds, from before to")
            }
            let track = try store.tracks(from: from, to: to, boat: boat, perBoat: 1_000_000, every: true).first
            guard let track else { return .message(status: 404, "no track of \(boat) in that span") }
            return .file(
                status: 200, contentType: "application/gpx+xml",
                body: Array(FleetExport.gpx(boat: boat, points: track.points).utf8))
        case "batches":
            let numbers = try store.batchNumbers(boat: boat)
            var out = JSONWriter()
            out.beginObject()
            out.value("boat", boat)
            out.value("count", numbers.count)
            if let first = numbers.first, let last = numbers.last {
                out.raw("first", String(first))
                out.raw("last", String(last))
                out.raw("missing", String(last - first + 1 - Int64(numbers.count)))
            }
            out.endObject()
            return .json(status: 200, out.text)
        default:
            return .message(status: 404, "not in the fleet's store")
        }
    }
}
