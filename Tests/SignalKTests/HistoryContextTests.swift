import Marine
import TestSupport
import Testing

@testable import SignalK

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
