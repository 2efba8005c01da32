/// The world's coastlines as the panel draws them under everything else (#42): GSHHG's shorelines, as Debian's
/// `gmt-gshhg-*` packages carry them (GMT's binned files), turned into filled rings a bin at a time.
///
/// GSHHG divides the world into square bins (bin 0 the north-west one, rows from the north). A shoreline crossing a
/// bin is kept in it as a segment from one side of the bin to another (0 south, 1 east, 2 north, 3 west; 4 for a
/// polygon wholly inside), its points in 1/65535ths of the bin from its south-west corner, oriented with the higher
/// level (land over sea, lake over land, island in a lake, pond on it) on its left; each corner of the bin carries
/// the level there. A bin's land is its segments joined by walking counter-clockwise along its sides from where one
/// leaves to where the next enters, corners taken in on the way: each closed ring is the higher side of what it
/// follows. Facts from GSHHG's documentation and GMT's reader of its files; Telltale's own code. Pure.
public enum BaseMap {
    /// One resolution of GSHHG: crude, low, intermediate, high, full, and the zoom from which the panel uses it.
    public enum Resolution: UInt8, CaseIterable, Sendable {
        case crude = 0
        case low, intermediate, high, full

        /// The letter GSHHG's files and the base map's are named with (`c`, `l`, `i`, `h`, `f`).
        public var letter: String { ["c", "l", "i", "h", "f"][Int(rawValue)] }
        /// The same as a byte (ASCII).
        public var byte: UInt8 { [0x63, 0x6C, 0x69, 0x68, 0x66][Int(rawValue)] }

        /// The first zoom level (Web Mercator) the panel draws this resolution at.
        public var fromZoom: Int {
            switch self {
            case .crude: 0
            case .low: 4
            case .intermediate: 6
            case .high: 8
            case .full: 10
            }
        }
    }

    /// The largest coordinate inside a bin (its north or east side).
    public static let side = 65535

    /// A segment as GSHHG keeps it: its level (1 to 4), the sides it enters and leaves by (4: closed inside the bin),
    /// and its points in the bin's own units.
    public struct Segment: Sendable, Equatable {
        public var level: Int
        public var entry: Int
        public var exit: Int
        public var x: [UInt16]
        public var y: [UInt16]

        public init(level: Int, entry: Int, exit: Int, x: [UInt16], y: [UInt16]) {
            self.level = level
            self.entry = entry
            self.exit = exit
            self.x = x
            self.y = y
        }
    }

    /// A filled ring: its level (odd is land, even is water) and its points, closed by returning to the first.
    public struct Ring: Sendable, Equatable {
        public var level: Int
        public var x: [UInt16]
        public var y: [UInt16]

        public init(level: Int, x: [UInt16], y: [UInt16]) {
            self.level = level
            self.x = x
            self.y = y
        }
    }

    /// How far along the bin's outline, counter-clockwise from the south-west corner within one side: the south side
    /// eastward, the east northward, the north westward, the west southward.
    static func position(side: Int, x: UInt16, y: UInt16) -> Int {
        switch side {
        case 0: Int(x)
        case 1: Int(y)
        case 2: Self.side - Int(x)
        default: Self.side - Int(y)
        }
    }

    /// The corner at the end of `side` going counter-clockwise: south ends at the south-east corner, and so on.
    static func corner(after side: Int) -> (UInt16, UInt16) {
        let far = UInt16(Self.side)
        switch side {
        case 0: return (far, 0)
        case 1: return (far, far)
        case 2: return (0, far)
        default: return (0, 0)
        }
    }

    /// A bin's rings, to be filled in order (later over earlier): the bin's own outline first when a land level
    /// covers its corners, then the rings its crossing segments make, then the polygons wholly inside it, by level.
    /// `corners`: the levels at the south-west, south-east, north-east and north-west corners. Nil when the
    /// segments do not join up (a broken file): the bin is left out rather than drawn wrong.
    public static func rings(segments given: [Segment], corners given4: [Int]) -> [Ring]? {
        guard given4.count == 4 else { return nil }
        // Antarctica comes twice: its ice front (level 5) and its grounding line (6). The ice front is its coast to a
        // sailor: land; the grounding line is left out.
        var segments: [Segment] = []
        for segment in given where segment.level != 6 {
            var kept = segment
            if kept.level == 5 { kept.level = 1 }
            segments.append(kept)
        }
        let corners = given4.map { $0 >= 5 ? 1 : $0 }
        var rings: [Ring] = []
        let crossing = segments.indices.filter { segments[$0].entry < 4 }
        let inside = segments.indices.filter { segments[$0].entry >= 4 }
        // No level above the highest a crossing segment has (a corner's level cannot exceed what bounds it).
        var highestCrossing = 0
        for index in crossing { highestCrossing = max(highestCrossing, segments[index].level) }
        let nodes = crossing.isEmpty ? corners : corners.map { min($0, highestCrossing) }
        if crossing.isEmpty {
            let level = nodes.max() ?? 0
            if level > 0 {
                let far = UInt16(Self.side)
                rings.append(Ring(level: level, x: [0, far, far, 0], y: [0, 0, far, far]))
            }
        } else {
            guard let walked = walk(segments, crossing: crossing, nodes: nodes) else { return nil }
            rings += walked
        }
        for level in 1...4 {
            for index in inside where segments[index].level == level {
                let segment = segments[index]
                guard segment.x.count >= 3, segment.x.count == segment.y.count else { continue }
                rings.append(Ring(level: level, x: segment.x, y: segment.y))
            }
        }
        return rings
    }

    /// The rings the crossing segments make, each walked counter-clockwise: a segment, then along the side it leaves
    /// by to the next entry further on (or that side's corner, then on along the next side), until back at the
    /// first. Each ring's level is the land level on its inside: the lowest level it passes, made odd.
    static func walk(_ segments: [Segment], crossing: [Int], nodes: [Int]) -> [Ring]? {
        // Each side's entries, by position along it; the corner at its end comes last (position beyond the side).
        var entries: [[(position: Int, segment: Int)]] = [[], [], [], []]
        for index in crossing {
            let segment = segments[index]
            guard segment.entry < 4, segment.exit < 4, !segment.x.isEmpty, segment.x.count == segment.y.count else {
                return nil
            }
            entries[segment.entry].append((position(side: segment.entry, x: segment.x[0], y: segment.y[0]), index))
        }
        for side in 0..<4 {
            entries[side].sort { $0.position < $1.position }
            entries[side].append((Self.side + 1, -1 - side))
        }
        var remaining = crossing.count
        var rings: [Ring] = []
        var steps = 0
        while remaining > 0 {
            // The first entry left, from the south side round.
            guard let startSide = (0..<4).first(where: { entries[$0].contains { $0.segment >= 0 } }) else {
                return nil
            }
            let start = entries[startSide][0].segment
            var ring = Ring(level: segments[start].level, x: segments[start].x, y: segments[start].y)
            var lowest = segments[start].level
            var side = segments[start].exit
            var closed = false
            while !closed {
                steps += 1
                guard steps < 100_000 else { return nil }
                let at = position(side: side, x: ring.x[ring.x.count - 1], y: ring.y[ring.y.count - 1])
                guard let next = entries[side].firstIndex(where: { $0.position >= at }) else { return nil }
                let found = entries[side].remove(at: next)
                if found.segment < 0 {
                    // The corner at the end of this side: taken in, then on along the next side.
                    let (x, y) = corner(after: side)
                    ring.x.append(x)
                    ring.y.append(y)
                    lowest = min(lowest, nodes[(side + 1) % 4])
                    side = (side + 1) % 4
                    continue
                }
                remaining -= 1
                if found.segment == start {
                    closed = true
                    continue
                }
                let segment = segments[found.segment]
                ring.x += segment.x
                ring.y += segment.y
                lowest = min(lowest, segment.level)
                side = segment.exit
            }
            ring.level = 2 * ((max(lowest, 1) - 1) / 2) + 1
            rings.append(ring)
        }
        return rings
    }

    /// Land (an odd level) or water at a point of a bin, from its rings filled in order.
    public static func level(at x: Double, _ y: Double, rings: [Ring]) -> Int {
        var level = 0
        for ring in rings where contains(ring, x, y) { level = ring.level }
        return level
    }

    /// Whether a ring holds a point (even-odd rule).
    static func contains(_ ring: Ring, _ px: Double, _ py: Double) -> Bool {
        var inside = false
        var j = ring.x.count - 1
        for i in 0..<ring.x.count {
            let xi = Double(ring.x[i])
            let yi = Double(ring.y[i])
            let xj = Double(ring.x[j])
            let yj = Double(ring.y[j])
            if (yi > py) != (yj > py), px < (xj - xi) * (py - yi) / (yj - yi) + xi { inside.toggle() }
            j = i
        }
        return inside
    }
}
