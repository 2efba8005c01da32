import Marine
import NMEA

/// What the boat's instruments and its IMU make of a moment of the voyage: the GPS, echo sounder, compass, log, masthead
/// unit, AIS and attitude sensor at their own rates, and the IMU's specific force and body rates at 100 Hz, each with
/// its noise. Apart from the voyage itself (``VoyageSimulator/run(sentence:imu:truth:)``: the wind, the boat, the
/// waves, the helm), which hands each moment over.
extension VoyageSimulator {
    /// The boat at one step of the voyage, as the instruments sense it.
    struct Moment {
        /// Seconds into the voyage, and the UNIX time.
        var t: Double
        var now: Double
        var position: PlaneVector
        var groundVelocity: PlaneVector
        var waterVelocity: PlaneVector
        var windFromWater: PlaneVector
        var heading: Double
        var speedThroughWater: Double
        var heel: Double
        var pitch: Double
        /// The waves' roll and pitch rates, degrees a second.
        var rollRate: Double
        var pitchRate: Double
    }

    /// The sentences due at this moment, each instrument at its own rate.
    func instruments(
        _ m: Moment, ships: [SimulatedShip.Track], talker: Talker, random: inout SeededRandom,
        gpsError: inout PlaneVector, sentence: (Double, Sentence) -> Void
    ) {
        let s = settings
        let ms = Int((m.t * 1000).rounded())
        let utc = UTCTime(millisecondsOfDay: Int((m.now.truncatingRemainder(dividingBy: 86_400) * 1000).rounded()))
        let date = UTCDate(daysSinceEpoch: Int((m.now / 86_400).rounded(.down)))
        if ms % 1000 == 0 {
            gpsError = PlaneVector(
                x: gpsError.x * 0.97 + random.normal(0.3), y: gpsError.y * 0.97 + random.normal(0.3))
            let fix = plane.point(m.position + gpsError + PlaneVector(x: random.normal(0.4), y: random.normal(0.4)))
            let sog = Units.knots(metresPerSecond: m.groundVelocity.magnitude) + random.normal(0.05)
            let cog = Angle.direction(m.groundVelocity.angle + random.normal(0.8))
            emit(
                RMC(
                    time: utc, isValid: true, latitude: fix.latitude, longitude: fix.longitude,
                    speedOverGround: max(0, sog), courseOverGround: cog, date: date,
                    magneticVariation: s.variation, mode: .differential), talker, m.now, sentence)
            emit(
                GGA(
                    time: utc, latitude: fix.latitude, longitude: fix.longitude, quality: 2, satellites: 11,
                    horizontalDilution: 0.8, altitude: 3.2, geoidSeparation: 47.1), talker, m.now, sentence)
            emit(
                VTG(
                    courseTrue: cog, courseMagnetic: Angle.direction(cog - s.variation),
                    speedKnots: max(0, sog), speedKilometresPerHour: max(0, sog) * 1.852, mode: .differential),
                talker, m.now, sentence)
            emit(DPT(depth: Self.depth(at: m.t) + random.normal(0.05), offset: 0.4), "SD", m.now, sentence)
        }
        if ms % 100 == 0 {
            let magnetic = Angle.direction(s.compass(m.heading) + random.normal(0.4))
            emit(HDG(sensorHeading: magnetic, deviation: 0, variation: s.variation), "HC", m.now, sentence)
        }
        if ms % 500 == 250 {
            let side = 1 + s.logSideError * min(max(m.heel / 10, -1), 1)
            let speed = Units.knots(metresPerSecond: m.speedThroughWater) * s.logError * side + random.normal(0.05)
            emit(
                VHW(
                    headingMagnetic: s.compass(m.heading), speedKnots: max(0, speed),
                    speedKilometresPerHour: max(0, speed) * 1.852), "VW", m.now, sentence)
        }
        if ms % 200 == 100 {
            // The masthead unit moves with roll and pitch, and is tilted by heel.
            var measured = RelativeWind((m.windFromWater + m.waterVelocity).rotated(by: -m.heading)).vector
            let p = Angle.radians(m.rollRate)
            let q = Angle.radians(m.pitchRate)
            measured = measured + PlaneVector(x: -s.mastHeight * q, y: s.mastHeight * p)
            let phi = Angle.radians(m.heel)
            let tilted = PlaneVector(x: measured.x, y: measured.y * cos(phi))
            let angle = Angle.direction(s.upwashed(tilted.angle) + s.awaError + random.normal(1))
            let knots = max(0, Units.knots(metresPerSecond: tilted.magnitude) * s.awsError + random.normal(0.2))
            emit(
                MWV(angle: angle, reference: .relative, speed: knots, unit: .knots, isValid: true), "WI", m.now,
                sentence)
        }
        // AIS: each ship's position every 10 s, its name every 6 minutes (and at once).
        if !ships.isEmpty && ms % 10_000 == 3000 {
            for track in ships {
                let point = plane.point(track.position(at: m.t))
                for vdm in track.positionReport(at: point, utcSecond: (ms / 1000) % 60) { sentence(m.now, vdm) }
                if ms % 360_000 == 3000 {
                    for vdm in track.staticReport(sequence: (ms / 360_000) % 10) { sentence(m.now, vdm) }
                }
            }
        }
        if s.attitudeSensor && ms % 200 == 0 {
            emit(
                XDR([
                    .angle(m.heel + random.normal(0.2), name: "ROLL"),
                    .angle(m.pitch + random.normal(0.2), name: "PTCH"),
                ]),
                "YX", m.now, sentence)
        }
    }

    /// The IMU's sample at this moment: specific force and body rates (with bias and noise). `previous` is the
    /// attitude at the last sample, which the rates come from.
    func imuSample(
        _ m: Moment, previous: inout (heel: Double, pitch: Double, heading: Double)?, wave: Double, phases: [Double],
        heave: Double, random: inout SeededRandom
    ) -> IMUSample {
        let s = settings
        let dt = 0.01
        let phiR = Angle.radians(m.heel)
        let thetaR = Angle.radians(m.pitch)
        let g = 9.80665
        let before = previous ?? (m.heel, m.pitch, m.heading)
        let yawRate = Angle.difference(from: before.heading, to: m.heading) / dt
        let rollDot = (m.heel - before.heel) / dt
        let pitchDot = (m.pitch - before.pitch) / dt
        previous = (m.heel, m.pitch, m.heading)
        let p = rollDot - yawRate * sin(thetaR)
        let q = pitchDot * cos(phiR) + yawRate * cos(thetaR) * sin(phiR)
        let r = -pitchDot * sin(phiR) + yawRate * cos(thetaR) * cos(phiR)
        let surge = 0.15 * sin(1.3 * wave * m.t + phases[4])
        return IMUSample(
            time: m.now,
            accelerometer: (
                x: g * sin(thetaR) + surge + random.normal(0.02),
                y: -g * cos(thetaR) * sin(phiR) + random.normal(0.02),
                z: -g * cos(thetaR) * cos(phiR) - heave + random.normal(0.02)
            ),
            gyroscope: (
                x: p + s.gyroBias.x + random.normal(0.05), y: q + s.gyroBias.y + random.normal(0.05),
                z: r + s.gyroBias.z + random.normal(0.05)
            ))
    }
}
