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

/// Vessels heard on AIS and the paths `[history] paths` adds, in the same files as the boat's minutes.
@Suite struct HistoryContextTests {
    @Test("a vessel's minute and a named series read back; a reader without the name skips it, nothing else")
    func roundTrip() throws {
        let catalog = HistoryBlock.catalog(adding: [
            HistoryBlock.named("electrical.batteries.house.voltage", isAngle: false)
        ])
        var own = HistoryBlock.Minute(minute: 500, catalog: catalog)
        var other = HistoryBlock.Minute(minute: 500, context: "vessels.urn:mrn:imo:mmsi:235000001", catalog: catalog)
        for second in 0..<60 {
            own.record(3, second: second, 2.5)
            own.record(catalog.count - 1, second: second, 12.6 + Double(second) * 0.001)
        }
        other.record(0, second: 12, 50.75)
        other.record(1, second: 12, -1.25)
        other.record(3, second: 12, 5.1)
        let bytes = own.encode() + other.encode()
        var read: [HistoryBlock.Decoded] = []
        bytes.withUnsafeBytes { raw in HistoryBlock.blocks(raw, catalog: catalog) { read.append($0) } }
        #expect(read.count == 2)
        #expect(read[0].context == nil && read[1].context == "vessels.urn:mrn:imo:mmsi:235000001")
        #expect(abs((read[0].values[catalog.count - 1][59] ?? 0) - 12.659) < 1e-6)
        #expect(abs((read[1].values[0][12] ?? 0) - 50.75) < 1e-7 && abs((read[1].values[3][12] ?? 0) - 5.1) < 1e-9)
        // Read without the named series (it was taken out of the configuration): the rest is there.
        var plain: [HistoryBlock.Decoded] = []
        bytes.withUnsafeBytes { raw in HistoryBlock.blocks(raw) { plain.append($0) } }
        #expect(plain.count == 2 && plain[0].values[3][0] == 2.5)
        // A torn vessel block after the boat's: the boat's minute stays, the reader finds the next one.
        var torn = own.encode() + other.encode().prefix(20) + own.encode()
        torn[0] = torn[0]
        var minutes = 0
        torn.withUnsafeBytes { raw in HistoryBlock.blocks(raw, catalog: catalog) { _ in minutes += 1 } }
        #expect(minutes == 2)
    }

    @Test("an aggregate over a vessel's context reads that vessel alone")
    func vesselQuery() throws {
        var own = HistoryBlock.Minute(minute: 100)
        var other = HistoryBlock.Minute(minute: 100, context: "vessels.urn:mrn:imo:mmsi:235000001")
        for second in 0..<60 { own.record(3, second: second, 3) }
        other.record(3, second: 5, 7)
        other.record(3, second: 35, 9)
        guard
            case .success(var query) = HistoryQuery.parse(
                [
                    ("paths", "navigation.speedOverGround:max"), ("from", SignalKTime.text(unixTime: 6000)),
                    ("to", SignalKTime.text(unixTime: 6060)), ("resolution", "60"),
                ], now: 7000, kept: HistoryBlock.vesselPaths)
        else {
            Issue.record("refused")
            return
        }
        query.context = "vessels.urn:mrn:imo:mmsi:235000001"
        var aggregator = HistoryAggregator(query)
        for block in [own.encode(), other.encode()] {
            block.withUnsafeBytes { raw in
                if let (decoded, _) = HistoryBlock.decode(raw, at: 0) { aggregator.add(decoded) }
            }
        }
        let json = aggregator.json(context: query.context ?? "self")
        #expect(json.contains(#""context":"vessels.urn:mrn:imo:mmsi:235000001""#))
        #expect(json.contains(#""1970-01-01T01:40:00.000Z",9.0]"#), "the vessel's 9, not the boat's 3: \(json)")
        // A vessel's context is not asked for the boat's paths.
        if case .success = HistoryQuery.parse(
            [("paths", "environment.depth.belowTransducer"), ("duration", "PT1H")], now: 7000,
            kept: HistoryBlock.vesselPaths)
        {
            Issue.record("a vessel's depth is not kept")
        }
    }
}

/// Damaged history files (#40: broken files on the card never crash the gateway and never reach an answer).
@Suite struct HistoryDamageTests {
    @Test("thousands of damaged copies of a day (bytes flipped, cut, spliced): no crash, only the minutes written")
    func damaged() {
        let catalog = HistoryBlock.catalog(adding: [
            HistoryBlock.named("electrical.batteries.house.voltage", isAngle: false)
        ])
        var file: [UInt8] = []
        var written = Set<Int64>()
        for number in Int64(100)..<Int64(110) {
            var own = HistoryBlock.Minute(minute: number, catalog: catalog)
            var other = HistoryBlock.Minute(
                minute: number, context: "vessels.urn:mrn:imo:mmsi:235000001", catalog: catalog)
            for second in stride(from: 0, to: 60, by: 2) {
                own.record(0, second: second, 50.7 + Double(second) * 1e-5)
                own.record(1, second: second, -1.3)
                own.record(catalog.count - 1, second: second, 12.5)
                other.record(3, second: second, 4)
            }
            file += own.encode() + other.encode()
            written.insert(number)
        }
        var generator = SplitMix(seed: 40)
        for round in 0..<3000 {
            var copy = file
            switch round % 3 {
            case 0:
                for _ in 0..<(1 + Int(generator.next() % 8)) {
                    copy[Int(generator.next() % UInt64(copy.count))] ^= UInt8(truncatingIfNeeded: generator.next() | 1)
                }
            case 1:
                copy = Array(copy.prefix(Int(generator.next() % UInt64(copy.count))))
            default:
                let at = Int(generator.next() % UInt64(copy.count))
                copy = Array(copy[at...]) + Array(copy[..<at])
            }
            copy.withUnsafeBytes { raw in
                HistoryBlock.blocks(raw, catalog: catalog) { decoded in
                    #expect(written.contains(decoded.minute))
                    #expect(decoded.values.count == catalog.count)
                }
                _ = HistoryBlock.intactLength(raw)
                _ = HistoryBlock.remainsLength(raw, from: HistoryBlock.intactLength(raw))
            }
        }
    }

    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
