import Marine
import NMEA

/// What the engine takes besides NMEA: the IMU's samples, gpsd's fixes, an attitude.
extension Engine {
    /// Takes one IMU sample (body frame FRD: specific force in m/s², rates in degrees per second, the field in µT),
    /// runs the attitude filter, and records the result as the gateway's own attitude, with its rates; with
    /// ``EngineConfiguration/imuHeading``, the tilt-compensated magnetic heading too.
    ///
    /// Over the first ``EngineConfiguration/startupBiasWindow`` seconds, if the boat is still, the gyro's mean
    /// becomes the filter's bias (which it goes on tracking): the bias about the vertical cannot be learnt from
    /// gravity, and without it the rate of turn would be off by it.
    public mutating func ingest(
        gyroscope: SIMD3<Double>, accelerometer: SIMD3<Double>, magnetometer: SIMD3<Double>? = nil,
        from source: SourceID, at time: Double
    ) {
        let dt = lastIMUTime.map { time - $0 } ?? 0.01
        lastIMUTime = time
        if !startupBiasSettled {
            stillness.add(gyroscope: gyroscope, accelerometer: accelerometer, dt: dt)
            if stillness.isComplete {
                startupBiasSettled = true
                if stillness.isStill {
                    let bias = stillness.meanGyroscope
                    attitudeFilter.setGyroBias(bias)
                    notice(
                        "imu: boat still at start, gyro bias measured "
                            + "(\(FixedDecimal.text(bias.x, decimals: 3)), \(FixedDecimal.text(bias.y, decimals: 3)), "
                            + "\(FixedDecimal.text(bias.z, decimals: 3))) °/s")
                } else {
                    notice("imu: boat moving at start, the attitude filter learns the gyro bias as it goes")
                }
            }
        }
        attitudeFilter.update(gyroscope: gyroscope, accelerometer: accelerometer, dt: dt)
        if configuration.imuHeading, let magnetometer, time - lastIMUHeadingTime >= 0.1,
            let heading = MagneticHeading.heading(
                levelField: attitudeFilter.levelled(magnetometer - configuration.magnetometerOffset))
        {
            lastIMUHeadingTime = time
            inputs.headingMagnetic.record(
                Observation(value: CompassReading(magnetic: heading), time: time, source: source), fallback: true)
        }
        let attitude = Attitude(
            heel: attitudeFilter.heel, pitch: attitudeFilter.pitch, rollRate: attitudeFilter.rollRate,
            pitchRate: attitudeFilter.pitchRate)
        let observation = Observation(value: attitude, time: time, source: source)
        inputs.attitude.record(observation)
        imuAttitude = observation
        imuRateOfTurn = (attitudeFilter.rateOfTurn, time)
    }

    /// Takes a position fix that did not come as NMEA (gpsd): the fix (its UTC, date, satellites when known) and
    /// the motion over ground (m/s, degrees true). False when no boat could have reached the fix from the one before
    /// (``PositionGate``): nothing of it is taken.
    @discardableResult
    public mutating func ingest(_ fix: Fix, motion: GroundMotion?, from source: SourceID, at time: Double) -> Bool {
        guard admitsFix(at: fix.point, from: source, at: time) else { return false }
        inputs.record(Observation(value: fix, time: time, source: source))
        if let motion { inputs.motionOverGround.record(Observation(value: motion, time: time, source: source)) }
        return true
    }

    /// Takes an attitude measured by the gateway's own IMU.
    public mutating func ingest(_ attitude: Attitude, from source: SourceID, at time: Double) {
        inputs.attitude.record(Observation(value: attitude, time: time, source: source))
    }

    /// The attitude XDR of the last tick with other transducer names and decimals (an output's own), or nil when
    /// there is no current attitude. The caller remembers it (``remember(_:at:)``) if it sends it.
    public func attitudeSentence(names: (String, String), decimals: Int, talker: Talker) -> Sentence? {
        SentenceBuilder.attitude(values, names: names, decimals: decimals, talker: talker)
    }
}
