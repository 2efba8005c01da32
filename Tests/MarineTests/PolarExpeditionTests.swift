import Marine
import Testing

/// The learnt polar exported in Expedition's layout, read back by the same reader that loads any polar.
@Suite struct PolarExpeditionTests {
    @Test func aSparseLearntTableComesBackPointForPoint() throws {
        let table = "TWA\\TWS;6;8;12\n45;4.8;;5.9\n90;5.6;;7.1\n150;;;6.4\n"
        let learnt = try Polar.parse(table)
        let text = learnt.expeditionText
        #expect(!text.contains("\n8.0\t"), "a wind speed with no cell is left out: \(text)")
        let back = try Polar.parse(text)
        #expect(back.curves.map(\.windSpeed) == [6, 12])
        #expect(back.curves[0].angles == [45, 90] && back.curves[0].speeds == [4.8, 5.6])
        #expect(back.curves[1].angles == [45, 90, 150] && back.curves[1].speeds == [5.9, 7.1, 6.4])
    }
}
