/// Land and water over the area of a passage, as the weather router needs it: a raster of cells a fraction of a
/// degree on a side, each land or water, painted from the base map's GSHHG rings (``BaseMap``) and grown by a margin
/// so that no leg passes closer to a coast than that. Outside its area everything is land: a route stays inside.
///
/// Longitudes inside the area run from its west edge eastward, past 180° if it crosses the antimeridian. Pure; one
/// bit a cell (a 4° square at 1/1024° is 2 MB), with a coarse table of blocks that hold any land, so that a leg over
/// open water is checked in a few lookups.
public struct LandMask: Sendable {
    public let south: Double
    public let west: Double
    /// The side of a cell, degrees.
    public let cell: Double
    public let rows: Int
    public let columns: Int
    /// A bit a cell, row by row from the south edge, west to east in each.
    var bits: [UInt64]
    /// One byte a block of `block` x `block` cells: whether any of its cells is land.
    var blocks: [UInt8]
    static let block = 16
    let wordsPerRow: Int
    let blockColumns: Int

    /// An area of water, `south`...`north` and `west`...`east` degrees (east may exceed 180 to cross the antimeridian),
    /// in cells of `cell` degrees; nil for an empty area or one over 2^28 cells.
    public init?(south: Double, west: Double, north: Double, east: Double, cell: Double) {
        guard cell > 0, north > south, east > west, south >= -90, north <= 90, east - west <= 360 else { return nil }
        let rows = Int(((north - south) / cell).rounded(.up))
        let columns = Int(((east - west) / cell).rounded(.up))
        guard rows > 0, columns > 0, rows * columns <= 1 << 28 else { return nil }
        self.south = south
        self.west = west
        self.cell = cell
        self.rows = rows
        self.columns = columns
        wordsPerRow = (columns + 63) / 64
        bits = [UInt64](repeating: 0, count: wordsPerRow * rows)
        blockColumns = (columns + Self.block - 1) / Self.block
        blocks = [UInt8](repeating: 0, count: blockColumns * ((rows + Self.block - 1) / Self.block))
    }

    /// The north and east edges.
    public var north: Double { south + Double(rows) * cell }
    public var east: Double { west + Double(columns) * cell }

    /// The area's own longitude of `longitude`: from its west edge eastward, in [west, west + 360).
    public func unwrapped(_ longitude: Double) -> Double {
        var x = (longitude - west).truncatingRemainder(dividingBy: 360)
        if x < 0 { x += 360 }
        return west + x
    }

    /// The cell of a point, or nil outside the area.
    func cellOf(latitude: Double, longitude: Double) -> (row: Int, column: Int)? {
        let y = (latitude - south) / cell
        let x = (unwrapped(longitude) - west) / cell
        guard y >= 0, x >= 0, y < Double(rows), x < Double(columns) else { return nil }
        return (Int(y), Int(x))
    }

    func isSet(_ row: Int, _ column: Int) -> Bool {
        bits[row * wordsPerRow + column >> 6] & (1 << UInt64(column & 63)) != 0
    }

    mutating func set(_ row: Int, _ column: Int, _ land: Bool) {
        let index = row * wordsPerRow + column >> 6
        let mask: UInt64 = 1 << UInt64(column & 63)
        if land {
            bits[index] |= mask
            blocks[(row / Self.block) * blockColumns + column / Self.block] = 1
        } else {
            bits[index] &= ~mask
        }
    }

    /// Whether a point is land (or outside the area).
    public func isLand(_ point: GeoPoint) -> Bool {
        guard let (row, column) = cellOf(latitude: point.latitude, longitude: point.longitude) else { return true }
        return isSet(row, column)
    }

    /// Whether the straight line (on the chart: rhumb-like, short legs) from `a` to `b` touches land: the blocks it
    /// passes through walked one after another (Amanatides and Woo's traversal), and only within a block that has
    /// land, the line sampled every half cell.
    public func crossesLand(_ a: GeoPoint, _ b: GeoPoint) -> Bool {
        let ay = (a.latitude - south) / cell
        let ax = (unwrapped(a.longitude) - west) / cell
        let by = (b.latitude - south) / cell
        let bx = (unwrapped(b.longitude) - west) / cell
        let limitX = Double(columns)
        let limitY = Double(rows)
        guard ax >= 0, ay >= 0, bx >= 0, by >= 0, ax < limitX, ay < limitY, bx < limitX, by < limitY else {
            return true
        }
        let size = Double(Self.block)
        let (x0, y0, x1, y1) = (ax / size, ay / size, bx / size, by / size)
        var column = Int(x0)
        var row = Int(y0)
        let lastColumn = Int(x1)
        let lastRow = Int(y1)
        let stepX = x1 > x0 ? 1 : -1
        let stepY = y1 > y0 ? 1 : -1
        let dx = x1 - x0
        let dy = y1 - y0
        var nextX = dx == 0 ? Double.infinity : ((stepX > 0 ? Double(column + 1) : Double(column)) - x0) / dx
        var nextY = dy == 0 ? Double.infinity : ((stepY > 0 ? Double(row + 1) : Double(row)) - y0) / dy
        let deltaX = dx == 0 ? Double.infinity : abs(1 / dx)
        let deltaY = dy == 0 ? Double.infinity : abs(1 / dy)
        var enter = 0.0
        let cells = max(abs(bx - ax), abs(by - ay))
        while true {
            let leave = min(nextX, nextY, 1)
            if blocks[row * blockColumns + column] != 0 {
                let samples = max(1, Int((cells * (leave - enter) * 2).rounded(.up)))
                for step in 0...samples {
                    let f = enter + (leave - enter) * Double(step) / Double(samples)
                    let y = Int(ay + (by - ay) * f)
                    let x = Int(ax + (bx - ax) * f)
                    if y >= 0, x >= 0, y < rows, x < columns, isSet(y, x) { return true }
                }
            }
            if (column == lastColumn && row == lastRow) || leave >= 1 { return false }
            if nextX < nextY {
                column += stepX
                enter = nextX
                nextX += deltaX
            } else {
                row += stepY
                enter = nextY
                nextY += deltaY
            }
            guard column >= 0, row >= 0, column < blockColumns, row * blockColumns < blocks.count else { return false }
        }
    }

    /// How many cells are land (for the tests and the log).
    public var landCells: Int { bits.reduce(0) { $0 + $1.nonzeroBitCount } }
}
