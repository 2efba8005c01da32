extension LandMask {
    /// Paints one base-map bin (`bin` of bins `binMinutes` on a side, as ``BaseMap/bin(latitude:longitude:binMinutes:)``
    /// numbers them) into the cells whose centres fall in it: its rings filled in order, later over earlier, odd
    /// levels land and even water, as the panel draws them.
    public mutating func paint(bin: Int, binMinutes: Int, rings: [BaseMap.Ring]) {
        guard binMinutes > 0, 21_600 % binMinutes == 0 else { return }
        let size = Double(binMinutes) / 60
        let across = 21_600 / binMinutes
        let binSouth = 90 - Double(bin / across + 1) * size
        // The bin's east edge in the area's longitudes, less a bin: its west edge may lie west of the area's.
        let binWest = unwrapped(Double(bin % across + 1) * size) - size
        let firstRow = max(0, Int(((binSouth - south) / cell - 0.5).rounded(.up)))
        let lastRow = min(rows - 1, Int(((binSouth + size - south) / cell - 0.5).rounded(.up)) - 1)
        let firstColumn = max(0, Int(((binWest - west) / cell - 0.5).rounded(.up)))
        let lastColumn = min(columns - 1, Int(((binWest + size - west) / cell - 0.5).rounded(.up)) - 1)
        guard firstRow <= lastRow, firstColumn <= lastColumn else { return }
        let unitsPerDegree = Double(BaseMap.side) / size
        // Each row's centre in the bin's units, and each column's.
        let ys = (firstRow...lastRow).map { (south + (Double($0) + 0.5) * cell - binSouth) * unitsPerDegree }
        let firstX = (west + (Double(firstColumn) + 0.5) * cell - binWest) * unitsPerDegree
        let stepX = cell * unitsPerDegree
        var crossings = [[Double]](repeating: [], count: ys.count)
        var touched: [Int] = []
        for ring in rings {
            let land = ring.level % 2 == 1
            touched.removeAll(keepingCapacity: true)
            var j = ring.x.count - 1
            for i in 0..<ring.x.count {
                let x1 = Double(ring.x[j])
                let y1 = Double(ring.y[j])
                let x2 = Double(ring.x[i])
                let y2 = Double(ring.y[i])
                j = i
                guard y1 != y2 else { continue }
                // The rows whose centre lies in [min, max) of the edge: each crossing counted once.
                let low = min(y1, y2)
                let high = max(y1, y2)
                var first = Int(((low - ys[0]) / (cell * unitsPerDegree)).rounded(.up))
                var last = Int(((high - ys[0]) / (cell * unitsPerDegree)).rounded(.up)) - 1
                first = max(first, 0)
                last = min(last, ys.count - 1)
                guard first <= last else { continue }
                for row in first...last {
                    let y = ys[row]
                    guard y >= low, y < high else { continue }
                    if crossings[row].isEmpty { touched.append(row) }
                    crossings[row].append(x1 + (y - y1) * (x2 - x1) / (y2 - y1))
                }
            }
            for row in touched {
                crossings[row].sort()
                var k = 0
                while k + 1 < crossings[row].count {
                    let from = max(firstColumn, firstColumn + Int(((crossings[row][k] - firstX) / stepX).rounded(.up)))
                    let to = min(
                        lastColumn, firstColumn + Int(((crossings[row][k + 1] - firstX) / stepX).rounded(.up)) - 1)
                    if from <= to { for column in from...to { set(firstRow + row, column, land) } }
                    k += 2
                }
                crossings[row].removeAll(keepingCapacity: true)
            }
        }
    }

    /// Grows the land by `metres` on every side (a square of cells, so up to √2 more on the diagonals), except within
    /// `within` metres of the points `spared` (a harbour the passage leaves from or goes to keeps its way out).
    public mutating func grow(metres: Double, sparing spared: [GeoPoint] = [], within: Double = 0) {
        guard metres > 0 else { return }
        let latitude = max(abs(south), abs(north))
        let northward = Int((metres / (cell * 111_320)).rounded(.up))
        let eastward = Int((metres / (cell * 111_320 * max(cos(latitude * Double.pi / 180), 0.01))).rounded(.up))
        let kept = spared.map { window(around: $0, metres: within) }
        let original = kept.map { window in window.map { cells(in: $0) } }
        for _ in 0..<eastward { growEastWest() }
        for _ in 0..<northward { growNorthSouth() }
        for (window, cells) in zip(kept, original) {
            guard let window, let cells else { continue }
            var index = 0
            for row in window.rows {
                for column in window.columns {
                    set(row, column, cells[index])
                    index += 1
                }
            }
        }
        refreshBlocks()
    }

    func window(around point: GeoPoint, metres: Double) -> (rows: ClosedRange<Int>, columns: ClosedRange<Int>)? {
        guard metres > 0, let (row, column) = cellOf(latitude: point.latitude, longitude: point.longitude) else {
            return nil
        }
        let dy = Int((metres / (cell * 111_320)).rounded(.up))
        let dx = Int((metres / (cell * 111_320 * max(cos(point.latitude * Double.pi / 180), 0.01))).rounded(.up))
        return (max(0, row - dy)...min(rows - 1, row + dy), max(0, column - dx)...min(columns - 1, column + dx))
    }

    func cells(in window: (rows: ClosedRange<Int>, columns: ClosedRange<Int>)) -> [Bool] {
        var out: [Bool] = []
        for row in window.rows { for column in window.columns { out.append(isSet(row, column)) } }
        return out
    }

    mutating func growEastWest() {
        for row in 0..<rows {
            let base = row * wordsPerRow
            var previous: UInt64 = 0
            for word in 0..<wordsPerRow {
                let value = bits[base + word]
                let next = word + 1 < wordsPerRow ? bits[base + word + 1] : 0
                // Bit k is column 64·word + k: a land bit spreads to k − 1 and k + 1, across the words' edges.
                let grown = value | (value << 1) | (value >> 1) | (previous >> 63) | (next << 63)
                previous = value
                bits[base + word] = grown
            }
        }
    }

    mutating func growNorthSouth() {
        var below = [UInt64](repeating: 0, count: wordsPerRow)
        for row in 0..<rows {
            let base = row * wordsPerRow
            for word in 0..<wordsPerRow {
                let value = bits[base + word]
                let above = row + 1 < rows ? bits[base + wordsPerRow + word] : 0
                bits[base + word] = value | above | below[word]
                below[word] = value
            }
        }
    }

    mutating func refreshBlocks() {
        for index in blocks.indices { blocks[index] = 0 }
        for row in 0..<rows {
            for word in 0..<wordsPerRow where bits[row * wordsPerRow + word] != 0 {
                var value = bits[row * wordsPerRow + word]
                while value != 0 {
                    let column = word * 64 + value.trailingZeroBitCount
                    value &= value - 1
                    guard column < columns else { break }
                    blocks[(row / Self.block) * blockColumns + column / Self.block] = 1
                }
            }
        }
    }
}
