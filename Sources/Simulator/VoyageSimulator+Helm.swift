import Marine
import NMEA

/// The helmsman, the truth written down, and the move: legs, the finish, the anchor going down and dragging.
extension VoyageSimulator {
    /// Navigation on the plane (cross-track, along-track), and the helmsman's course: toward a point 150 m ahead on
    /// the leg, allowing for the crab; once finished, bow to the chain at anchor, or luffing head to wind to stop.
    func steer(dt: Double, _ air: Air, _ motion: Motion, _ v: inout State) -> Track {
        let (from, to) = legs[v.leg]
        let legVector = PlaneVector(x: to.x - from.x, y: to.y - from.y)
        let legLength = legVector.magnitude
        let unit = PlaneVector(x: legVector.x / legLength, y: legVector.y / legLength)
        let relative = PlaneVector(x: v.position.x - from.x, y: v.position.y - from.y)
        let along = relative.x * unit.x + relative.y * unit.y
        // Right of the leg is positive: the leg turned +90 degrees is (−unit.y, unit.x) in (north, east).
        let crossTrack = relative.x * -unit.y + relative.y * unit.x
        let toWaypoint = PlaneVector(x: to.x - v.position.x, y: to.y - v.position.y)
        let aheadDistance = min(along + 150, legLength)
        let intercept = PlaneVector(x: from.x + unit.x * aheadDistance, y: from.y + unit.y * aheadDistance)
        let desiredCourse = PlaneVector(x: intercept.x - v.position.x, y: intercept.y - v.position.y).angle
        // The crab is the current's and the leeway's: only while she moves through the water, and never more than a
        // current could make it (stalled head to wind, the track is the current's alone, and steering by it would keep
        // her there).
        let drift = Angle.difference(from: v.heading, to: motion.ground.angle)
        let crab = motion.water.magnitude > 0.5 ? min(max(drift, -30), 30) : 0
        let command =
            byTheWind(toWaypoint, air, v) ?? Angle.direction(desiredCourse - crab)
        let turn = Angle.difference(from: v.heading, to: command)
        let headingRate = min(max(turn, -4), 4)
        if v.finishedAt == nil {
            v.heading = Angle.direction(v.heading + headingRate * dt)
        } else if let anchor = v.anchor {
            // Bow to the chain.
            let chain = PlaneVector(x: anchor.x - v.position.x, y: anchor.y - v.position.y)
            let turn = Angle.difference(from: v.heading, to: chain.angle)
            v.heading = Angle.direction(v.heading + min(max(turn / 4, -4), 4) * dt)
        } else if settings.anchorage != nil {
            // Luffing head to wind to stop.
            let turn = Angle.difference(from: v.heading, to: air.fromWater.angle)
            v.heading = Angle.direction(v.heading + min(max(turn / 2, -4), 4) * dt)
        }
        return Track(crossTrack: crossTrack, along: along, toWaypoint: toWaypoint)
    }

    /// The heading when the mark lies in the wind's no-go cone (within the polar's beat angle of the wind): close-hauled
    /// by the true wind over the water on the present tack, going about once the other tack lays the mark with
    /// `overstand` degrees to spare for the leeway and the current, as a racing helm sails a beat; nil when the mark
    /// can be steered for. Downwind the helm runs straight for the mark, unless racing (`--racing`): then a mark
    /// beyond the polar's gybing angle is sailed to at that angle, gybing on the laylines.
    func byTheWind(_ toWaypoint: PlaneVector, _ air: Air, _ v: State) -> Double? {
        guard v.finishedAt == nil, toWaypoint.magnitude > settings.arrivalRadius else { return nil }
        let overstand = 5.0
        let windFrom = Angle.direction(air.fromWater.angle)
        let knots = Units.knots(metresPerSecond: air.fromWater.magnitude)
        let beat = settings.polar.beat(windSpeed: knots).angle
        // Where the mark lies from the wind: 0 dead upwind, positive to the right looking upwind.
        let off = Angle.difference(from: windFrom, to: toWaypoint.angle)
        // +1 with the wind on the starboard side (heading left of it), -1 on port.
        var side: Double = Angle.difference(from: v.heading, to: windFrom) >= 0 ? 1 : -1
        if abs(off) < beat + overstand + 1 {
            if side > 0 && off >= beat + overstand {
                side = -1
            } else if side < 0 && off <= -(beat + overstand) {
                side = 1
            }
            return Angle.direction(windFrom - side * beat)
        }
        let run = settings.polar.run(windSpeed: knots).angle
        if settings.racing, run < 178, abs(off) > run - 1 {
            // Downwind, racing: at the gybing angle on the present gybe until the other lays the mark.
            if side > 0 && off > 0 && off <= run { side = -1 } else if side < 0 && off < 0 && off >= -run { side = 1 }
            return Angle.direction(windFrom - side * run)
        }
        return nil
    }

    /// What is true at `t`, for the tests to judge against.
    func truthRow(at t: Double, _ air: Air, _ motion: Motion, _ waves: Waves, _ track: Track, _ v: State) -> TruthRow {
        let apparentNow = RelativeWind((air.fromWater + motion.water).rotated(by: -v.heading))
        return TruthRow(
            time: settings.startTime + t, position: plane.point(v.position), heading: v.heading,
            speedThroughWater: v.stw, speedOverGround: motion.ground.magnitude,
            courseOverGround: Angle.direction(motion.ground.angle), leeway: motion.leeway, heel: waves.heel,
            pitch: waves.pitch, apparentWind: apparentNow, trueWind: motion.trueWind,
            trueWindDirection: Angle.direction(air.fromWater.angle), groundWindDirection: air.groundDirection,
            groundWindSpeed: air.groundSpeed, leg: v.leg, from: route.waypoints[v.leg].id,
            to: route.waypoints[v.leg + 1].id, crossTrack: track.crossTrack, alongTrack: track.along,
            distanceToWaypoint: track.toWaypoint.magnitude, bearingToWaypoint: Angle.direction(track.toWaypoint.angle),
            anchor: v.anchor.map(plane.point))
    }

    /// The move over the ground, and the next leg inside the arrival radius; after the last, the anchor going down
    /// (and dragging, when told to). False when the voyage is over.
    func advance(at t: Double, dt: Double, _ air: Air, _ motion: Motion, _ track: Track, _ v: inout State) -> Bool {
        v.position = v.position + PlaneVector(x: motion.ground.x * dt, y: motion.ground.y * dt)
        if v.finishedAt == nil && track.toWaypoint.magnitude < settings.arrivalRadius {
            if v.leg + 1 < legs.count {
                v.leg += 1
            } else {
                v.finishedAt = t
            }
        }
        guard let anchorage = settings.anchorage, let finishedAt = v.finishedAt else {
            if let finishedAt = v.finishedAt, t - finishedAt > 30 { return false }
            return true
        }
        if v.anchor == nil && t >= max(anchorage.dropAt, finishedAt + 20) {
            // The anchor goes down at the bow; the chain will reach along the bottom this far from it.
            v.anchor = v.position + PlaneVector(magnitude: anchorage.bowOffset, angle: v.heading)
            v.droppedAt = t
            let fall = Self.depth(at: t) + anchorage.bowHeight
            v.reach = max(anchorage.rode * anchorage.rode - fall * fall, 0).squareRoot()
        } else if let dropped = v.droppedAt, let anchorPoint = v.anchor {
            if let dragAfter = anchorage.dragAfter, t - dropped >= dragAfter {
                let drag = anchorage.dragSpeed * Units.metresPerSecondPerKnot * dt
                v.anchor = anchorPoint + PlaneVector(magnitude: drag, angle: air.fromWater.angle + 180)
            }
            if t - dropped >= anchorage.lie { return false }
        }
        return true
    }
}
