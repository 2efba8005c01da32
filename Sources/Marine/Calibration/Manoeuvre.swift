/// A tack or a gybe found in sailing samples, with the steady sailing just before and just after it: the two
/// windows whose true wind direction should be the same (``ManoeuvreFinder``).
public struct Manoeuvre: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable {
        case tack, gybe
        /// From upwind to downwind, and back (the true wind angle crossing the beam): the wind speed's invariant.
        case bearAway = "bear_away"
        case roundUp = "round_up"
    }

    public var kind: Kind
    /// When the true wind angle changed sides (the sample's time).
    public var time: Double
    /// +1 when the boat was on starboard tack before it (the wind on her starboard side), -1 on port.
    public var sideBefore: Double
    /// Sample indices of the steady windows, `before.upperBound <= after.lowerBound`.
    public var before: Range<Int>
    public var after: Range<Int>

    public init(kind: Kind, time: Double, sideBefore: Double, before: Range<Int>, after: Range<Int>) {
        self.kind = kind
        self.time = time
        self.sideBefore = sideBefore
        self.before = before
        self.after = after
    }
}

extension Manoeuvre {
    /// Hours between two manoeuvres that start a new day of sailing.
    public static let dayGap = 6.0

    /// The day of sailing of each of `manoeuvres` (an index, in their order): a new day after `dayGap` hours without
    /// a manoeuvre, so that a day is a day on the water wherever the boat is and whatever the clock's zone.
    public static func days(_ manoeuvres: [Manoeuvre]) -> [Int] {
        let order = manoeuvres.indices.sorted { manoeuvres[$0].time < manoeuvres[$1].time }
        var days = [Int](repeating: 0, count: manoeuvres.count)
        var day = 0
        var last: Double?
        for index in order {
            let time = manoeuvres[index].time
            if let last, time - last > dayGap * 3_600 { day += 1 }
            days[index] = day
            last = time
        }
        return days
    }
}

/// The means of a window of samples under a calibration.
public struct WindowMeans: Hashable, Sendable {
    /// True wind direction (circular mean), true wind angle and apparent angle (signed means), degrees.
    public var trueDirection: Double
    public var trueAngle: Double
    public var apparentAngle: Double
    /// The heading under the calibration's card (circular mean), degrees.
    public var heading: Double
    public var trueSpeed: Double
    /// Velocities in the earth frame (x north, y east), knots: over ground (nil without fixes) and through water (with
    /// the calibration's speed factor).
    public var ground: PlaneVector?
    public var water: PlaneVector

    /// The window `range` of `samples` under `whole`; `bounded`: as the engine applies it, each second within
    /// ``SailingCalibration/largestTurn`` of the instruments (``SailingCalibration/bounded(for:)``).
    public init(
        _ samples: [SailingSample], _ range: Range<Int>, _ whole: SailingCalibration, bounded: Bool = false
    ) {
        let leewayModel = whole.leeway(SailingCalibration.leewayModel)
        var direction = PlaneVector(x: 0, y: 0)
        var headings = PlaneVector(x: 0, y: 0)
        var water = PlaneVector(x: 0, y: 0)
        var ground = PlaneVector(x: 0, y: 0)
        var fixes = 0
        var angle = 0.0
        var apparent = 0.0
        var speed = 0.0
        for sample in samples[range] {
            let calibration = bounded ? whole.bounded(for: sample) : whole
            let wind = calibration.trueWind(sample)
            let heading = calibration.heading(sample.heading)
            headings = headings + PlaneVector(magnitude: 1, angle: heading)
            direction = direction + PlaneVector(magnitude: 1, angle: heading + wind.angle)
            angle += wind.angle
            speed += wind.speed
            let lookup =
                calibration.upwashByWind.isEmpty
                ? nil
                : calibration.lookupWindSpeed(
                    awa: sample.awa, aws: sample.aws * calibration.windScale(sample), stw: calibration.speed(of: sample)
                )
            apparent += calibration.apparentAngle(sample.awa, windSpeed: lookup)
            // The water track: the heading and, with the heel known, the leeway the engine's model gives (a tack
            // turns the track through the water further than the heading, by twice the leeway).
            let stw = calibration.speed(of: sample)
            let leeway =
                sample.heel.map { leewayModel.leeway(heel: $0, speedThroughWater: Units.metresPerSecond(knots: stw)) }
                ?? 0
            water = water + PlaneVector(magnitude: stw, angle: heading + leeway)
            if let cog = sample.cog, let sog = sample.sog {
                ground = ground + PlaneVector(magnitude: sog, angle: cog)
                fixes += 1
            }
        }
        let n = Double(max(range.count, 1))
        trueDirection = Angle.direction(direction.angle)
        self.heading = Angle.direction(headings.angle)
        trueAngle = angle / n
        trueSpeed = speed / n
        apparentAngle = apparent / n
        self.water = PlaneVector(x: water.x / n, y: water.y / n)
        self.ground =
            fixes * 2 >= range.count ? PlaneVector(x: ground.x / Double(fixes), y: ground.y / Double(fixes)) : nil
    }
}
