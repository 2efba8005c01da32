import Marine
import Platform

/// The land a passage is routed round: the base map's finest resolution on board (GSHHG full: 1° bins) painted into a
/// ``LandMask`` over the passage's area, in cells of 1/1024° (about 110 m north to south) or coarser for a long
/// passage (at most 2^26 cells), grown by the margin but round the start and the destination.
enum RouteLand {
    static func mask(for area: RouteArea, from: GeoPoint, to: GeoPoint, options: RoutePlanOptions)
        throws(CommandError) -> LandMask
    {
        guard let folder = BaseMapFiles.find(configured: options.basemap) else {
            throw CommandError("route plan: no base map here (make basemap, or --basemap FOLDER)", status: 69)
        }
        let span = (area.north - area.south) * (area.east - area.west)
        let cell = max(1.0 / 1024, (span / Double(1 << 26)).squareRoot())
        guard
            var mask = LandMask(south: area.south, west: area.west, north: area.north, east: area.east, cell: cell)
        else { throw CommandError("route plan: the passage's area is too large to route", status: 65) }
        let letters = ["f", "h", "i", "l", "c"]
        guard let path = letters.map({ folder + "/basemap-" + $0 + ".ttbm" }).first(where: { POSIX.exists($0) }) else {
            throw CommandError("route plan: \(folder) has no base map file", status: 69)
        }
        let bytes: UnsafeRawBufferPointer
        do { bytes = try POSIX.map(path, limit: 256 << 20) } catch {
            throw CommandError("route plan: \(error)", status: 66)
        }
        defer { POSIX.unmap(bytes) }
        guard let header = BaseMap.Header(bytes) else {
            throw CommandError("route plan: \(path) is not a base map file", status: 65)
        }
        for bin in bins(area, binMinutes: header.binMinutes) {
            guard let range = header.range(of: bin, in: bytes) else { continue }
            guard let rings = BaseMap.decode(Array(bytes[range])[...]) else {
                throw CommandError("route plan: \(path): bin \(bin) does not read", status: 65)
            }
            mask.paint(bin: bin, binMinutes: header.binMinutes, rings: rings)
        }
        for path in options.avoid {
            for outline in try RouteRegions.outlines(path) { mask.block(outline) }
        }
        mask.grow(metres: options.margin, sparing: [from, to], within: options.margin + 3 * cell * 111_320)
        return mask
    }

    /// The bins of `binMinutes` that the area touches.
    static func bins(_ area: RouteArea, binMinutes: Int) -> [Int] {
        let size = Double(binMinutes) / 60
        let across = 21_600 / binMinutes
        let firstRow = max(0, Int((90 - area.north) / size))
        let lastRow = min(across / 2 - 1, Int((90 - area.south) / size))
        let firstColumn = Int((area.west / size).rounded(.down))
        let lastColumn = Int((area.east / size).rounded(.down))
        var out: [Int] = []
        for row in firstRow...max(firstRow, lastRow) {
            for column in firstColumn...max(firstColumn, lastColumn) {
                let wrapped = ((column % across) + across) % across
                out.append(row * across + wrapped)
            }
        }
        return out
    }
}
