import CPosix
import Fleet
import Platform
import SignalK
import TestSupport
import Testing

@testable import Gateway
@testable import Shore

/// The fleet's store on SQLite (PostgreSQL is the fleet-store check's, started by it): a batch kept once however
/// often it comes, its positions with it, the boats' newest state, the schema made once, hostile messages refused.
@Suite struct FleetStoreTests {
    static let now = 1_795_700_000.0

    static func batch(_ boat: String, _ seq: UInt64, at time: Double, latitude: Double = 50.7) -> UplinkBatch {
        let stamp = SignalKTime.text(unixTime: time)
        return UplinkBatch(
            boat: boat, sequence: seq,
            samples: [
                UplinkSample(
                    path: "navigation.position", value: .position(latitude: latitude, longitude: -1.2),
                    timestamp: stamp, source: "gps"),
                UplinkSample(path: "navigation.speedOverGround", value: .number(3.1), timestamp: stamp, source: "gps"),
            ])
    }

    @Test("a batch that comes twice, or in two writes, is kept once; its position with it")
    func exactlyOnce() throws {
        let path = temporaryFolder("fleet-store") + "/fleet.sqlite"
        let store = try FleetStore(path)
        let first = try store.write([
            .batch(Self.batch("arrow", 1, at: Self.now), received: Self.now),
            .batch(Self.batch("arrow", 2, at: Self.now + 10), received: Self.now + 11),
            .batch(Self.batch("arrow", 2, at: Self.now + 10), received: Self.now + 12),
        ])
        #expect(first == FleetStore.Written(batches: 2, duplicates: 1, positions: 2))
        let again = try store.write([
            .batch(Self.batch("arrow", 1, at: Self.now), received: Self.now + 20),
            .batch(Self.batch("swift", 1, at: Self.now), received: Self.now + 20),
        ])
        #expect(again == FleetStore.Written(batches: 1, duplicates: 1, positions: 1))
        #expect(try store.batchNumbers(boat: "arrow") == (2, 1, 2))
        let tracks = try store.tracks(from: Self.now - 1, to: Self.now + 60, perBoat: 100)
        #expect(tracks.map { $0.boat } == ["arrow", "swift"])
        #expect(tracks[0].points.map { $0.0 } == [Self.now, Self.now + 10])
        // Opened again: the schema is there (versions 1 to 3, each once), nothing is made twice.
        let reopened = try FleetStore(path)
        #expect(try reopened.connection.run("SELECT count(*), max(version) FROM telltale_schema") == [["4", "4"]])
        #expect(try reopened.batchNumbers(boat: "swift") == (1, 1, 1))
    }

    @Test("the boats' row: the newest position whatever the order batches come in, the link and the alarms")
    func boatsRow() throws {
        let store = try FleetStore(temporaryFolder("fleet-store") + "/fleet.sqlite")
        _ = try store.write([.batch(Self.batch("arrow", 5, at: Self.now + 50, latitude: 50.8), received: Self.now + 51)]
        )
        // A late batch (from the boat's queue) does not move the boat back.
        _ = try store.write([
            .batch(Self.batch("arrow", 3, at: Self.now + 30, latitude: 50.6), received: Self.now + 60),
            .online(boat: "arrow", false, at: Self.now + 61),
            .alarms(boat: "arrow", json: #"[{"path":"notifications.anchor","state":"alarm"}]"#, at: Self.now + 61),
        ])
        let row = try store.connection.run(
            "SELECT latitude, last_batch, batches, online, alarms FROM fleet_boats WHERE boat = 'arrow'")
        #expect(row.first?[0] == "50.8")
        #expect(row.first?[1] == "5")
        #expect(row.first?[2] == "2")
        #expect(row.first?[3] == "0")
        #expect(row.first?[4]?.hasPrefix(#"[{"path":"notifications.anchor""#) == true)
        #expect(try store.boats().first.map { $0.1 } == false)
        let read = try store.batches(since: Self.now + 55, limit: 10)
        #expect(read.map { $0.1 } == ["arrow"])
        #expect(read.map { $0.2 } == [3])
        #expect(UplinkBatch.parse(Array(read[0].3.utf8))?.sequence == 3)
    }

    @Test("version 1 to 2: the minute track made from the positions kept; a long span read from it")
    func migration() throws {
        let path = temporaryFolder("fleet-store") + "/fleet.sqlite"
        // The minutes two hours of points every 10 s touch.
        let minutes = Set((0..<720).map { Int(((Self.now + Double($0) * 10) / 60).rounded(.down)) }).count
        do {
            let store = try FleetStore(path)
            var items: [FleetStore.Item] = []
            // Two hours of a batch every 10 s.
            for n in 0..<720 {
                items.append(
                    .batch(Self.batch("arrow", UInt64(n + 1), at: Self.now + Double(n) * 10), received: Self.now))
            }
            _ = try store.write(items)
            #expect(try store.connection.run("SELECT count(*) FROM fleet_track") == [[String(minutes)]])
            // Back to what version 1 had.
            try store.connection.script(
                "DROP TABLE fleet_track; DROP TABLE shore_accounts; DROP TABLE shore_sessions; DROP TABLE shore_push; "
                    + "DROP TABLE shore_keys; "
                    + "DELETE FROM telltale_schema WHERE version >= 2")
        }
        let store = try FleetStore(path)
        #expect(try store.connection.run("SELECT count(*) FROM fleet_track") == [[String(minutes)]])
        #expect(try store.connection.run("SELECT max(version) FROM telltale_schema") == [["4"]])
        // Two hours in 60 points at most: from the minute track (every third minute, and the last minute); ten minutes in 60:
        // every point.
        let long = try store.tracks(from: Self.now, to: Self.now + 7200, perBoat: 60)
        let count = long.first?.points.count ?? 0
        #expect(count > 30 && count <= 60 && (long.first?.points.last?.0 ?? 0) > Self.now + 7130)
        let short = try store.tracks(from: Self.now, to: Self.now + 590, perBoat: 60)
        #expect(short.first?.points.count == 60)
        #expect(short.first?.points.last?.0 == Self.now + 590)
    }

    @Test("the days and the span of an owner's boat alone: another boat's days are not hers to see")
    func scopedDays() throws {
        let store = try FleetStore(temporaryFolder("fleet-store") + "/fleet.sqlite")
        let dayAfter = Self.now + 86_400 * 3
        _ = try store.write([
            .batch(Self.batch("arrow", 1, at: Self.now), received: Self.now),
            .batch(Self.batch("brise", 1, at: dayAfter), received: dayAfter),
            .batch(Self.batch("brise", 2, at: dayAfter + 600), received: dayAfter + 600),
        ])
        #expect(try store.daysKept() == [FleetStore.day(dayAfter), FleetStore.day(Self.now)])
        #expect(try store.daysKept(boats: ["arrow"]) == [FleetStore.day(Self.now)])
        #expect(try store.daysKept(boats: []) == [])
        let all = try #require(try store.span())
        let arrow = try #require(try store.span(boats: ["arrow"]))
        #expect(all.1 >= dayAfter + 600 && arrow.0 == Self.now && arrow.1 < dayAfter)
        #expect(try store.span(day: FleetStore.day(dayAfter), boats: ["arrow"]) == nil)
        #expect(try store.span(day: FleetStore.day(dayAfter), boats: ["arrow", "brise"])?.1 == dayAfter + 600)
    }

    @Test("a failed write leaves nothing behind: the transaction is rolled back whole")
    func rollback() throws {
        let store = try FleetStore(temporaryFolder("fleet-store") + "/fleet.sqlite")
        try store.connection.script(
            "CREATE TRIGGER refuse BEFORE INSERT ON fleet_positions BEGIN SELECT RAISE(ABORT, 'no'); END")
        #expect(throws: StoreError.self) {
            _ = try store.write([.batch(Self.batch("arrow", 1, at: Self.now), received: Self.now)])
        }
        #expect(try store.batchNumbers(boat: "arrow").count == 0)
    }

    @Test("what a boat never sends is refused with its reason, never an item")
    func judge() {
        let good = Array(Self.batch("arrow", 1, at: Self.now).json.utf8)
        func outcome(_ topic: String, _ payload: [UInt8], at time: Double = FleetStoreTests.now) -> FleetIngest.Outcome
        {
            FleetIngest.judge(topic: topic, payload: payload, at: time)
        }
        if case .item(.batch(let batch, _, let raw)) = outcome("telltale/arrow/history", good) {
            #expect(batch.sequence == 1)
            #expect(raw.map { Array($0.utf8) } == good)
        } else {
            Issue.record("a good batch is an item")
        }
        #expect(outcome("telltale/swift/history", good) == .refused("boat"))
        #expect(outcome("telltale/not a boat!/history", good) == .refused("boat"))
        #expect(outcome("elsewhere/arrow/history", good) == .refused("topic"))
        #expect(outcome("telltale/arrow/history", Array(#"{"boat":"arrow","seq":"#.utf8)) == .refused("json"))
        #expect(outcome("telltale/arrow/history", good, at: Self.now + 500 * 86_400) == .refused("time"))
        #expect(outcome("telltale/arrow/history", good, at: Self.now - 2 * 86_400) == .refused("time"))
        #expect(outcome("telltale/arrow/online", Array("maybe".utf8)) == .refused("json"))
        #expect(
            outcome("telltale/arrow/online", Array("true".utf8)) == .item(.online(boat: "arrow", true, at: Self.now)))
        #expect(outcome("telltale/arrow/alarms", Array("{}".utf8)) == .refused("json"))
        #expect(outcome("telltale/arrow/navigation/position", Array("{}".utf8)) == .skipped)
        #expect(outcome("telltale/arrow/history", [UInt8](repeating: 32, count: (1 << 20) + 1)) == .refused("size"))
    }

    @Test("the journal: messages back after a kill, a torn tail cut, emptied once stored")
    func journal() throws {
        let path = temporaryFolder("fleet-journal") + "/w1.journal"
        let journal = try FleetJournal(path: path)
        for (topic, text) in [("telltale/a/history", "{1}"), ("telltale/b/online", "true")] {
            Array(text.utf8).withUnsafeBytes { journal.append(topic: topic, payload: $0) }
        }
        // A record torn by the kill.
        let fd = try POSIX.open(path, O_WRONLY | O_APPEND)
        POSIX.writeAll(fd, Array(UplinkRecord.encode(Array("telltale/c/history\u{0}{3}".utf8)).prefix(12)))
        POSIX.close(fd)
        let again = try FleetJournal(path: path)
        let left = again.leftOver()
        #expect(left.map { $0.0 } == ["telltale/a/history", "telltale/b/online"])
        #expect(left.map { String(decoding: $0.1, as: UTF8.self) } == ["{1}", "true"])
        again.empty()
        #expect(again.leftOver().isEmpty)
        #expect(POSIX.fileSize(path) == 0)
    }

    @Test("parameters: $N as SQLite's ?N; a password never in the log")
    func texts() {
        #expect(SQLiteConnection.numbered("VALUES ($1, $12, '$x')") == "VALUES (?1, ?12, '$x')")
        #expect(
            FleetStore.describe("postgres://committee:secret@db.example.org:5432/fleet")
                == "postgres://...@db.example.org:5432/fleet")
        #expect(FleetStore.describe("fleet.sqlite") == "fleet.sqlite")
        #expect(FleetStore.date(FleetStore.day(Self.now)) == "2026-11-26")
    }

    @Test("a boat's track as GPX: every point with its UTC time")
    func gpx() {
        let text = FleetExport.gpx(boat: "arrow", points: [(Self.now, 50.7, -1.25), (Self.now + 1, -0.0000001, 0.5)])
        #expect(text.contains(#"<trkpt lat="50.7000000" lon="-1.2500000"><time>2026-11-26T"#))
        #expect(text.contains(#"<trkpt lat="-0.0000001" lon="0.5000000">"#))
        #expect(text.hasSuffix("</gpx>\n"))
    }
}
