import Engine
import Marine
import Router
import Sensors

/// `telltale calibrate level`: with the boat floating level and still (at the dock, in calm water), a few seconds
/// of IMU samples give the IMU's mounting tilt (the heel and pitch it reads on a level boat) and the gyro's bias.
public enum LevelCalibration {
    public struct Result: Sendable {
        public var mounting: Mounting
        /// °/s, in the boat's frame once the mounting is taken off.
        public var gyroBias: SIMD3<Double>
        public var samples: Int
        public var seconds: Double
        /// The largest gyro standard deviation seen, °/s.
        public var gyroDeviation: Double
    }

    public struct Failure: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// Averages `seconds` of samples from the configured IMU (a CSV is read from its start, not in real time; a
    /// live IMU is read in real time). The axis map applies; any earlier mounting does not.
    public static func measure(
        _ imu: IMUConfiguration, seconds: Double, log: @escaping (String) -> Void
    ) throws(Failure) -> Result {
        var imu = imu
        imu.mounting = .level
        var detector = StillnessDetector(window: seconds)
        var last: Double?
        var count = 0
        func add(_ sample: IMUFile.Sample) {
            detector.add(
                gyroscope: sample.gyroscope, accelerometer: sample.accelerometer, dt: last.map { sample.time - $0 } ?? 0
            )
            last = sample.time
            count += 1
        }
        do {
            // A little over the window, so that it fills at any sample rate.
            try IMUSampler(configuration: imu, log: log).run(seconds: seconds + 0.5, stop: { detector.isComplete }, add)
        } catch {
            throw Failure(message: "\(error)")
        }
        guard detector.isComplete else {
            throw Failure(message: "only \(count) samples over less than \(seconds) s came from \(imu.endpoint)")
        }
        let deviation = detector.gyroscopeDeviation.max()
        guard detector.isStill else {
            throw Failure(
                message:
                    "the boat was not still (gyro spread up to \(FixedDecimal.text(deviation, decimals: 2)) °/s, or accelerations away from 1 g); "
                    + "calibrate at the dock or at anchor in calm water")
        }
        guard let mounting = Mounting(levelAccelerometer: detector.meanAccelerometer) else {
            throw Failure(
                message:
                    "the mean specific force is not near 1 g: check the IMU's scaling (\(imu.endpoint))")
        }
        return Result(
            mounting: mounting, gyroBias: mounting.apply(detector.meanGyroscope), samples: count, seconds: seconds,
            gyroDeviation: deviation)
    }
}
