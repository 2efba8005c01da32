import Testing

@testable import Marine

/// The router's land (#52): GSHHG's rings painted into cells as the panel fills them, grown by a margin, spared round
/// a harbour, legs over it found.
@Suite struct LandMaskTests {
    /// The 1° bin whose south-west corner is 50N 4W (GSHHG numbers bins from the north-west, eastward from 0°).
    static let bin = BaseMap.bin(latitude: 50.5, longitude: 356.5, binMinutes: 60)

    /// An island from 50.25N to 50.75N and 3.75W to 3.25W, with a lake in it (50.45–50.55N, 3.55–3.45W).
    static func painted() -> LandMask {
        var mask = LandMask(south: 49.9, west: -4.1, north: 51.1, east: -2.9, cell: 1.0 / 512)!
        let quarter = UInt16(65535 / 4)
        let three = UInt16(65535 * 3 / 4)
        let lakeLow = UInt16(65535 * 45 / 100)
        let lakeHigh = UInt16(65535 * 55 / 100)
        mask.paint(
            bin: bin, binMinutes: 60,
            rings: [
                BaseMap.Ring(level: 1, x: [quarter, three, three, quarter], y: [quarter, quarter, three, three]),
                BaseMap.Ring(
                    level: 2, x: [lakeLow, lakeHigh, lakeHigh, lakeLow], y: [lakeLow, lakeLow, lakeHigh, lakeHigh]),
            ])
        return mask
    }

    @Test("the bin's rings in order: the island land, its lake water, the sea round it water")
    func paint() {
        let mask = Self.painted()
        #expect(mask.isLand(GeoPoint(latitude: 50.3, longitude: -3.3)))
        #expect(!mask.isLand(GeoPoint(latitude: 50.5, longitude: -3.5)))
        #expect(!mask.isLand(GeoPoint(latitude: 50.2, longitude: -3.5)))
        #expect(!mask.isLand(GeoPoint(latitude: 50.5, longitude: -3.2)))
        // Outside the area everything is land: a route stays in it.
        #expect(mask.isLand(GeoPoint(latitude: 52, longitude: -3.5)))
        // 0.5° × 0.5° less 0.1° × 0.1°, in cells of 1/512°: 256² − 51² ≈ 62,935 cells.
        #expect(abs(mask.landCells - (256 * 256 - 51 * 51)) < 600)
    }

    @Test("a leg across the island touches land; one past it does not; the lake is reached only across land")
    func legs() {
        let mask = Self.painted()
        #expect(mask.crossesLand(GeoPoint(latitude: 50.5, longitude: -3.9), GeoPoint(latitude: 50.5, longitude: -3.1)))
        #expect(!mask.crossesLand(GeoPoint(latitude: 50.2, longitude: -3.9), GeoPoint(latitude: 50.2, longitude: -3.1)))
        #expect(mask.crossesLand(GeoPoint(latitude: 50.5, longitude: -3.9), GeoPoint(latitude: 50.5, longitude: -3.5)))
        #expect(
            !mask.crossesLand(GeoPoint(latitude: 50.2, longitude: -3.5), GeoPoint(latitude: 50.24, longitude: -3.5)))
    }

    @Test("grown by 500 m: water 300 m off the coast is land, 900 m off is not; a harbour spared keeps its water")
    func grow() {
        var mask = Self.painted()
        let near = GeoPoint(latitude: 50.25 - 300 / 111_320.0, longitude: -3.5)
        let off = GeoPoint(latitude: 50.25 - 900 / 111_320.0, longitude: -3.5)
        let harbour = GeoPoint(latitude: 50.75 + 250 / 111_320.0, longitude: -3.5)
        #expect(!mask.isLand(near) && !mask.isLand(harbour))
        mask.grow(metres: 500, sparing: [harbour], within: 400)
        #expect(mask.isLand(near) && !mask.isLand(off))
        #expect(!mask.isLand(harbour))
        // The lake, 0.1° across, is grown over from its shores but for its middle 1.1 km.
        #expect(!mask.isLand(GeoPoint(latitude: 50.5, longitude: -3.5)))
    }
}

extension LandMaskTests {
    @Test(
        "a region to avoid closes its cells as land: a triangle's inside blocked, outside it open, legs through it found"
    )
    func region() {
        var mask = LandMask(south: 49.9, west: -4.1, north: 51.1, east: -2.9, cell: 1.0 / 512)!
        mask.block([
            GeoPoint(latitude: 50.2, longitude: -3.8), GeoPoint(latitude: 50.2, longitude: -3.2),
            GeoPoint(latitude: 50.8, longitude: -3.5),
        ])
        #expect(mask.isLand(GeoPoint(latitude: 50.3, longitude: -3.5)))
        #expect(!mask.isLand(GeoPoint(latitude: 50.7, longitude: -3.75)))
        #expect(!mask.isLand(GeoPoint(latitude: 50.15, longitude: -3.5)))
        #expect(mask.crossesLand(GeoPoint(latitude: 50.4, longitude: -4.0), GeoPoint(latitude: 50.4, longitude: -3.0)))
        // Half of 0.6° × 0.6°, in cells of 1/512°: about 47,186.
        #expect(abs(mask.landCells - 47_186) < 700)
    }
}
