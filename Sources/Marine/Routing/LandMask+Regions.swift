extension LandMask {
    /// Closes a region to the route as if it were land (the Resources API's `regions` the crew marks to avoid: a
    /// traffic separation scheme, a firing range, a reef the base map does not have): its cells whose centres are
    /// inside the polygon (even-odd, longitudes in the area's own), outlines given as (latitude, longitude) points.
    public mutating func block(_ outline: [GeoPoint]) {
        guard outline.count >= 3 else { return }
        let points = outline.map { (y: ($0.latitude - south) / cell, x: (unwrapped($0.longitude) - west) / cell) }
        let low = max(0, Int((points.map { $0.y }.min() ?? 0).rounded(.down)))
        let high = min(rows - 1, Int((points.map { $0.y }.max() ?? 0).rounded(.up)))
        guard low <= high else { return }
        var crossings: [Double] = []
        for row in low...high {
            let y = Double(row) + 0.5
            crossings.removeAll(keepingCapacity: true)
            var j = points.count - 1
            for i in points.indices {
                let a = points[j]
                let b = points[i]
                j = i
                guard (a.y > y) != (b.y > y) else { continue }
                crossings.append(a.x + (y - a.y) * (b.x - a.x) / (b.y - a.y))
            }
            crossings.sort()
            var k = 0
            while k + 1 < crossings.count {
                let from = max(0, Int((crossings[k] - 0.5).rounded(.up)))
                let to = min(columns - 1, Int((crossings[k + 1] - 0.5).rounded(.up)) - 1)
                if from <= to { for column in from...to { set(row, column, true) } }
                k += 2
            }
        }
    }
}
