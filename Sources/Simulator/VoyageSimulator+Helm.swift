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
        let command = Angle.direction(desiredCourse - crab)
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
