import Testing

@testable import Marine

/// The base map (#42): a bin's segments joined into filled rings as GSHHG means them, the file's bytes there and
/// back, and bytes that are not a base map refused.
@Suite struct BaseMapTests {
    typealias Segment = BaseMap.Segment
    static let far: UInt16 = 65535

    @Test("a coast across the bin, land to the south: one ring taking in the two southern corners")
    func coastAcross() throws {
        // West to east along the middle, land on its left going west (so the segment runs east to west).
        let coast = Segment(
            level: 1, entry: 1, exit: 3, x: [Self.far, 40000, 20000, 0], y: [30000, 35000, 28000, 32000])
        let rings = try #require(BaseMap.rings(segments: [coast], corners: [1, 1, 0, 0]))
        #expect(rings.count == 1 && rings[0].level == 1)
        #expect(
            rings[0].x == [Self.far, 40000, 20000, 0, 0, Self.far] && rings[0].y == [30000, 35000, 28000, 32000, 0, 0])
        #expect(BaseMap.level(at: 30000, 10000, rings: rings) == 1, "south: land")
        #expect(BaseMap.level(at: 30000, 60000, rings: rings) == 0, "north: sea")
    }

    @Test("a peninsula from the west side, an island wholly inside, a lake on it, a whole bin of land")
    func shapes() throws {
        let peninsula = Segment(level: 1, entry: 3, exit: 3, x: [0, 30000, 30000, 0], y: [20000, 20000, 40000, 40000])
        let island = Segment(
            level: 1, entry: 4, exit: 4, x: [45000, 60000, 60000, 45000], y: [45000, 45000, 60000, 60000])
        let lake = Segment(
            level: 2, entry: 4, exit: 4, x: [50000, 55000, 55000, 50000], y: [50000, 50000, 55000, 55000])
        let rings = try #require(BaseMap.rings(segments: [lake, peninsula, island], corners: [0, 0, 0, 0]))
        #expect(rings.map(\.level) == [1, 1, 2], "crossing rings first, then inside ones by level")
        #expect(BaseMap.level(at: 10000, 30000, rings: rings) == 1, "on the peninsula")
        #expect(BaseMap.level(at: 40000, 30000, rings: rings) == 0, "off it")
        #expect(BaseMap.level(at: 47000, 47000, rings: rings) == 1, "on the island")
        #expect(BaseMap.level(at: 52000, 52000, rings: rings) == 2, "in its lake")
        let land = try #require(BaseMap.rings(segments: [], corners: [1, 1, 1, 1]))
        #expect(land.count == 1 && land[0].level == 1 && BaseMap.level(at: 100, 65000, rings: land) == 1)
        #expect(BaseMap.rings(segments: [], corners: [0, 0, 0, 0]) == [], "open sea: nothing to draw")
        // Antarctica's grounding line (level 6) left out; its ice front (5) is land.
        let ice = Segment(level: 5, entry: 1, exit: 3, x: [Self.far, 0], y: [40000, 40000])
        let grounding = Segment(level: 6, entry: 1, exit: 3, x: [Self.far, 0], y: [30000, 30000])
        let antarctic = try #require(BaseMap.rings(segments: [ice, grounding], corners: [5, 5, 0, 0]))
        #expect(antarctic.count == 1 && antarctic[0].level == 1 && antarctic[0].y.first == 40000)
    }

    @Test("segments that do not join up: the bin is left out rather than drawn wrong")
    func broken() {
        let bad = Segment(level: 1, entry: 1, exit: 7, x: [Self.far, 0], y: [100, 200])
        #expect(BaseMap.rings(segments: [bad], corners: [0, 0, 0, 0]) == nil)
        let empty = Segment(level: 1, entry: 0, exit: 2, x: [], y: [])
        #expect(BaseMap.rings(segments: [empty], corners: [0, 0, 0, 0]) == nil)
        #expect(BaseMap.rings(segments: [], corners: [0, 0]) == nil)
    }

    @Test("the file: bins there and back, a bin found by its place, and what is not a base map refused")
    func file() throws {
        let coast = Segment(level: 1, entry: 1, exit: 3, x: [Self.far, 40000, 0], y: [30000, 35000, 32000])
        let ring = try #require(BaseMap.rings(segments: [coast], corners: [1, 1, 0, 0]))
        var bins = [[BaseMap.Ring]](repeating: [], count: 162)
        bins[3] = ring
        bins[100] = [BaseMap.Ring(level: 1, x: [0, Self.far, Self.far, 0], y: [0, 0, Self.far, Self.far])]
        let bytes = BaseMap.encode(resolution: .crude, binMinutes: 1200, binsAcross: 18, bins: bins)
        try bytes.withUnsafeBytes { raw in
            let header = try #require(BaseMap.Header(raw))
            #expect(header.letter == 0x63 && header.binMinutes == 1200 && header.binCount == 162)
            for (bin, expected) in [(3, ring), (100, bins[100]), (0, [])] {
                let range = try #require(header.range(of: bin, in: raw))
                #expect(BaseMap.decode(bytes[range]) == expected, "bin \(bin)")
            }
            #expect(header.range(of: 162, in: raw) == nil && header.range(of: -1, in: raw) == nil)
            #expect(BaseMap.Header(UnsafeRawBufferPointer(rebasing: raw[0..<100])) == nil, "cut short")
        }
        var wrong = bytes
        wrong[0] = 0x58
        #expect(wrong.withUnsafeBytes { BaseMap.Header($0) } == nil)
        // The Solent's bin at the full resolution, and the crude one's over the date line.
        #expect(BaseMap.bin(latitude: 50.75, longitude: -1.3, binMinutes: 60) == 39 * 360 + 358)
        #expect(BaseMap.bin(latitude: -89.99, longitude: 179.99, binMinutes: 1200) == 8 * 18 + 8)
        #expect(BaseMap.bin(latitude: -89.99, longitude: -0.01, binMinutes: 1200) == 161, "bins run east from 0°")
        #expect(BaseMap.bin(latitude: 89.99, longitude: -180, binMinutes: 1200) == 9)
    }

    @Test("a broken header or offset past 2^31 (the Pi's 32-bit Int): refused, the other bins still found")
    func largeNumbers() throws {
        let ring = BaseMap.Ring(level: 1, x: [0, 100, 200, 100], y: [0, 50, 0, 100])
        var bytes = BaseMap.encode(
            resolution: .crude, binMinutes: 1200, binsAcross: 18, bins: [[ring]] + Array(repeating: [], count: 161))
        var huge = bytes
        for at in 6..<10 { huge[at] = 0xFF }  // bin minutes and bins across 65,535 each: their product past 2^31
        #expect(huge.withUnsafeBytes { BaseMap.Header($0) } == nil)
        // Bin 5's end and bin 6's start: 0x90000000, past the file and past Int32.max.
        let at = BaseMap.headerSize + 4 * 6
        bytes.replaceSubrange(at..<at + 4, with: [0x00, 0x00, 0x00, 0x90])
        try bytes.withUnsafeBytes { raw in
            let header = try #require(BaseMap.Header(raw))
            #expect(header.range(of: 5, in: raw) == nil && header.range(of: 6, in: raw) == nil)
            let first = try #require(header.range(of: 0, in: raw))
            #expect(BaseMap.decode(bytes[first]) == [ring])
        }
    }

    @Test("bin bytes that are broken: cut short, counts too large, steps off the bin: refused, never a crash")
    func hostileBins() throws {
        let ring = BaseMap.Ring(level: 1, x: [0, 100, 200, 100], y: [0, 50, 0, 100])
        let bytes = BaseMap.encode(
            resolution: .crude, binMinutes: 1200, binsAcross: 18, bins: [[ring]] + Array(repeating: [], count: 161))
        let data = Array(bytes[(BaseMap.headerSize + 4 * 163)...])
        #expect(BaseMap.decode(data[...]) == [ring])
        for cut in 1..<data.count { #expect(BaseMap.decode(data[0..<cut]) == nil, "cut at \(cut)") }
        #expect(BaseMap.decode([0xFF, 0xFF, 0xFF, 0xFF, 0x7F][...]) == nil, "a count larger than the bytes")
        var off = data
        off[off.count - 1] = 0x7F  // the last step in y: −64 from 100 goes on, +63... a large step below zero
        off[off.count - 2] = 0xFF
        off.append(0x7F)
        #expect(BaseMap.decode(off[...]) == nil)
        var generator = SystemRandomNumberGenerator()
        // Numbers a broken file may hold past 2^31 (negative as the Pi's 32-bit Int): a count, a point's step.
        #expect(BaseMap.decode([0x80, 0x80, 0x80, 0x80, 0x0F][...]) == nil, "a count of 2^31 or more")
        #expect(BaseMap.decode([0x01, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0x07, 0, 0, 0, 0][...]) == nil, "points 2^31 - 1")
        for _ in 0..<2000 {
            var changed = data
            changed[Int.random(in: 0..<changed.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            for ring in BaseMap.decode(changed[...]) ?? [] { #expect(ring.x.count == ring.y.count) }
        }
    }
}
