import Platform
import TestSupport
import Testing

@testable import Gateway
@testable import SignalK

/// The history's files on the card (#40): a sample a second on a known clock only, a block a minute, a torn tail cut
/// off at the next start, the clock stepping back refused, the bound kept by dropping the oldest days.
@Suite struct HistoryStoreFileTests {
    func model(speed: Double, latitude: Double) -> SignalKModel {
        var model = SignalKModel(urn: "urn:mrn:signalk:uuid:6b0e776f-811a-4b35-980e-b93405371bc5")
        model.set("navigation.speedOverGround", .number(speed), source: "gps", time: 0, timestamp: "")
        model.set(
            "navigation.position", .position(latitude: latitude, longitude: -1.3), source: "gps", time: 0, timestamp: ""
        )
        model.set(
            "navigation.attitude", .attitude(roll: 0.1, pitch: -0.02, yaw: nil), source: "imu", time: 0, timestamp: "")
        return model
    }

    func query(_ from: Double, _ to: Double, paths: String = "navigation.speedOverGround,navigation.attitude.roll")
        throws -> HistoryQuery
    {
        guard
            case .success(let query) = HistoryQuery.parse(
                [
                    ("paths", paths), ("from", SignalKTime.text(unixTime: from)),
                    ("to", SignalKTime.text(unixTime: to)),
                    ("resolution", "60"),
                ], now: to)
        else { throw Failure("refused") }
        return query
    }

    @Test(
        "kept on a known clock only, a minute a block, read back; a torn tail cut off; the clock stepping back refused")
    func keptAndTorn() throws {
        let folder = temporaryFolder("history")
        let start = 1_782_036_000.0  // 2026-06-21T10:00:00Z
        var store = HistoryStore(folder: folder, keepMegabytes: 8, log: nil)
        // Before the clock is known: nothing.
        store.record(model(speed: 9, latitude: 50.7), unixTime: start - 3600, known: false)
        for second in 0..<180 {
            store.record(
                model(speed: Double(second / 60 + 1), latitude: 50.7), unixTime: start + Double(second), known: true)
        }
        store.flush()
        #expect(store.held == 1 && store.blocks == 3)
        #expect(store.files().map(\.name) == ["2026-06-21.tth"])
        let answer = try #require(JSONValue.parse(store.answer(try query(start, start + 179), context: "vessels.self")))
        let rows = try #require(answer["data"]?.array)
        #expect(rows.map { $0.array?[1].number } == [1, 2, 3])
        #expect(rows.first?.array?[2].number == 0.1)

        // The day file laid out ahead in zeros: the data ends where they begin.
        let path = folder + "/2026-06-21.tth"
        #expect(POSIX.fileSize(path) == HistoryStore.layout)
        let end = try POSIX.readFile(path).withUnsafeBytes { HistoryBlock.intactLength($0) }
        #expect(end > 0 && end < 4000)
        // A power cut mid-write: half a block where the next goes. The next start zeroes it and goes on there.
        try POSIX.overwrite(path, Array(HistoryBlock.magic) + [1, 2, 3, 4, 200, 0, 9, 9], at: end)
        store = HistoryStore(folder: folder, keepMegabytes: 8, log: nil)
        let after = try POSIX.readFile(path)
        #expect(after.count == HistoryStore.layout && after[end..<(end + 12)].allSatisfy { $0 == 0 })
        #expect(store.lastWritten == Int64(start / 60) + 2)
        let whole = POSIX.fileSize(path) ?? 0
        // The clock back at the start (a replay begun again): not kept, not interleaved.
        store.record(model(speed: 50, latitude: 50.7), unixTime: start + 5, known: true)
        store.flush()
        #expect(store.refusedOlder == 1 && POSIX.fileSize(path) == whole)
        // Later minutes go on.
        for second in 180..<240 {
            store.record(model(speed: 4, latitude: 50.7), unixTime: start + Double(second), known: true)
        }
        store.flush()
        let more = try #require(JSONValue.parse(store.answer(try query(start, start + 239), context: "vessels.self")))
        #expect(more["data"]?.array?.map { $0.array?[1].number } == [1, 2, 3, 4])
        #expect(store.paths(from: start, to: start + 239).contains("navigation.attitude.roll"))
    }

    @Test("past keep_mb the oldest days are dropped, today's kept")
    func bounded() throws {
        let folder = temporaryFolder("history-bound")
        // Three old days of about 400 KB each (one minute's block again and again), then a day written now.
        for (index, day) in ["2026-06-18", "2026-06-19", "2026-06-20"].enumerated() {
            var minute = HistoryBlock.Minute(minute: 29_695_680 + Int64(index) * 1440)
            for second in 0..<60 { minute.record(3, second: second, Double(second)) }
            let block = minute.encode()
            let copies = Array(repeating: block, count: 400_000 / block.count).flatMap { $0 }
            try POSIX.writeFileAtomically(folder + "/" + day + ".tth", copies)
        }
        let store = HistoryStore(folder: folder, keepMegabytes: 1, log: nil)
        let start = 1_782_036_000.0
        for second in 0..<61 {
            store.record(model(speed: 3, latitude: 50.7), unixTime: start + Double(second), known: true)
        }
        store.flush()
        // 3 × 400 KB and today's 256 KB laid out: the two oldest go to come under 1 MB.
        #expect(store.files().map(\.name) == ["2026-06-20.tth", "2026-06-21.tth"])
        #expect(store.files().reduce(0) { $0 + $1.bytes } <= 1_048_576)
    }
}
