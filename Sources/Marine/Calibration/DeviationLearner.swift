/// Compass deviation by heading, and the boat's leeway, from steady pieces of legs against the track over the ground
/// (docs/calibration.md). On a steady piece the velocity over the ground is the water velocity plus the current:
/// `G = V u(h + δ(h) + λ) + c`, with V the log's speed (calibrated), h the heading, δ the deviation curve
/// (``DeviationCurve``), λ the leeway and c the current. Small angles make it linear: `G − V u(h) ≈ V u′(h) (δ + λ)
/// + c`. The current is taken as steady for half an hour (one unknown a half hour, removed by centring each half
/// hour's rows); the leeway is `K × heel / STW²` when the heel is known, else one close-hauled angle, to leeward.
/// Least squares over every piece, the worst pieces (beyond 3.5 robust deviations) dropped once and the rest fitted
/// again; the curve's error at each heading from the fit's covariance.
public struct DeviationLearner: Sendable {
    /// Seconds a piece, and between the starts of two.
    public var window = 20
    public var step = 10
    /// A piece is steady when every heading is within this of its mean, and the log over this (knots).
    public var maximumSpread = 8.0
    public var minimumSpeed = 2.0
    /// Seconds the current is taken as steady.
    public var currentSeconds = 1_800.0
    /// Fewest pieces, and of the eight octants of the compass how many must have three pieces, for a sure curve.
    public var minimumPieces = 30
    public var minimumOctants = 6
    /// Sure when the curve's largest error is within this (degrees); beyond `bound` anywhere: a compass near iron.
    public var sureError = 1.0
    public var bound = 15.0

    public init() {}

    struct Piece {
        var time: Double
        var heading: Double
        var speed: Double
        var ground: PlaneVector
        var leewayTerm: Double
    }

    /// The curve and the leeway, on top of `calibration` (its log factor).
    public func learn(_ samples: [SailingSample], _ calibration: SailingCalibration) -> DeviationReport {
        let byHeel = samples.filter { $0.heel != nil }.count * 5 >= samples.count * 4
        let all = pieces(samples, calibration, byHeel: byHeel)
        let octants = Self.octants(all)
        guard all.count >= minimumPieces else {
            return DeviationReport(
                curve: DeviationCurve(), deviation: .none(0, count: all.count), leeway: .none(0, count: all.count),
                leewayByHeel: false, pieces: all.count, octants: octants)
        }
        guard var fit = Self.fit(all, leeway: byHeel ? .heel : .upwind, bin: currentSeconds) else {
            return DeviationReport(
                curve: DeviationCurve(), deviation: .none(0, count: all.count), leeway: .none(0, count: all.count),
                leewayByHeel: byHeel, pieces: all.count, octants: octants)
        }
        // The worst pieces (a gust's lurch, a wave) dropped once, the rest fitted again.
        let scale = 1.4826 * RobustStatistics.median(fit.residuals) * 3.5
        let kept = zip(all, fit.residuals).filter { $0.1 <= max(scale, 0.05) }.map { $0.0 }
        if kept.count >= minimumPieces,
            let again = Self.fit(kept, leeway: byHeel ? .heel : .upwind, bin: currentSeconds)
        {
            fit = again
        }
        let curve = DeviationCurve(Array(fit.x.prefix(5)))
        var largest = 0.0
        var error = 0.0
        // Over the octants sailed: beyond them the curve is the fit's guess, and a guess is no proof of iron (the demo
        // voyage's perfect compass, sailed in four octants, read 24° off where it never went).
        let sailed = Self.sailedOctants(kept)
        for heading in stride(from: 0.0, to: 360, by: 15) where sailed[min(7, Int(heading / 45))] {
            let terms = DeviationCurve.terms(heading)
            largest = max(largest, abs(curve.deviation(heading)))
            error = max(error, fit.error(terms + [0, 0]))
        }
        // A fault only when the compass is surely beyond the bound, not when the data is too thin to say: the rose
        // sailed round (in fewer octants the card, the leeway and the current can trade places, and the fit's own
        // error does not show it: the demo voyage's perfect compass in four octants read 18° ± 1 off).
        let status: LearntValue.Status =
            largest - 2 * error > bound && octants >= minimumOctants
            ? .sensorFault(
                "the compass is off by \(FixedDecimal.text(largest, decimals: 0))° on some heading: iron near it, not applied"
            )
            : kept.count >= minimumPieces && octants >= minimumOctants && error <= sureError ? .sure : .unsure
        let leewayError = fit.error([0, 0, 0, 0, 0, 1, 0])
        let leeway = LearntValue(
            value: fit.x[5], uncertainty: leewayError, count: kept.count,
            status: leewayError <= (byHeel ? 2 : 1) && kept.count >= minimumPieces ? .sure : .unsure)
        return DeviationReport(
            curve: curve, deviation: LearntValue(value: largest, uncertainty: error, count: kept.count, status: status),
            leeway: leeway, leewayByHeel: byHeel, pieces: kept.count, octants: octants)
    }

    /// The steady pieces: `window` seconds of samples, every heading within `maximumSpread` of their mean, the log
    /// over `minimumSpeed`, fixes in two seconds of three, the wind on one side all through; `byHeel`, every second
    /// with its heel (the leeway's term is then `heel / STW²`, else the side the wind blows from, close-hauled).
    func pieces(_ samples: [SailingSample], _ calibration: SailingCalibration, byHeel: Bool) -> [Piece] {
        var out: [Piece] = []
        var start = 0
        while start + window <= samples.count {
            defer { start += step }
            let range = start..<(start + window)
            let piece = samples[range]
            guard let first = piece.first, let last = piece.last, last.time - first.time < Double(window) * 1.5,
                piece.allSatisfy({ $0.stw >= minimumSpeed }),
                piece.allSatisfy({ $0.awa > 0 }) || piece.allSatisfy({ $0.awa < 0 }),
                !byHeel || piece.allSatisfy({ $0.heel != nil })
            else { continue }
            var direction = PlaneVector(x: 0, y: 0)
            var ground = PlaneVector(x: 0, y: 0)
            var fixes = 0
            var speed = 0.0
            var leeway = 0.0
            for sample in piece {
                direction = direction + PlaneVector(magnitude: 1, angle: sample.heading)
                let stw = calibration.speed(of: sample)
                speed += stw
                if byHeel, let heel = sample.heel {
                    leeway += heel / (stw * stw)
                } else if !byHeel && abs(sample.awa) < 100 {
                    leeway += sample.awa > 0 ? -1 : 1
                }
                if let cog = sample.cog, let sog = sample.sog {
                    ground = ground + PlaneVector(magnitude: sog, angle: cog)
                    fixes += 1
                }
            }
            let heading = Angle.direction(direction.angle)
            guard fixes * 3 >= window * 2,
                piece.allSatisfy({ abs(Angle.relative($0.heading - heading)) <= maximumSpread })
            else { continue }
            let n = Double(window)
            out.append(
                Piece(
                    time: first.time, heading: heading, speed: speed / n,
                    ground: PlaneVector(x: ground.x / Double(fixes), y: ground.y / Double(fixes)),
                    leewayTerm: leeway / n))
        }
        return out
    }

    /// How many of the compass's eight octants have three pieces or more.
    static func octants(_ pieces: [Piece]) -> Int { sailedOctants(pieces).filter { $0 }.count }

    /// Each of the compass's eight octants (from 000°): whether it has three pieces or more.
    static func sailedOctants(_ pieces: [Piece]) -> [Bool] {
        var counts = [Int](repeating: 0, count: 8)
        for piece in pieces { counts[min(7, Int(piece.heading / 45))] += 1 }
        return counts.map { $0 >= 3 }
    }
}
