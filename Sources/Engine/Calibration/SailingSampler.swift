import Marine
import NMEA

/// Turns a stream of decoded sentences (a recorded log, or the history) into one ``SailingSample`` a second for the
/// calibration learner: each RMC with a time closes a second with the latest apparent wind (MWV R, else VWR), speed
/// through water (VHW), heading (HDT, else HDG's magnetic heading with its variation, else RMC's), the heel (XDR
/// roll) when there is one, the instruments' own true wind angle (MWV T) when they send it, and the fix's course and
/// speed over ground. A value not heard since the fix before last is stale: that second has no sample.
public struct SailingSampler: Sendable {
    public private(set) var samples: [SailingSample] = []
    private var apparent: (angle: Double, speed: Double, age: Int)?
    private var windFromVWR: (angle: Double, speed: Double, age: Int)?
    private var speed: (value: Double, age: Int)?
    private var trueHeading: (value: Double, age: Int)?
    private var magnetic: (value: Double, variation: Double?, age: Int)?
    private var heel: (value: Double, age: Int)?
    private var instrumentTrue: (value: Double, age: Int)?
    private var lastTime: Double?
    private var dayOffset = 0.0

    public init() {}

    public mutating func take(_ message: Message) {
        switch message {
        case .mwv(let s) where s.reference == .relative && s.isValid != false:
            if let angle = s.angle, let knots = s.speedKnots { apparent = (Angle.relative(angle), knots, 0) }
        case .mwv(let s) where s.reference == .true && s.isValid != false:
            if let angle = s.angle { instrumentTrue = (Angle.relative(angle), 0) }
        case .vwr(let s):
            if let angle = s.wind.signedAngle, let knots = s.wind.knots { windFromVWR = (angle, knots, 0) }
        case .vhw(let s):
            if let knots = s.speedThroughWater { speed = (knots, 0) }
        case .hdt(let s):
            if let heading = s.heading { trueHeading = (heading, 0) }
        case .hdg(let s):
            if let heading = s.sensorHeading {
                magnetic = (heading + (s.deviation ?? 0), s.variation, 0)
            }
        case .xdr(let s):
            for measurement in s.measurements where measurement.attitudeAxis == .roll {
                if let value = measurement.value { heel = (value, 0) }
            }
        case .rmc(let s):
            fix(s)
        default:
            break
        }
    }

    private mutating func fix(_ rmc: RMC) {
        guard let time = rmc.time else { return }
        var seconds = (rmc.date.map { Double($0.daysSinceEpoch) * 86_400 } ?? 0) + time.secondsOfDay + dayOffset
        if rmc.date == nil, let last = lastTime, seconds < last - 43_200 {
            dayOffset += 86_400  // a log without dates that runs past midnight
            seconds += 86_400
        }
        defer { age() }
        guard lastTime.map({ seconds > $0 }) ?? true else { return }
        lastTime = seconds
        let wind = apparent ?? windFromVWR
        let heading =
            trueHeading?.value
            ?? magnetic.map { Angle.direction($0.value + ($0.variation ?? rmc.magneticVariation ?? 0)) }
        guard let wind, let stw = speed?.value, let heading else { return }
        let usable = rmc.isUsable
        samples.append(
            SailingSample(
                time: seconds, awa: wind.angle, aws: wind.speed, stw: stw, heading: heading,
                cog: usable ? rmc.courseOverGround : nil, sog: usable ? rmc.speedOverGround : nil, heel: heel?.value,
                instrumentTrueAngle: instrumentTrue?.value))
    }

    /// One fix more since each value was heard; two fixes without one and it is gone.
    private mutating func age() {
        apparent = apparent.flatMap { $0.age >= 1 ? nil : ($0.angle, $0.speed, $0.age + 1) }
        windFromVWR = windFromVWR.flatMap { $0.age >= 1 ? nil : ($0.angle, $0.speed, $0.age + 1) }
        speed = speed.flatMap { $0.age >= 1 ? nil : ($0.value, $0.age + 1) }
        trueHeading = trueHeading.flatMap { $0.age >= 1 ? nil : ($0.value, $0.age + 1) }
        magnetic = magnetic.flatMap { $0.age >= 1 ? nil : ($0.value, $0.variation, $0.age + 1) }
        heel = heel.flatMap { $0.age >= 1 ? nil : ($0.value, $0.age + 1) }
        instrumentTrue = instrumentTrue.flatMap { $0.age >= 1 ? nil : ($0.value, $0.age + 1) }
    }
}
