import Marine
import NMEA

/// Turns a stream of decoded sentences (a recorded log, or the history) into one ``SailingSample`` a second for the
/// calibration learner: each fix with a time closes a second with the latest apparent wind (MWV R, else VWR), speed
/// through water (VHW), heading (HDT, else the compass's magnetic heading, HDG or HDM, with the variation heard last,
/// HDG's, else RMC's), the heel (XDR roll) when there is one, the instruments' own true wind angle (MWV T) when they
/// send it, and the fix's course and speed over ground. The fix is RMC; a log without RMC has its fixes in GGA or GLL,
/// with the course and speed of VTG and the date of ZDA (as a plotter's GPS sends them), the engine reading them
/// alike. A value not heard since the fix before last is stale: that second has no sample.
public struct SailingSampler: Sendable {
    public private(set) var samples: [SailingSample] = []
    private var apparent: (angle: Double, speed: Double, age: Int)?
    private var windFromVWR: (angle: Double, speed: Double, age: Int)?
    private var speed: (value: Double, age: Int)?
    private var trueHeading: (value: Double, age: Int)?
    private var magnetic: (value: Double, variation: Double?, age: Int)?
    private var heel: (value: Double, age: Int)?
    private var instrumentTrue: (value: Double, age: Int)?
    /// VTG's course and speed over ground for the fixes of GGA and GLL, and the sample of the last such fix.
    private var ground = GroundPairing()
    private var lastGroundSample: (index: Int, usable: Bool)?
    /// The variation the compass's HDG said last: HDM carries none.
    private var compassVariation: Double?
    /// The date said last (ZDA's, or RMC's), for the fixes that carry none.
    private var date: UTCDate?
    /// Once a log has RMC with a time, its GGA and GLL are the same fixes again.
    private var hasRMC = false
    /// The time of the last GGA or GLL fix.
    private var lastOpened: UTCTime?
    private var lastTime: Double?
    private var dayOffset = 0.0
    /// A fix that leapt forward from the clock, waiting for the next to keep to it.
    private var leap: Double?
    /// Whether `lastTime` is on a date (else on 1970's first day, before the log said its date).
    private var lastDated = false
    /// Whether the samples so far were made before the log said its date (a GGA before the first ZDA).
    private var undated = false
    private var dated = false

    /// What the sentences so far have carried at all.
    private var heard = (wind: false, water: false, heading: false, fix: false)

    public init() {}

    /// What a second of sailing needs and the sentences taken never carried, in words: a log with none of it has no
    /// second of sailing, and this says why.
    public var lacking: [String] {
        var out: [String] = []
        if !heard.fix { out.append("fix with a time (RMC, or GGA or GLL)") }
        if !heard.wind { out.append("apparent wind (MWV R or VWR)") }
        if !heard.water { out.append("speed through the water (VHW)") }
        if !heard.heading { out.append("heading (HDT, HDG or HDM)") }
        return out
    }

    public mutating func take(_ message: Message) {
        ground.advance()
        switch message {
        case .mwv(let s) where s.reference == .relative && s.isValid != false:
            if let angle = s.angle, let knots = s.speedKnots {
                apparent = (Angle.relative(angle), knots, 0)
                heard.wind = true
            }
        case .mwv(let s) where s.reference == .true && s.isValid != false:
            if let angle = s.angle { instrumentTrue = (Angle.relative(angle), 0) }
        case .vwr(let s):
            if let angle = s.wind.signedAngle, let knots = s.wind.knots {
                windFromVWR = (angle, knots, 0)
                heard.wind = true
            }
        case .vhw(let s):
            if let knots = s.speedThroughWater {
                speed = (knots, 0)
                heard.water = true
            }
        case .hdt(let s):
            if let heading = s.heading {
                trueHeading = (heading, 0)
                heard.heading = true
            }
        case .hdg(let s):
            if let variation = s.variation { compassVariation = variation }
            if let heading = s.sensorHeading {
                magnetic = (heading + (s.deviation ?? 0), s.variation, 0)
                heard.heading = true
            }
        case .hdm(let s):
            if let heading = s.heading {
                magnetic = (heading, compassVariation, 0)
                heard.heading = true
            }
        case .xdr(let s):
            for measurement in s.measurements where measurement.attitudeAxis == .roll {
                if let value = measurement.value { heel = (value, 0) }
            }
        default:
            takeFix(message)
        }
    }

    /// The sentences that close a second: RMC; else GGA or GLL with VTG and ZDA.
    private mutating func takeFix(_ message: Message) {
        switch message {
        case .rmc(let s):
            // An RMC without its time (a receiver before its first fix) closes nothing, and leaves GGA its fixes.
            guard let time = s.time else { return }
            hasRMC = true
            // Its date kept for the next RMC whose date field is empty: without it that second lay in
            // 1970, and the count of days for a log without dates moved every dated second after it by a day.
            if let day = s.date { date = day }
            close(
                time: time, date: date, usable: s.isUsable, course: s.courseOverGround,
                speed: s.speedOverGround, variation: s.magneticVariation)
        case .gga(let s) where !hasRMC:
            if let time = s.time { open(time, usable: s.isUsable) }
        case .gll(let s) where !hasRMC:
            if let time = s.time { open(time, usable: s.isUsable) }
        case .vtg(let s):
            ground.heard(.init(course: s.courseTrue, speed: s.speedOverGround, usable: s.isUsable))
        case .zda(let s):
            if let day = s.date { date = day }
        default:
            break
        }
    }

    /// A GGA or GLL fix closes its second at once, and takes its course and speed from the VTG nearest it
    /// (``GroundPairing``): one before it now, one after it at the next fix (so a log's last fix, its VTG after it,
    /// has none). A second fix of the same time (GGA and GLL both) is the same second.
    private mutating func open(_ time: UTCTime, usable: Bool) {
        guard time != lastOpened else { return }
        lastOpened = time
        let (before, now) = ground.fix()
        if let before, let last = lastGroundSample, last.usable, before.usable {
            samples[last.index].cog = before.course
            samples[last.index].sog = before.speed
        }
        let count = samples.count
        close(
            time: time, date: date, usable: usable && now?.usable != false, course: now?.course, speed: now?.speed,
            variation: nil)
        lastGroundSample = samples.count > count ? (count, usable) : nil
    }

    private mutating func close(
        time: UTCTime, date: UTCDate?, usable: Bool, course: Double?, speed sog: Double?, variation: Double?
    ) {
        heard.fix = true
        if let date {
            if undated { dateUndated(date) }
            dated = true
        }
        var seconds = (date.map { Double($0.daysSinceEpoch) * 86_400 } ?? 0) + time.secondsOfDay + dayOffset
        // A log without dates that runs past midnight.
        let pastMidnight = date == nil && lastTime.map { seconds < $0 - 43_200 } == true
        if pastMidnight { seconds += 86_400 }
        // One second, one sample: a receiver's fixes at 5 or 10 Hz after the first of their second are passed over,
        // and age nothing (each would make a wind heard once a second stale before the next).
        guard lastTime.map({ seconds.rounded(.down) > $0.rounded(.down) }) ?? true else { return }
        // A leap forward is followed when the next fix goes on from it (a logger paused; fixes minutes apart); alone,
        // it is a glitch (a time or a date mangled, ``LogClock``: the next fix back before it), which would have
        // passed over every second until the clock caught up. (Not at a log's first date, when its clock moves from
        // 1970 to the day.)
        if let last = lastTime, lastDated == (date != nil), seconds - last > LogClock.leap {
            let kept = leap.map { seconds >= $0 } ?? false
            leap = seconds
            guard kept else { return }
        }
        leap = nil
        lastDated = date != nil
        if pastMidnight { dayOffset += 86_400 }
        defer { age() }
        lastTime = seconds
        let wind = apparent ?? windFromVWR
        let heading =
            trueHeading?.value
            ?? magnetic.map { Angle.direction($0.value + ($0.variation ?? variation ?? 0)) }
        guard let wind, let stw = speed?.value, let heading else { return }
        if !dated { undated = true }
        samples.append(
            SailingSample(
                time: seconds, awa: wind.angle, aws: wind.speed, stw: stw, heading: heading,
                cog: usable ? course : nil, sog: usable ? sog : nil, heel: heel?.value,
                instrumentTrueAngle: instrumentTrue?.value))
    }

    /// The date said at last: the seconds before it, counted from midnight (and past it), are put on that day (the
    /// log's first seconds before its first ZDA would otherwise lie in 1970, a day of their own).
    private mutating func dateUndated(_ date: UTCDate) {
        undated = false
        let shift = Double(date.daysSinceEpoch) * 86_400 - dayOffset
        for index in samples.indices { samples[index].time += shift }
        lastTime = lastTime.map { $0 + shift }
        lastDated = true
        dayOffset = 0
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
