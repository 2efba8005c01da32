/// The upwash by true wind speed (``SailingCalibration/upwashByWind``): degrees added to the size of the apparent
/// angle, upwind and downwind, and reaching when the reaches told it, at a few wind speeds (knots), linear between
/// them and flat beyond. The sails bend the flow round the mast more in a light breeze, when the boat sails with the
/// sheets eased and the flow is slow, than in a strong one; a single value is right at one wind speed only. Empty:
/// the single values apply.
public struct UpwashByWind: Hashable, Sendable {
    public var windSpeeds: [Double]
    public var upwind: [Double]
    public var downwind: [Double]
    /// Reaching; empty: the single reaching value at every wind speed.
    public var reach: [Double]

    /// `windSpeeds` increasing, one value of each for each (`reach` one for each, or none).
    public init(windSpeeds: [Double] = [], upwind: [Double] = [], downwind: [Double] = [], reach: [Double] = []) {
        let count = min(windSpeeds.count, upwind.count, downwind.count)
        self.windSpeeds = Array(windSpeeds.prefix(count))
        self.upwind = Array(upwind.prefix(count))
        self.downwind = Array(downwind.prefix(count))
        self.reach = reach.count >= count ? Array(reach.prefix(count)) : []
    }

    public var isEmpty: Bool { windSpeeds.isEmpty }

    public func upwind(at windSpeed: Double) -> Double { Self.interpolated(windSpeeds, upwind, windSpeed) }
    public func downwind(at windSpeed: Double) -> Double { Self.interpolated(windSpeeds, downwind, windSpeed) }
    /// Nil without a reaching row.
    public func reach(at windSpeed: Double) -> Double? {
        reach.isEmpty ? nil : Self.interpolated(windSpeeds, reach, windSpeed)
    }

    /// This table with `upwind`, `downwind` and `reach` degrees added at every wind speed (the reach only to a
    /// reaching row).
    public func adding(upwind addedUp: Double, downwind addedDown: Double, reach addedReach: Double = 0)
        -> UpwashByWind
    {
        UpwashByWind(
            windSpeeds: windSpeeds, upwind: upwind.map { $0 + addedUp }, downwind: downwind.map { $0 + addedDown },
            reach: reach.map { $0 + addedReach })
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
