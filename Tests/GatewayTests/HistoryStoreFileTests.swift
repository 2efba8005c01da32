import Engine
import Marine
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

    @Test("past keep_mb the oldest days are thinned first (a sample every 10 s), then dropped; today's kept whole")
    func bounded() throws {
        let folder = temporaryFolder("history-bound")
        // Three old days of about 400 KB each (one minute's block again and again), then a day written now.
        var copiesPerDay = 0
        for (index, day) in ["2026-06-18", "2026-06-19", "2026-06-20"].enumerated() {
            var minute = HistoryBlock.Minute(minute: 29_695_680 + Int64(index) * 1440)
            for second in 0..<60 {
                minute.record(0, second: second, 50.7 + Double(second) * 1e-5)
                minute.record(1, second: second, -1.3)
                minute.record(3, second: second, Double(second))
            }
            let block = minute.encode()
            copiesPerDay = 400_000 / block.count
            let copies = Array(repeating: block, count: copiesPerDay).flatMap { $0 }
            try POSIX.writeFileAtomically(folder + "/" + day + ".tth", copies)
        }
        let start = 1_782_036_000.0
        func write(_ store: HistoryStore, _ from: Double) {
            for second in 0..<61 {
                store.record(model(speed: 3, latitude: 50.7), unixTime: from + Double(second), known: true)
            }
            store.flush()
        }
        let store = HistoryStore(folder: folder, keepMegabytes: 1, log: nil)
        write(store, start)
        // 3 × 400 KB and today's 256 KB laid out: the two oldest thinned (to about a third) bring it under 1 MB.
        #expect(
            store.files().map(\.name) == [
                "2026-06-18.thin.tth", "2026-06-19.thin.tth", "2026-06-20.tth", "2026-06-21.tth",
            ])
        #expect(store.files().reduce(0) { $0 + $1.bytes } <= 1_048_576)
        // A thinned day: the first sample of every ten seconds, the position's halves together, the values exact.
        let thinned = try POSIX.readFile(folder + "/2026-06-19.thin.tth")
        var minutes = 0
        thinned.withUnsafeBytes { raw in
            HistoryBlock.blocks(raw) { decoded in
                minutes += 1
                let kept = (0..<60).filter { decoded.values[3][$0] != nil }
                #expect(kept == [0, 10, 20, 30, 40, 50])
                #expect(kept.map { decoded.values[3][$0]! } == [0, 10, 20, 30, 40, 50])
                #expect((0..<60).filter { decoded.values[1][$0] != nil } == kept)
            }
        }
        #expect(minutes == copiesPerDay, "every minute carried over")
        // Tighter still: every old day thinned, then the oldest dropped.
        let tight = HistoryStore(folder: folder, keepMegabytes: 0.55, log: nil)
        write(tight, start + 120)
        #expect(tight.files().map(\.name).last == "2026-06-21.tth")
        #expect(!tight.files().map(\.name).contains("2026-06-18.thin.tth"))
        #expect(tight.files().allSatisfy { $0.name == "2026-06-21.tth" || $0.name.hasSuffix(".thin.tth") })
        #expect(tight.files().reduce(0) { $0 + $1.bytes } <= Int(0.55 * 1_048_576))
        // A thinning cut short by a power cut: both files and a half-written one; the next start keeps the thinned.
        try POSIX.writeFileAtomically(folder + "/2026-06-20.tth", [1, 2, 3])
        try POSIX.writeFileAtomically(folder + "/2026-06-20.thin.tth.tmp", [4, 5])
        let again = HistoryStore(folder: folder, keepMegabytes: 8, log: nil)
        #expect(!again.files().map(\.name).contains("2026-06-20.tth"))
        #expect(!POSIX.exists(folder + "/2026-06-20.thin.tth.tmp"))
    }
}

/// The vessels heard on AIS and the paths `[history] paths` adds, kept beside the boat's minutes (#40).
@Suite struct HistoryStoreVesselTests {
    @Test(
        "AIS vessels kept every vessel_interval at most, a bounded number of them; a named path kept; contexts listed")
    func vesselsAndNamed() throws {
        let folder = temporaryFolder("history-vessels")
        let start = 1_782_036_000.0
        let store = HistoryStore(
            folder: folder, keepMegabytes: 8, log: nil, paths: ["electrical.batteries.house.voltage"],
            vesselInterval: 30, vesselCount: 2)
        var model = SignalKModel(urn: "urn:mrn:signalk:uuid:6b0e776f-811a-4b35-980e-b93405371bc5")
        for second in 0..<180 {
            let time = Double(second)
            model.set("navigation.speedOverGround", .number(3), source: "gps", time: time, timestamp: "")
            model.set(
                "electrical.batteries.house.voltage", .number(12.5 + Double(second) / 1000), source: "n2k", time: time,
                timestamp: "")
            // Three vessels, heard anew each second, moving east.
            var targets: [AISTarget] = []
            for index in 0..<3 {
                var ship = AISTarget(mmsi: 235_000_001 + UInt32(index), station: .vessel, lastHeard: time)
                ship.position = GeoPoint(latitude: 50.75 + Double(index) * 0.01, longitude: -1.25 + time * 1e-5)
                ship.speedOverGround = 5
                ship.courseOverGround = 90
                ship.positionTime = time
                targets.append(ship)
            }
            var mark = AISTarget(mmsi: 992_351_234, station: .aidToNavigation, lastHeard: time)
            mark.position = GeoPoint(latitude: 50.7, longitude: -1.3)
            targets.append(mark)
            model.take(traffic: targets, at: time, unixTime: start + time)
            store.record(model, unixTime: start + time, known: true)
        }
        store.flush()
        let contexts = store.contexts(from: start, to: start + 180)
        #expect(
            contexts.count == 3, "the boat and two vessels (vessel_count), never the aid to navigation: \(contexts)")
        #expect(contexts.first! == nil)
        let first = try #require(contexts.dropFirst().first ?? nil)
        #expect(
            store.paths(from: start, to: start + 180, context: first) == [
                "navigation.position", "navigation.courseOverGroundTrue", "navigation.speedOverGround",
            ])
        #expect(store.paths(from: start, to: start + 180).contains("electrical.batteries.house.voltage"))
        // Every 30 s at most: six samples in three minutes, the first at the start.
        guard
            case .success(var query) = HistoryQuery.parse(
                [
                    ("paths", "navigation.position:first"), ("from", SignalKTime.text(unixTime: start)),
                    ("to", SignalKTime.text(unixTime: start + 180)), ("resolution", "30"),
                ], now: start + 180,
                kept: HistoryBlock.vesselPaths)
        else { throw Failure("refused") }
        query.context = first
        let answer = store.answer(query, context: "self")
        #expect(answer.contains(#"["2026-06-21T10:00:00.000Z",[-1.2500000,50.7500000]]"#), "\(answer)")
        #expect(!answer.contains("null"), "a sample in every 30 s: \(answer)")
        guard
            case .success(let voltage) = HistoryQuery.parse(
                [
                    ("paths", "electrical.batteries.house.voltage:max"), ("from", SignalKTime.text(unixTime: start)),
                    ("to", SignalKTime.text(unixTime: start + 60)), ("resolution", "60"),
                ], now: start + 180,
                kept: HistoryBlock.paths + ["electrical.batteries.house.voltage"])
        else { throw Failure("refused") }
        #expect(store.answer(voltage, context: "self").contains(",12.56]"), "second 60 is the range's end, kept")
        // Playback's blocks: the minutes as they lie, nil past the end.
        let blocks = try #require(store.blocks(from: start, to: start + 60))
        var minutes: [Int64] = []
        blocks.withUnsafeBytes { raw in HistoryBlock.blocks(raw, catalog: store.catalog) { minutes.append($0.minute) } }
        #expect(minutes == Array(repeating: Int64(start / 60), count: 3))
        #expect(store.blocks(from: start + 600, to: start + 660) == nil)
    }
}
