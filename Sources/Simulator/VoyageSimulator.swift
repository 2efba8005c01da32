import Marine
import NMEA

/// A deterministic voyage: a boat sailing a route under a wind field with shifts and gusts, in a current and
/// waves, with the instruments a cruising boat has. See ``VoyageSettings``.
public struct VoyageSimulator {
    public let settings: VoyageSettings
    public let route: Route
    let plane: LocalPlane
    private let legs: [(from: PlaneVector, to: PlaneVector)]

    public init(route: Route, settings: VoyageSettings = VoyageSettings()) {
        self.route = route
        self.settings = settings
        plane = LocalPlane(origin: route.waypoints[0].position)
        var legs: [(PlaneVector, PlaneVector)] = []
        for index in 0..<(route.waypoints.count - 1) {
            legs.append(
                (plane.plane(route.waypoints[index].position), plane.plane(route.waypoints[index + 1].position)))
        }
        self.legs = legs
    }

    /// The start line when the voyage has a start sequence: across the first leg at the first waypoint, its port end
    /// on the left facing along the leg.
    public var startLine: (port: GeoPoint, starboard: GeoPoint)? {
        guard settings.startSequence != nil, let first = legs.first else { return nil }
        let leg = PlaneVector(x: first.to.x - first.from.x, y: first.to.y - first.from.y)
        let unit = PlaneVector(x: leg.x / leg.magnitude, y: leg.y / leg.magnitude)
        let half = settings.startLineHalfLength
        // Right of the leg is (−unit.y, unit.x) in (north, east); left is its opposite.
        let port = PlaneVector(x: first.from.x + unit.y * half, y: first.from.y - unit.x * half)
        let starboard = PlaneVector(x: first.from.x - unit.y * half, y: first.from.y + unit.x * half)
        return (plane.point(port), plane.point(starboard))
    }

    /// Runs the voyage. Sentences come in time order with their UNIX time; IMU samples at 100 Hz; truth at 2 Hz.
    public func run(
        sentence: (Double, Sentence) -> Void, imu: (IMUSample) -> Void, truth: (TruthRow) -> Void
    ) {
        let s = settings
        let ships = shipTracks()
        var random = SeededRandom(seed: s.seed)
        let knot = Units.metresPerSecondPerKnot
        let dt = 0.01
        let steps = Int((s.duration / dt).rounded())
        // Phases of the waves and the gust schedule come from the seed.
        let phases = (0..<6).map { _ in random.uniform() * 2 * .pi }
        var position = legs[0].from
        var leg = 0
        var heading = Angle.direction(
            PlaneVector(x: legs[0].to.x - legs[0].from.x, y: legs[0].to.y - legs[0].from.y).angle)
        let gun = s.startSequence ?? 0
        if gun > 0 {
            // Far enough back that the boat, at about 60% of its polar speed on the first leg, reaches the line at
            // the gun: it has speed in hand to make up for its lag, and luffs to burn what it does not need.
            let angle = Angle.relative(s.windDirection - heading)
            let speed = s.polar.speed(angle: angle, windSpeed: s.windSpeed) * knot
            let back = 0.6 * speed * gun
            let unit = PlaneVector(magnitude: 1, angle: heading)
            position = PlaneVector(x: position.x - unit.x * back, y: position.y - unit.y * back)
        }
        var stw = 3.0 * knot
        var steadyHeel = 0.0
        var shiftWalk = 0.0
        var gust = 0.0
        var gustLeft = 0.0
        var gpsError = PlaneVector(x: 0, y: 0)
        var finishedAt: Double?
        // At anchor: where the anchor lies, when it went down, and how far the chain reaches from it.
        var anchor: PlaneVector?
        var droppedAt: Double?
        var reach = 0.0
        var previousAttitude: (heel: Double, pitch: Double, heading: Double)?
        let talker = Talker(s.gpsTalker) ?? Talker(UInt8(ascii: "G"), UInt8(ascii: "P"))

        for step in 0...steps {
            let t = Double(step) * dt
            let now = s.startTime + t

            // Environment.
            shiftWalk += random.normal(0.02)
            shiftWalk *= 0.9999
            if gustLeft <= 0 && random.uniform() < s.gustRate * dt {
                gustLeft = 20 + random.uniform() * 20
            }
            gustLeft -= dt
            let gustTarget = gustLeft > 0 ? s.gustStrength : 0
            gust += (gustTarget - gust) * dt / 4
            let groundDirection = Angle.direction(
                s.windDirection + s.shiftAmplitude * sin(2 * .pi * t / s.shiftPeriod) + shiftWalk)
            let groundSpeed = (s.windSpeed + gust) * knot
            let windFromGround = PlaneVector(magnitude: groundSpeed, angle: groundDirection)
            let current = PlaneVector(magnitude: s.currentSpeed * knot, angle: s.currentSet)
            // Air relative to the water comes from the sum of the ground wind and the current's velocity.
            let windFromWater = windFromGround + current

            // Sailing: the polar, heel and leeway.
            let trueWind = RelativeWind(
                angle: Angle.relative(windFromWater.angle - heading), speed: windFromWater.magnitude)
            var targetSTW =
                s.polar.speed(angle: trueWind.angle, windSpeed: Units.knots(metresPerSecond: trueWind.speed)) * knot
            if t < gun && leg == 0 {
                // Timing the start: the speed that reaches the line (at the first waypoint) 3 s after the gun, no
                // faster: a helmsman who would rather be a little late than over.
                let first = legs[0]
                let legVector = PlaneVector(x: first.to.x - first.from.x, y: first.to.y - first.from.y)
                let toLine =
                    -((position.x - first.from.x) * legVector.x + (position.y - first.from.y) * legVector.y)
                    / legVector.magnitude
                let needed = max(toLine, 0) / max(gun + 3 - t, 1)
                targetSTW = min(targetSTW, max(needed, 0.5 * knot))
            }
            // Past the last waypoint with an anchorage ahead: the sails come down and she stops.
            if finishedAt != nil && s.anchorage != nil { targetSTW = 0 }
            stw += (targetSTW - stw) * dt / 6
            let steadyApparent = WindTriangle.apparentWind(true: trueWind, speedThroughWater: stw)
            let awsKnots = Units.knots(metresPerSecond: steadyApparent.speed)
            let heelTarget =
                -(steadyApparent.angle < 0 ? -1.0 : 1.0)
                * min(25, 0.07 * awsKnots * awsKnots * abs(sin(Angle.radians(steadyApparent.angle))))
            steadyHeel += (heelTarget - steadyHeel) * dt / 3
            var leeway = LeewayModel(coefficient: 12, limit: 10).leeway(heel: steadyHeel, speedThroughWater: stw)
            var waterVelocity = PlaneVector(magnitude: stw, angle: heading + leeway)
            var groundVelocity = waterVelocity + current
            if let anchor, let droppedAt, let anchorage = s.anchorage {
                // Lying to the chain: blown back downwind of the anchor as the chain is let out (0.4 m/s), sheering
                // 8° either way every two minutes once it is all out; the GPS antenna is the bow offset further aft.
                let out = min(reach, 0.4 * (t - droppedAt))
                let sheer = 8 * (out / max(reach, 1)) * sin(2 * .pi * (t - droppedAt) / 120 + phases[1])
                let lying =
                    anchor
                    + PlaneVector(magnitude: out + anchorage.bowOffset, angle: windFromWater.angle + 180 + sheer)
                groundVelocity = PlaneVector(x: (lying.x - position.x) / 5, y: (lying.y - position.y) / 5)
                waterVelocity = groundVelocity - current
                leeway = 0
                // The log wheel turns only for water from ahead.
                let bow = PlaneVector(magnitude: 1, angle: heading)
                stw = max(0, waterVelocity.x * bow.x + waterVelocity.y * bow.y)
            }

            // Waves.
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
            let heel = steadyHeel + roll
            let pitch = 0.5 + pitchWave
            let heave =
                s.heaveAcceleration * sin(w * t + phases[4]) + 0.3 * s.heaveAcceleration * sin(2.4 * w * t + phases[5])

            // Navigation on the plane: cross-track, along-track, the helmsman's course.
            let (from, to) = legs[leg]
            let legVector = PlaneVector(x: to.x - from.x, y: to.y - from.y)
            let legLength = legVector.magnitude
            let unit = PlaneVector(x: legVector.x / legLength, y: legVector.y / legLength)
            let relative = PlaneVector(x: position.x - from.x, y: position.y - from.y)
            let along = relative.x * unit.x + relative.y * unit.y
            // Right of the leg is positive: the leg turned +90 degrees is (−unit.y, unit.x) in (north, east).
            let crossTrack = relative.x * -unit.y + relative.y * unit.x
            let toWaypoint = PlaneVector(x: to.x - position.x, y: to.y - position.y)
            let aheadDistance = min(along + 150, legLength)
            let intercept = PlaneVector(x: from.x + unit.x * aheadDistance, y: from.y + unit.y * aheadDistance)
            let desiredCourse = PlaneVector(x: intercept.x - position.x, y: intercept.y - position.y).angle
            let crab = Angle.difference(from: heading, to: groundVelocity.angle)
            let command = Angle.direction(desiredCourse - crab)
            let turn = Angle.difference(from: heading, to: command)
            let headingRate = min(max(turn, -4), 4)
            if finishedAt == nil {
                heading = Angle.direction(heading + headingRate * dt)
            } else if let anchor {
                // Bow to the chain.
                let chain = PlaneVector(x: anchor.x - position.x, y: anchor.y - position.y)
                let turn = Angle.difference(from: heading, to: chain.angle)
                heading = Angle.direction(heading + min(max(turn / 4, -4), 4) * dt)
            } else if s.anchorage != nil {
                // Luffing head to wind to stop.
                let turn = Angle.difference(from: heading, to: windFromWater.angle)
                heading = Angle.direction(heading + min(max(turn / 2, -4), 4) * dt)
            }

            if step % 50 == 0 {
                let apparentNow = RelativeWind(
                    (windFromWater + waterVelocity).rotated(by: -heading))
                truth(
                    TruthRow(
                        time: now, position: plane.point(position), heading: heading, speedThroughWater: stw,
                        speedOverGround: groundVelocity.magnitude,
                        courseOverGround: Angle.direction(groundVelocity.angle),
                        leeway: leeway, heel: heel, pitch: pitch, apparentWind: apparentNow, trueWind: trueWind,
                        trueWindDirection: Angle.direction(windFromWater.angle),
                        groundWindDirection: groundDirection, groundWindSpeed: groundSpeed, leg: leg,
                        from: route.waypoints[leg].id, to: route.waypoints[leg + 1].id, crossTrack: crossTrack,
                        alongTrack: along, distanceToWaypoint: toWaypoint.magnitude,
                        bearingToWaypoint: Angle.direction(toWaypoint.angle), anchor: anchor.map(plane.point)))
            }

            // Instruments, each at its own rate, then the IMU at 100 Hz.
            let moment = Moment(
                t: t, now: now, position: position, groundVelocity: groundVelocity, waterVelocity: waterVelocity,
                windFromWater: windFromWater, heading: heading, speedThroughWater: stw, heel: heel, pitch: pitch,
                rollRate: rollRate, pitchRate: pitchRateWave)
            instruments(moment, ships: ships, talker: talker, random: &random, gpsError: &gpsError, sentence: sentence)
            imu(
                imuSample(
                    moment, previous: &previousAttitude, wave: w, phases: phases, heave: heave, random: &random))

            // Move, and change legs inside the arrival radius.
            position = position + PlaneVector(x: groundVelocity.x * dt, y: groundVelocity.y * dt)
            if finishedAt == nil && toWaypoint.magnitude < s.arrivalRadius {
                if leg + 1 < legs.count {
                    leg += 1
                } else {
                    finishedAt = t
                }
            }
            if let anchorage = s.anchorage, let finishedAt {
                if anchor == nil && t >= max(anchorage.dropAt, finishedAt + 20) {
                    // The anchor goes down at the bow; the chain will reach along the bottom this far from it.
                    anchor = position + PlaneVector(magnitude: anchorage.bowOffset, angle: heading)
                    droppedAt = t
                    let fall = Self.depth(at: t) + anchorage.bowHeight
                    reach = max(anchorage.rode * anchorage.rode - fall * fall, 0).squareRoot()
                } else if let dropped = droppedAt, let anchorPoint = anchor {
                    if let dragAfter = anchorage.dragAfter, t - dropped >= dragAfter {
                        let drag = anchorage.dragSpeed * knot * dt
                        anchor = anchorPoint + PlaneVector(magnitude: drag, angle: windFromWater.angle + 180)
                    }
                    if t - dropped >= anchorage.lie { break }
                }
            } else if let finishedAt, t - finishedAt > 30 {
                break
            }
        }
    }

    /// The depth under the keel the echo sounder reads, metres, `t` seconds into the voyage (before its noise).
    static func depth(at t: Double) -> Double { 12 + 3 * sin(t / 200) }

    /// The ships' tracks: a first run of the voyage without them finds where the boat is, and how it moves, at
    /// the moment each is to be closest.
    private func shipTracks() -> [SimulatedShip.Track] {
        guard !settings.ships.isEmpty else { return [] }
        var quiet = settings
        quiet.ships = []
        var rows: [TruthRow] = []
        VoyageSimulator(route: route, settings: quiet).run(
            sentence: { _, _ in }, imu: { _ in }, truth: { rows.append($0) })
        return settings.ships.compactMap { ship in
            let at = settings.startTime + ship.closestAt
            guard let row = rows.min(by: { abs($0.time - at) < abs($1.time - at) }) else { return nil }
            return ship.track(
                boat: plane.plane(row.position), course: row.courseOverGround, speedOverGround: row.speedOverGround)
        }
    }

    func emit(
        _ value: some EncodableSentence, _ talker: Talker, _ time: Double, _ sentence: (Double, Sentence) -> Void
    ) {
        if let encoded = try? value.encode(talker: talker) { sentence(time, encoded) }
    }
}

/// Fixed-decimal formatting for the CSV files (no Foundation).
enum Format {
    static func fixed(_ value: Double, decimals: Int) -> String { FixedDecimal.text(value, decimals: decimals) }
}
