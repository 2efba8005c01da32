import Fleet
import SignalK
import TestSupport
import Testing

@testable import Gateway
@testable import Shore

/// A boat's history ashore from the batches the store keeps (SQLite here; the shore accounts check reads it from
/// PostgreSQL through the panel): the History API's buckets worked out again by hand from the samples written, another
/// boat's never in them, a span longer than a day refused.
@Suite struct FleetHistoryTests {
    static let start = 1_561_111_200.0  // 2019-06-21T10:00:00Z: a replay's clock, not the shore's

    /// Two hours of 10-second batches (720: more than one page of the store's reading), a sample of each group a batch.
    static func speed(_ index: Int) -> Double { 2 + Double(index % 37) * 0.1 }
    static func roll(_ index: Int) -> Double { Double(index % 11) * 0.01 - 0.05 }
    static func latitude(_ index: Int) -> Double { 50.7 + Double(index) * 1e-4 }

    static func batches(_ boat: String, speed: (Int) -> Double) -> [FleetStore.Item] {
        (0..<720).map { index in
            let stamp = SignalKTime.text(unixTime: start + Double(index) * 10 + 3)
            let samples = [
                UplinkSample(
                    path: "navigation.position", value: .position(latitude: latitude(index), longitude: -1.3),
                    timestamp: stamp, source: "gps"),
                UplinkSample(
                    path: "navigation.speedOverGround", value: .number(speed(index)), timestamp: stamp, source: "gps"),
                UplinkSample(
                    path: "navigation.attitude", value: .attitude(roll: roll(index), pitch: 0.01, yaw: nil),
                    timestamp: stamp, source: "imu"),
            ]
            return .batch(UplinkBatch(boat: boat, sequence: UInt64(index + 1), samples: samples), received: start + 1e6)
        }
    }

    @Test("buckets of five minutes: mean, max, first position and least roll, as the samples written say")
    func buckets() throws {
        let store = try FleetStore(temporaryFolder("fleet-history") + "/fleet.sqlite")
        _ = try store.write(Self.batches("arrow", speed: Self.speed))
        _ = try store.write(Self.batches("swift") { _ in 99 })
        let from = Self.start + 1_800
        let to = Self.start + 3_600
        let parameters = [
            (
                "paths",
                "navigation.speedOverGround,navigation.speedOverGround:max,navigation.position:first,"
                    + "navigation.attitude.roll:min"
            ),
            ("from", SignalKTime.text(unixTime: from)), ("to", SignalKTime.text(unixTime: to)), ("resolution", "300"),
        ]
        guard case .success(let query) = FleetHistory.query(parameters, now: Self.start + 7_200) else {
            Issue.record("the query was refused")
            return
        }
        // Read as the web side reads it: a page of batches at a time, turn after turn, until answered.
        let readings = HistoryReadings()
        #expect(readings.add(7, boat: "arrow", query))
        var answer: SignalKServer.ShellReply?
        var turns = 0
        while answer == nil && turns < 10_000 {
            answer = readings.work(store, log: Log { _ in }).first { $0.0 == 7 }?.1
            turns += 1
        }
        guard case .json(200, let text)? = answer else {
            Issue.record("no answer after \(turns) turns: \(String(describing: answer))")
            return
        }
        #expect(!readings.reading)
        let json = try #require(JSONValue.parse(Array(text.utf8), maximumDepth: 8))
        guard case .array(let rows)? = json["data"] else {
            Issue.record("no data: \(text.prefix(300))")
            return
        }
        #expect(rows.count == 6)
        for (bucket, row) in rows.enumerated() {
            // The samples of the bucket, by hand: index i is at start + 10 i + 3.
            let inside = (0..<720).filter { index in
                let t = Self.start + Double(index) * 10 + 3
                return t >= from + Double(bucket) * 300 && t < from + Double(bucket + 1) * 300
            }
            let speeds = inside.map(Self.speed)
            let mean = speeds.reduce(0, +) / Double(speeds.count)
            guard case .array(let cells) = row, cells.count == 5 else {
                Issue.record("row \(bucket): \(row)")
                continue
            }
            #expect(abs((cells[1].number ?? -1) - mean) < 0.01, "bucket \(bucket)'s mean speed")
            #expect(abs((cells[2].number ?? -1) - (speeds.max() ?? 0)) < 0.01, "its greatest")
            guard case .array(let first) = cells[3], first.count == 2 else {
                Issue.record("row \(bucket)'s position: \(cells[3])")
                continue
            }
            #expect(abs((first[1].number ?? -1) - Self.latitude(inside[0])) < 1e-6, "its first position")
            #expect(abs((cells[4].number ?? -1) - (inside.map(Self.roll).min() ?? 0)) < 1e-3, "its least roll")
        }
        #expect(!text.contains("99"), "another boat's samples never in this one's history")
    }

    @Test("a span longer than a day, another vessel's context and a path not kept are refused")
    func refused() {
        let now = Self.start
        for parameters in [
            [("paths", "navigation.speedOverGround"), ("duration", "P2D")],
            [("paths", "navigation.speedOverGround"), ("context", "vessels.urn:mrn:imo:mmsi:235000001")],
            [("paths", "navigation.nonsense")],
        ] {
            guard case .failure = FleetHistory.query(parameters, now: now) else {
                Issue.record("accepted: \(parameters)")
                continue
            }
        }
        guard
            case .success = FleetHistory.query(
                [("paths", "navigation.speedOverGround"), ("duration", "PT6H")], now: now)
        else {
            Issue.record("six hours refused")
            return
        }
    }
}
