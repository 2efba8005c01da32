/// The instruments' corrections learnt from sailing (``CalibrationLearner``), applied before the wind triangle:
///
/// - `awaOffset`: degrees added to every apparent wind angle (a masthead unit turned off the centreline);
/// - `upwashUpwind`, `upwashReach`, `upwashDownwind`: degrees added to the *size* of the apparent wind angle, its
///   sign kept (the sails bend the flow round the mast, differently close-hauled, reaching and running), by the point
///   of sail the angle says (``PointOfSail``: upwind full below 40° apparent, reaching full from 90° to 100°,
///   downwind full above 140°, each fading into the next); upwind and downwind by true wind speed when `upwashByWind`
///   has a table (``UpwashByWind``);
/// - `speedFactor`: multiplies the log's speed through water;
/// - `speedSide`: the log's factor by the side the boat heels to (a paddle wheel off the centreline reads more on one
///   tack): × (1 + speedSide) on port tack (the wind from port, heeled to starboard), × (1 − speedSide) on starboard
///   tack, by ``heelSide(_:)``;
/// - `awsFactor`: multiplies the apparent wind speed (the masthead unit's cups or its calibration);
/// - `deviation`: the heading's deviation by heading (``DeviationCurve``), added to the heading the instruments give;
/// - `leewayCoefficient`: the boat's own `K` in `K × heel / STW²` (nil: the configured leeway model's).
///
/// The identity calibration changes nothing.
public struct SailingCalibration: Hashable, Sendable {
    public var awaOffset = 0.0
    public var upwashUpwind = 0.0
    public var upwashDownwind = 0.0
    public var upwashReach = 0.0
    public var speedFactor = 1.0
    public var speedSide = 0.0
    public var awsFactor = 1.0
    public var deviation = DeviationCurve()
    public var leewayCoefficient: Double?
    /// The upwash by true wind speed; empty: `upwashUpwind` and `upwashDownwind` at every wind speed.
    public var upwashByWind = UpwashByWind()
    /// Steps in the log's reading the learner found between days (``LogStep``), in time order: the readings before
    /// each scaled to the log as it reads since (``speed(of:)``). The engine reads the log as it read when the reading
    /// was taken (``at(_:)``): on board, now.
    public var logSteps: [LogStep] = []

    public init(
        awaOffset: Double = 0, upwashUpwind: Double = 0, upwashDownwind: Double = 0, upwashReach: Double = 0,
        speedFactor: Double = 1, deviation: DeviationCurve = DeviationCurve(), leewayCoefficient: Double? = nil,
        awsFactor: Double = 1, speedSide: Double = 0
    ) {
        self.awsFactor = awsFactor
        self.speedSide = speedSide
        self.awaOffset = awaOffset
        self.upwashUpwind = upwashUpwind
        self.upwashDownwind = upwashDownwind
        self.upwashReach = upwashReach
        self.speedFactor = speedFactor
        self.deviation = deviation
        self.leewayCoefficient = leewayCoefficient
    }

    /// Field by field rather than against a new identity: the engine asks every tick, and building one allocates.
    public var isIdentity: Bool {
        awaOffset == 0 && upwashUpwind == 0 && upwashDownwind == 0 && upwashReach == 0 && speedFactor == 1
            && speedSide == 0 && awsFactor == 1 && deviation.isZero && leewayCoefficient == nil && upwashByWind.isEmpty
            && logSteps.isEmpty
    }

    /// The identity calibration, built once.
    public static let identity = SailingCalibration()

    /// This calibration followed by `residual`, learnt from values this one had already corrected (the history on
    /// board keeps calibrated values): the offsets and upwash add (a table at the residual's wind speeds when it has
    /// one), the factors multiply.
    public func then(_ residual: SailingCalibration) -> SailingCalibration {
        var composed = SailingCalibration(
            awaOffset: awaOffset + residual.awaOffset, upwashUpwind: upwashUpwind + residual.upwashUpwind,
            upwashDownwind: upwashDownwind + residual.upwashDownwind, upwashReach: upwashReach + residual.upwashReach,
            speedFactor: speedFactor * residual.speedFactor,
            deviation: deviation.then(residual.deviation),
            leewayCoefficient: residual.leewayCoefficient ?? leewayCoefficient,
            awsFactor: awsFactor * residual.awsFactor, speedSide: speedSide + residual.speedSide)
        // A reading of a time before both calibrations' steps is scaled by each: the steps of both, in time order.
        composed.logSteps = (logSteps + residual.logSteps).sorted { $0.time < $1.time }
        if !residual.upwashByWind.isEmpty {
            // At the residual's wind speeds, each point's upwash of this one and the residual's added.
            let speeds = residual.upwashByWind.windSpeeds
            let reaching = !residual.upwashByWind.reach.isEmpty || !upwashByWind.reach.isEmpty
            composed.upwashByWind = UpwashByWind(
                windSpeeds: speeds,
                upwind: speeds.map { upwash($0, .upwind) + residual.upwash($0, .upwind) },
                downwind: speeds.map { upwash($0, .downwind) + residual.upwash($0, .downwind) },
                reach: reaching ? speeds.map { upwash($0, .reach) + residual.upwash($0, .reach) } : [])
        } else if !upwashByWind.isEmpty {
            composed.upwashByWind = upwashByWind.adding(
                upwind: residual.upwashUpwind, downwind: residual.upwashDownwind, reach: residual.upwashReach)
        }
        return composed
    }

    /// The upwash at a true wind speed (knots; nil: the single value).
    public func upwash(_ windSpeed: Double?, upwind: Bool) -> Double { upwash(windSpeed, upwind ? .upwind : .downwind) }

    /// A point of sail's upwash at a true wind speed (knots; nil, or no table for it: the single value).
    public func upwash(_ windSpeed: Double?, _ point: PointOfSail) -> Double {
        guard let windSpeed, !upwashByWind.isEmpty else {
            switch point {
            case .upwind: return upwashUpwind
            case .reach: return upwashReach
            case .downwind: return upwashDownwind
            }
        }
        switch point {
        case .upwind: return upwashByWind.upwind(at: windSpeed)
        case .reach: return upwashByWind.reach(at: windSpeed) ?? upwashReach
        case .downwind: return upwashByWind.downwind(at: windSpeed)
        }
    }

    /// The true wind speed the upwash is looked up by (in the unit of `aws`): the triangle of the measured wind with
    /// the offset and the wind speed's factor and the log's speed already corrected (`stw`), before any upwash or
    /// leeway, so that it never depends on what it corrects.
    public func lookupWindSpeed(awa: Double, aws: Double, stw: Double) -> Double {
        WindTriangle.trueWind(
            apparent: RelativeWind(angle: Angle.relative(awa + awaOffset), speed: windSpeed(aws)),
            speedThroughWater: stw, leeway: 0
        ).speed
    }

    /// A leeway model with this calibration's coefficient when it has one.
    public func leeway(_ model: LeewayModel) -> LeewayModel {
        guard let leewayCoefficient else { return model }
        var learnt = model
        learnt.coefficient = leewayCoefficient
        return learnt
    }

    /// The heading corrected by the deviation curve (degrees, 0 to 360).
    public func heading(_ measured: Double) -> Double { deviation.isZero ? measured : deviation.corrected(measured) }

    /// This calibration with a point of sail's single upwash set to `value` (the table by wind speed left as it is).
    public func with(upwash value: Double, _ point: PointOfSail) -> SailingCalibration {
        var c = self
        switch point {
        case .upwind: c.upwashUpwind = value
        case .reach: c.upwashReach = value
        case .downwind: c.upwashDownwind = value
        }
        return c
    }

    /// The apparent wind angle corrected: the offset, then the upwash for the point of sail it then says.
    public func apparentAngle(_ measured: Double, windSpeed: Double? = nil) -> Double {
        let turned = Angle.relative(measured + awaOffset)
        let size = abs(turned)
        let share = PointOfSail.shares(size)
        let added =
            upwash(windSpeed, .upwind) * share.upwind + upwash(windSpeed, .reach) * share.reach
            + upwash(windSpeed, .downwind) * share.downwind
        let corrected = min(max(size + added, 0), 180)
        return turned < 0 ? -corrected : corrected
    }

    /// The speed through water corrected, by the side the apparent wind angle `awa` (measured, degrees; nil: not
    /// known, the factor alone) says the boat heels to.
    public func speed(_ measured: Double, awa: Double?) -> Double {
        guard speedSide != 0, let awa else { return measured * speedFactor }
        return measured * speedFactor * (1 + speedSide * Self.heelSide(Angle.relative(awa + awaOffset)))
    }

    /// The side a sailing boat heels to at an apparent wind angle (degrees, signed): +1 on port tack (the wind from
    /// port, heeled to starboard), −1 on starboard tack; none head to wind (fading in over the first 10°: close-hauled
    /// at 15° apparent she heels fully) nor running (by ``PointOfSail``'s downwind share: none to 100°, all of it from
    /// 140°), where she stands upright.
    public static func heelSide(_ awa: Double) -> Double {
        let size = abs(awa)
        let side = min(size / 10, 1) * (1 - PointOfSail.shares(size).downwind)
        return awa < 0 ? side : -side
    }

    /// The apparent wind speed corrected.
    public func windSpeed(_ measured: Double) -> Double { measured * awsFactor }

    /// True wind over water (angle signed, speed in the apparent wind's unit) from a sample, corrected as the engine
    /// corrects it: this calibration on the measured angle, then, when the heel is known, the masthead unit's tilt
    /// and the leeway of the engine's default model in the triangle.
    public func trueWind(_ sample: SailingSample) -> RelativeWind {
        let lookup =
            upwashByWind.isEmpty
            ? nil : lookupWindSpeed(awa: sample.awa, aws: sample.aws * windScale(sample), stw: speed(of: sample))
        var apparent = RelativeWind(angle: apparentAngle(sample.awa, windSpeed: lookup), speed: windSpeed(of: sample))
        let stw = speed(of: sample)
        var leeway = 0.0
        if let heel = sample.heel {
            apparent = WindCorrections.heel(apparent, heel: heel)
            leeway = self.leeway(Self.leewayModel).leeway(
                heel: heel, speedThroughWater: Units.metresPerSecond(knots: stw))
        }
        return WindTriangle.trueWind(apparent: apparent, speedThroughWater: stw, leeway: leeway)
    }

    /// The leeway the learner allows for when the heel is known: the engine's default model (`[wind]` may set
    /// another; the learner does not learn it yet).
    public static let leewayModel = LeewayModel()
}
