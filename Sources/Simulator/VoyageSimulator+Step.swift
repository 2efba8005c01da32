import Marine
import NMEA

/// The voyage step by step (10 ms): the wind and the current, the boat sailing, the waves, the helmsman, the move.
extension VoyageSimulator {
    /// What changes from one step to the next.
    struct State {
        var random: SeededRandom
        /// Phases of the waves, from the seed.
        let phases: [Double]
        var position: PlaneVector
        var leg = 0
        var heading: Double
        var stw = 3.0 * Units.metresPerSecondPerKnot
        var steadyHeel = 0.0
        var shiftWalk = 0.0
        var gust = 0.0
        var gustLeft = 0.0
        var gpsError = PlaneVector(x: 0, y: 0)
        var finishedAt: Double?
        /// At anchor: where the anchor lies, when it went down, and how far the chain reaches from it.
        var anchor: PlaneVector?
        var droppedAt: Double?
        var reach = 0.0
        var previousAttitude: (heel: Double, pitch: Double, heading: Double)?
    }

    /// The air and the water at a moment.
    struct Air {
        var groundDirection: Double
        /// m/s.
        var groundSpeed: Double
        var current: PlaneVector
        /// Air relative to the water: the ground wind and the current's velocity together.
        var fromWater: PlaneVector
    }

    /// The boat through the water and over the ground.
    struct Motion {
        var trueWind: RelativeWind
        var water: PlaneVector
        var ground: PlaneVector
        var leeway: Double
    }

    /// Roll, pitch and heave from the waves, on top of the steady heel.
    struct Waves {
        var frequency: Double
        var heel: Double
        var pitch: Double
        var rollRate: Double
        var pitchRate: Double
        var heave: Double
    }

    /// Where the boat is against its leg.
    struct Track {
        var crossTrack: Double
        var along: Double
        var toWaypoint: PlaneVector
    }

    /// The start: on the first leg, and with a start sequence far enough back that the boat, at about 60% of its
    /// polar speed on the first leg, reaches the line at the gun (speed in hand to make up for its lag, luffing to
    /// burn what it does not need).
    func start() -> State {
        var random = SeededRandom(seed: settings.seed)
        let phases = (0..<6).map { _ in random.uniform() * 2 * .pi }
        var position = legs[0].from
        let heading = Angle.direction(
            PlaneVector(x: legs[0].to.x - legs[0].from.x, y: legs[0].to.y - legs[0].from.y).angle)
        let gun = settings.startSequence ?? 0
        if gun > 0 {
            let angle = Angle.relative(settings.windDirection - heading)
            let speed = settings.polar.speed(angle: angle, windSpeed: settings.windSpeed) * Units.metresPerSecondPerKnot
            let back = 0.6 * speed * gun
            let unit = PlaneVector(magnitude: 1, angle: heading)
            position = PlaneVector(x: position.x - unit.x * back, y: position.y - unit.y * back)
        }
        return State(random: random, phases: phases, position: position, heading: heading)
    }

    /// The wind (its shifts, a random walk and gusts) and the current.
    func wind(at t: Double, dt: Double, _ v: inout State) -> Air {
        let s = settings
        v.shiftWalk += v.random.normal(0.02)
        v.shiftWalk *= 0.9999
        if v.gustLeft <= 0 && v.random.uniform() < s.gustRate * dt {
            v.gustLeft = 20 + v.random.uniform() * 20
        }
        v.gustLeft -= dt
        let gustTarget = v.gustLeft > 0 ? s.gustStrength : 0
        v.gust += (gustTarget - v.gust) * dt / 4
        let groundDirection = Angle.direction(
            s.windDirection + s.shiftAmplitude * sin(2 * .pi * t / s.shiftPeriod) + v.shiftWalk)
        let groundSpeed = (s.windSpeed + v.gust) * Units.metresPerSecondPerKnot
        let windFromGround = PlaneVector(magnitude: groundSpeed, angle: groundDirection)
        let current = PlaneVector(magnitude: s.currentSpeed * Units.metresPerSecondPerKnot, angle: s.currentSet)
        return Air(
            groundDirection: groundDirection, groundSpeed: groundSpeed, current: current,
            fromWater: windFromGround + current)
    }

    /// Sailing: the polar's speed (timed for the start, none once at the anchorage), heel and leeway; or lying to the
    /// anchor's chain.
    func sail(at t: Double, dt: Double, _ air: Air, _ v: inout State) -> Motion {
        let s = settings
        let knot = Units.metresPerSecondPerKnot
        let gun = s.startSequence ?? 0
        let trueWind = RelativeWind(
            angle: Angle.relative(air.fromWater.angle - v.heading), speed: air.fromWater.magnitude)
        var targetSTW =
            s.polar.speed(angle: trueWind.angle, windSpeed: Units.knots(metresPerSecond: trueWind.speed)) * knot
        if t < gun && v.leg == 0 {
            // Timing the start: the speed that reaches the line (at the first waypoint) 3 s after the gun, no
            // faster: a helmsman who would rather be a little late than over.
            let first = legs[0]
            let legVector = PlaneVector(x: first.to.x - first.from.x, y: first.to.y - first.from.y)
            let toLine =
                -((v.position.x - first.from.x) * legVector.x + (v.position.y - first.from.y) * legVector.y)
                / legVector.magnitude
            let needed = max(toLine, 0) / max(gun + 3 - t, 1)
            targetSTW = min(targetSTW, max(needed, 0.5 * knot))
        }
        // Past the last waypoint with an anchorage ahead: the sails come down and she stops.
        if v.finishedAt != nil && s.anchorage != nil { targetSTW = 0 }
        v.stw += (targetSTW - v.stw) * dt / 6
        let steadyApparent = WindTriangle.apparentWind(true: trueWind, speedThroughWater: v.stw)
        let awsKnots = Units.knots(metresPerSecond: steadyApparent.speed)
        let heelTarget =
            -(steadyApparent.angle < 0 ? -1.0 : 1.0)
            * min(25, 0.07 * awsKnots * awsKnots * abs(sin(Angle.radians(steadyApparent.angle))))
        v.steadyHeel += (heelTarget - v.steadyHeel) * dt / 3
        var leeway = LeewayModel(coefficient: 12, limit: 10).leeway(heel: v.steadyHeel, speedThroughWater: v.stw)
        var waterVelocity = PlaneVector(magnitude: v.stw, angle: v.heading + leeway)
        var groundVelocity = waterVelocity + air.current
        if let anchor = v.anchor, let droppedAt = v.droppedAt, let anchorage = s.anchorage {
            // Lying to the chain: blown back downwind of the anchor as the chain is let out (0.4 m/s), sheering
            // 8° either way every two minutes once it is all out; the GPS antenna is the bow offset further aft.
            let out = min(v.reach, 0.4 * (t - droppedAt))
            let sheer = 8 * (out / max(v.reach, 1)) * sin(2 * .pi * (t - droppedAt) / 120 + v.phases[1])
            let lying =
                anchor
                + PlaneVector(magnitude: out + anchorage.bowOffset, angle: air.fromWater.angle + 180 + sheer)
            groundVelocity = PlaneVector(x: (lying.x - v.position.x) / 5, y: (lying.y - v.position.y) / 5)
            waterVelocity = groundVelocity - air.current
            leeway = 0
            // The log wheel turns only for water from ahead.
            let bow = PlaneVector(magnitude: 1, angle: v.heading)
            v.stw = max(0, waterVelocity.x * bow.x + waterVelocity.y * bow.y)
        }
        return Motion(trueWind: trueWind, water: waterVelocity, ground: groundVelocity, leeway: leeway)
    }

    /// Two swells each for roll and pitch, and heave; the heel is the steady heel and the roll.
    func waves(at t: Double, _ v: State) -> Waves {
        let s = settings
        let phases = v.phases
        let w = 2 * Double.pi / s.wavePeriod
        let roll = s.rollAmplitude * sin(w * t + phases[0]) + 0.3 * s.rollAmplitude * sin(2.4 * w * t + phases[1])
        let rollRate =
            s.rollAmplitude * w * cos(w * t + phases[0])
            + 0.3 * s.rollAmplitude * 2.4 * w * cos(2.4 * w * t + phases[1])
        let pitchWave =
            s.pitchAmplitude * sin(1.3 * w * t + phases[2])
            + 0.3 * s.pitchAmplitude * sin(3.3 * w * t + phases[3])
        let pitchRateWave =
            s.pitchAmplitude * 1.3 * w * cos(1.3 * w * t + phases[2])
            + 0.3 * s.pitchAmplitude * 3.3 * w * cos(3.3 * w * t + phases[3])
        let heave =
            s.heaveAcceleration * sin(w * t + phases[4]) + 0.3 * s.heaveAcceleration * sin(2.4 * w * t + phases[5])
        return Waves(
            frequency: w, heel: v.steadyHeel + roll, pitch: 0.5 + pitchWave, rollRate: rollRate,
            pitchRate: pitchRateWave, heave: heave)
    }
}
