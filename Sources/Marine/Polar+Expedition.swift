/// A polar written out in Expedition's layout (a row per wind speed: the wind speed, then angle and speed pairs, tab
/// separated), which Expedition and ``Polar/parse(_:)`` read: the boat's learnt polar exported for the navigator's
/// own tools. Only the points a curve has are written; a curve with none is left out.
extension Polar {
    public var expeditionText: String {
        var lines = ["!Expedition polar: true wind speed (kn), then true wind angle (°) and boat speed (kn) pairs"]
        for curve in curves {
            let points = zip(curve.angles, curve.speeds).filter { $0.0 > 0 && $0.1 > 0 }
            guard !points.isEmpty else { continue }
            var cells = [FixedDecimal.text(curve.windSpeed, decimals: 1)]
            for (angle, speed) in points {
                cells.append(FixedDecimal.text(angle, decimals: 1))
                cells.append(FixedDecimal.text(speed, decimals: 2))
            }
            lines.append(cells.joined(separator: "\t"))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
