import Marine
import NMEA

/// One IMU sample in the CSV format `telltale replay --imu` reads: body frame x forward, y starboard, z down;
/// specific force in m/s² (level at rest about (0, 0, -9.81)); rates in degrees per second.
public struct IMUSample: Sendable {
    public var time: Double
    public var accelerometer: (x: Double, y: Double, z: Double)
    public var gyroscope: (x: Double, y: Double, z: Double)

    public static let csvHeader = "time_s,ax,ay,az,gx,gy,gz"

    public var csvLine: String {
        func f(_ value: Double, _ decimals: Int) -> String { Format.fixed(value, decimals: decimals) }
        return [
            f(time, 3), f(accelerometer.x, 4), f(accelerometer.y, 4), f(accelerometer.z, 4), f(gyroscope.x, 4),
            f(gyroscope.y, 4), f(gyroscope.z, 4),
        ].joined(separator: ",")
    }
}
