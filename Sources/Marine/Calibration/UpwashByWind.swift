/// The upwash by true wind speed (``SailingCalibration/upwashByWind``): degrees added to the size of the apparent
/// angle, upwind and downwind, at a few wind speeds (knots), linear between them and flat beyond. The sails bend the
/// flow round the mast more in a light breeze, when the boat sails with the sheets eased and the flow is slow, than
/// in a strong one; a single value is right at one wind speed only. Empty: the single values apply.
public struct UpwashByWind: Hashable, Sendable {
    public var windSpeeds: [Double]
    public var upwind: [Double]
    public var downwind: [Double]

    /// `windSpeeds` increasing, one value of each for each.
    public init(windSpeeds: [Double] = [], upwind: [Double] = [], downwind: [Double] = []) {
        let count = min(windSpeeds.count, upwind.count, downwind.count)
        self.windSpeeds = Array(windSpeeds.prefix(count))
        self.upwind = Array(upwind.prefix(count))
        self.downwind = Array(downwind.prefix(count))
    }

    public var isEmpty: Bool { windSpeeds.isEmpty }

    public func upwind(at windSpeed: Double) -> Double { Self.interpolated(windSpeeds, upwind, windSpeed) }
    public func downwind(at windSpeed: Double) -> Double { Self.interpolated(windSpeeds, downwind, windSpeed) }

    /// This table with `upwind` and `downwind` degrees added at every wind speed.
    public func adding(upwind addedUp: Double, downwind addedDown: Double) -> UpwashByWind {
        UpwashByWind(
            windSpeeds: windSpeeds, upwind: upwind.map { $0 + addedUp }, downwind: downwind.map { $0 + addedDown })
    }

    static func interpolated(_ xs: [Double], _ ys: [Double], _ x: Double) -> Double {
        guard let first = xs.first, let last = xs.last else { return 0 }
        if x <= first { return ys[0] }
        if x >= last { return ys[ys.count - 1] }
        var upper = 1
        while upper < xs.count - 1 && xs[upper] < x { upper += 1 }
        let f = (x - xs[upper - 1]) / (xs[upper] - xs[upper - 1])
        return ys[upper - 1] + f * (ys[upper] - ys[upper - 1])
    }
}
