/// The polar the router sails by once the boat's own has been learnt (`telltale calibrate sailing --polar`): the
/// configured polar, each of its points scaled by how the boat really sailed nearby.
extension Polar {
    /// How far a learnt point reaches: a configured point takes the ratio of the nearest learnt point within this
    /// many degrees of true wind angle and knots of true wind speed (about a learnt cell's own width), and keeps its
    /// speed where none is that near.
    public static let learntReach = (angle: 10.0, windSpeed: 2.5)

    /// This polar where `learnt` (a sparse table: the cells the boat has sailed steadily) has no data, and scaled to
    /// it where it has: each point's speed times learnt ÷ this polar's speed at the nearest learnt point. At a learnt
    /// point that lies on this polar's grid the result is the learnt speed itself; between, the ratio carries the
    /// shape of this polar; the targets are found again on the scaled curves.
    public func learnt(_ learnt: Polar) -> Polar {
        var ratios: [(angle: Double, windSpeed: Double, ratio: Double)] = []
        for curve in learnt.curves {
            for (angle, speed) in zip(curve.angles, curve.speeds) where angle > 0 {
                let mine = self.speed(angle: angle, windSpeed: curve.windSpeed)
                if mine > 0 { ratios.append((angle, curve.windSpeed, speed / mine)) }
            }
        }
        guard !ratios.isEmpty else { return self }
        func ratio(_ angle: Double, _ windSpeed: Double) -> Double {
            var best: (distance: Double, ratio: Double)?
            for point in ratios {
                let da = (point.angle - angle) / Self.learntReach.angle
                let dw = (point.windSpeed - windSpeed) / Self.learntReach.windSpeed
                guard abs(da) <= 1, abs(dw) <= 1 else { continue }
                let distance = da * da + dw * dw
                if best.map({ distance < $0.distance }) ?? true { best = (distance, point.ratio) }
            }
            return best?.ratio ?? 1
        }
        return Polar(
            curves: curves.map { curve in
                Curve(
                    windSpeed: curve.windSpeed,
                    points: zip(curve.angles, curve.speeds).map { ($0, $1 * ratio($0, curve.windSpeed)) })
            })
    }
}
