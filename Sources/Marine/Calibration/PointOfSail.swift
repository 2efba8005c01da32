/// The point of sail an apparent wind angle says, for the upwash (``SailingCalibration``): upwind (all of it to 40°
/// apparent, none from 90°), reaching (all of it from 90° to 100°) and downwind (none to 100°, all of it from 140°),
/// each fading linearly into the next, so that the three shares add to one at every angle.
public enum PointOfSail: String, Hashable, Sendable, CaseIterable {
    case upwind, reach, downwind

    /// The three shares at an apparent wind angle's size (degrees, 0 to 180).
    public static func shares(_ size: Double) -> (upwind: Double, reach: Double, downwind: Double) {
        let up = size <= 40 ? 1 : size >= 90 ? 0 : (90 - size) / 50
        let down = size >= 140 ? 1 : size <= 100 ? 0 : (size - 100) / 40
        return (up, 1 - up - down, down)
    }

    /// This point of sail's share at an apparent wind angle's size.
    public func share(_ size: Double) -> Double {
        let all = Self.shares(size)
        switch self {
        case .upwind: return all.upwind
        case .reach: return all.reach
        case .downwind: return all.downwind
        }
    }
}
