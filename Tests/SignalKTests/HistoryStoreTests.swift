import Marine
import TestSupport
import Testing

@testable import SignalK

/// The history's pure half (#40): a minute packed and read back, torn and broken blocks, the History API's query and
/// every aggregate against values worked out here by hand.
@Suite struct HistoryStoreTests {
    /// A minute of a boat under way: position moving steadily, wind wandering, a gap in the depth.
    func minute(_ number: Int64, speed: Double = 3) -> HistoryBlock.Minute {
        var minute = HistoryBlock.Minute(minute: number)
        for second in 0..<60 {
            let t = Double(number * 60) + Double(second)
            minute.record(0, second: second, 50.7 + t * 1e-6)
            minute.record(1, second: second, -1.3 + t * 1.5e-6)
            minute.record(3, second: second, speed + Double(second % 3) * 0.01)
            minute.record(10, second: second, (6.2 + Double(second) * 0.002).truncatingRemainder(dividingBy: 2 * .pi))
            if second < 30 || second > 40 { minute.record(11, second: second, 12.34 + Double(second) * 0.01) }
        }
        return minute
    }

    @Test("a minute read back as written, to the series' step; a position at steady speed costs about a byte")
    func roundTrip() throws {
        let block = minute(29_000_000).encode()
        let decoded = try #require(block.withUnsafeBytes { HistoryBlock.decode($0, at: 0) }?.0)
        #expect(decoded.minute == 29_000_000)
        for second in 0..<60 {
            let t = Double(29_000_000 * 60) + Double(second)
            #expect(abs((decoded.values[0][second] ?? 0) - (50.7 + t * 1e-6)) <= 0.6e-7)
            #expect(abs((decoded.values[3][second] ?? 0) - (3 + Double(second % 3) * 0.01)) <= 0.006)
            #expect((decoded.values[11][second] == nil) == (second >= 30 && second <= 40))
            #expect(decoded.values[5][second] == nil)
        }
        // Five series, 289 samples: well under 2 bytes a sample (the position second-order, the rest first-order).
        let samples = 60 * 4 + 49
        #expect(Double(block.count) / Double(samples) < 2, "\(block.count) bytes")
    }

    @Test("a torn block (a power cut) is found; a broken one in the middle costs its minute alone")
    func tornAndBroken() {
        var file = minute(1000).encode() + minute(1001).encode()
        let whole = file.count
        let third = minute(1002).encode()
        file += third.prefix(third.count / 2)
        var minutes: [Int64] = []
        file.withUnsafeBytes { raw in
            #expect(HistoryBlock.intactLength(raw) == whole)
            HistoryBlock.blocks(raw) { minutes.append($0.minute) }
        }
        #expect(minutes == [1000, 1001])
        // A byte flipped in the first block: that minute is skipped, the next read.
        var broken = minute(1000).encode() + minute(1001).encode()
        broken[30] ^= 0x55
        minutes = []
        broken.withUnsafeBytes { raw in HistoryBlock.blocks(raw) { minutes.append($0.minute) } }
        #expect(minutes == [1001])
        // Garbage alone: nothing, no crash.
        let garbage: [UInt8] = Array("TTH1TTH1\u{0}\u{0}\u{0}\u{0}\u{ff}\u{ff}xxxxxxxxxx".utf8)
        garbage.withUnsafeBytes { raw in HistoryBlock.blocks(raw) { _ in Issue.record("read from garbage") } }
    }

    func parse(_ query: [(String, String)], now: Double = 1_750_000_000) -> Result<HistoryQuery, ResourceError> {
        HistoryQuery.parse(query, now: now)
    }

    @Test("the query: paths with aggregates, the range from any two of from, to and duration; hostile ones refused")
    func query() throws {
        guard
            case .success(let query) = parse([
                (
                    "paths",
                    "navigation.speedOverGround:max,environment.wind.directionTrue,navigation.position,"
                        + "navigation.speedOverGround:sma:3"
                ),
                ("from", "2025-06-15T12:00:00Z"), ("duration", "PT1H"), ("resolution", "1m"),
            ])
        else {
            Issue.record("refused")
            return
        }
        #expect(query.columns.map(\.method) == [.max, .average, .first, .sma])
        #expect(query.columns[3].parameter == 3)
        #expect(query.to - query.from == 3600 && query.resolution == 60 && query.buckets == 60)
        #expect(HistoryQuery.seconds("P1DT2H30M") == 95_400 && HistoryQuery.seconds("PT0.5S") == 0.5)
        #expect(
            HistoryQuery.seconds("90") == 90 && HistoryQuery.seconds("2h") == 7200 && HistoryQuery.seconds("PX") == nil)
        guard case .success(let recent) = parse([("paths", "navigation.speedOverGround"), ("duration", "600")]) else {
            Issue.record("duration alone refused")
            return
        }
        #expect(recent.to == 1_750_000_000 && recent.from == 1_750_000_000 - 600 && recent.resolution == 2)
        let million = Array(repeating: "navigation.speedOverGround", count: 1000).joined(separator: ",")
        for (name, query) in [
            ("no paths", [("duration", "60")]),
            ("unknown path", [("paths", "navigation.nothing"), ("duration", "60")]),
            ("many paths", [("paths", million), ("duration", "60")]),
            ("bad aggregate", [("paths", "navigation.speedOverGround:median"), ("duration", "60")]),
            ("bad sma", [("paths", "navigation.speedOverGround:sma:-2"), ("duration", "60")]),
            (
                "negative resolution",
                [("paths", "navigation.speedOverGround"), ("duration", "60"), ("resolution", "-5")]
            ),
            ("huge range", [("paths", "navigation.speedOverGround"), ("duration", "P5000D")]),
            (
                "too many rows",
                [("paths", "navigation.speedOverGround"), ("duration", "P30D"), ("resolution", "1")]
            ),
            (
                "to before from",
                [
                    ("paths", "navigation.speedOverGround"), ("from", "2025-06-15T12:00:00Z"),
                    ("to", "2025-06-15T11:00:00Z"),
                ]
            ),
            ("bad time", [("paths", "navigation.speedOverGround"), ("from", "yesterday")]),
            ("no range", [("paths", "navigation.speedOverGround"), ("to", "2025-06-15T11:00:00Z")]),
        ] as [(String, [(String, String)])] {
            if case .success = parse(query) { Issue.record("\(name) taken") }
        }
    }

    @Test("every aggregate against the values worked by hand; an angle across north averages to north; gaps are null")
    func aggregates() throws {
        // Two minutes, buckets of 30 s: SOG 1, 2, 3 … by second; direction alternating 359° and 1°.
        var one = HistoryBlock.Minute(minute: 100)
        var two = HistoryBlock.Minute(minute: 101)
        for second in 0..<60 {
            one.record(3, second: second, Double(second))
            one.record(10, second: second, second % 2 == 0 ? 359 * .pi / 180 : 1 * .pi / 180)
            one.record(0, second: second, 50)
            one.record(1, second: second, Double(second) * 0.001)
            if second >= 30 { two.record(3, second: second, 100) }
        }
        guard
            case .success(let query) = HistoryQuery.parse(
                [
                    (
                        "paths",
                        "navigation.speedOverGround,navigation.speedOverGround:min,navigation.speedOverGround:max,"
                            + "navigation.speedOverGround:first,navigation.speedOverGround:last,"
                            + "navigation.speedOverGround:mid,navigation.speedOverGround:middle_index,"
                            + "environment.wind.directionTrue,navigation.position:last,navigation.speedOverGround:sma:2,"
                            + "navigation.speedOverGround:ema:0.5"
                    ),
                    ("from", SignalKTime.text(unixTime: 6000)), ("to", SignalKTime.text(unixTime: 6119)),
                    ("resolution", "30"),
                ], now: 0)
        else {
            Issue.record("refused")
            return
        }
        var aggregator = HistoryAggregator(query)
        for minute in [one, two] {
            minute.encode().withUnsafeBytes { raw in
                if let (decoded, _) = HistoryBlock.decode(raw, at: 0) { aggregator.add(decoded) }
            }
        }
        let json = try #require(JSONValue.parse(aggregator.json(context: "vessels.self")))
        let rows = try #require(json["data"]?.array)
        #expect(rows.count == 4)
        func row(_ index: Int) -> [Double?] { rows[index].array?.dropFirst().map { $0.number } ?? [] }
        // Bucket 0: seconds 0–29. Mean 14.5, min 0, max 29, first 0, last 29, mid 14.5, middle (t=15) 15.
        #expect(Array(row(0).prefix(7)) == [14.5, 0, 29, 0, 29, 14.5, 15])
        // The direction alternates 359° and 1°: its mean is north (0 or 2π), not 180°.
        let north = try #require(row(0)[7])
        #expect(min(north, 2 * .pi - north) < 0.001)  // within the step (0.001 rad) the values were kept to
        // The position's last of bucket 0 as [lon, lat].
        #expect(rows[0].array?[9].array == [.number(0.029), .number(50)])
        // Bucket 2 (seconds 60–89) has no SOG: null; bucket 3 (90–119) 100.
        #expect(row(2)[0] == nil && row(3)[0] == 100)
        // sma over 2 bucket means: bucket 1 = (14.5 + 44.5) / 2; ema 0.5: 14.5, 29.5, -, 64.75.
        #expect(row(1)[9] == 29.5 && row(3)[9] == (44.5 + 100) / 2)
        #expect(row(0)[10] == 14.5 && row(1)[10] == 29.5 && row(3)[10] == 64.75)
        #expect(json["values"]?.array?.count == 11 && json["range"]?["from"]?.string == "1970-01-01T01:40:00.000Z")
    }
}
