import Marine
import TestSupport
import Testing

@testable import SignalK

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
