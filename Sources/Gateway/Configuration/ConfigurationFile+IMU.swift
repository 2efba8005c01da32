import Engine
import Marine
import Sensors

/// `[imu]`: the attitude sensor: its chip or IIO device (or a board's), its rates and ranges, its axes, the
/// magnetometer.
extension ConfigurationFile.Reader {
    func imu(_ root: TOMLTable, _ config: inout GatewayConfiguration, base: String) throws(ConfigurationFile.Error) {
        guard let section = root["imu"] else { return }
        guard let table = section.table else { throw fail("imu", "must be a table") }
        try check(
            table, "imu",
            allowed: [
                "url", "loop", "speed", "axes", "rate", "accel_range", "gyro_range", "lowpass",
                "magnetometer",
                "heading", "magnetometer_offset", "startup_bias_seconds",
            ])
        guard let url = try string(table, "url", "imu") ?? board?.imuURL else {
            throw fail(
                "imu", "needs a url (\(IMUConfiguration.forms)), or a board whose profile names its IMU")
        }
        var settings: IMUConfiguration
        do throws(IMUConfiguration.URLError) {
            settings = try IMUConfiguration.parse(url, base: base)
        } catch {
            throw fail("imu.url", error.reason)
        }
        if let axes = board?.imuAxes { settings.axes = axes }
        if let value = try number(table, "rate", "imu", range: 10...1000) {
            settings.sensor.sampleRate = value
        }
        if let value = try number(table, "accel_range", "imu", range: 2...16) {
            settings.sensor.accelerometerRange = value
        }
        if let value = try number(table, "gyro_range", "imu", range: 125...2000) {
            settings.sensor.gyroscopeRange = value
        }
        if let value = try number(table, "lowpass", "imu", range: 1...500) {
            settings.sensor.lowPass = value
        }
        if let value = try bool(table, "magnetometer", "imu") { settings.sensor.magnetometer = value }
        if let value = try bool(table, "heading", "imu") {
            config.engine.imuHeading = value
            if value { settings.sensor.magnetometer = true }
        }
        if let value = table["magnetometer_offset"] {
            guard let items = value.array?.compactMap({ $0.double }), items.count == 3 else {
                throw fail("imu.magnetometer_offset", "three numbers in µT, such as [12.5, -3.0, 40.1]")
            }
            config.engine.magnetometerOffset = SIMD3(items[0], items[1], items[2])
        }
        if let value = try number(table, "startup_bias_seconds", "imu", range: 0...60) {
            config.engine.startupBiasWindow = value
        }
        if let loop = try bool(table, "loop", "imu") { settings.loop = loop }
        if let speed = try number(table, "speed", "imu", range: 0.01...1000) { settings.speed = speed }
        if let axes = try string(table, "axes", "imu") {
            guard let map = AxisMap(axes) else {
                throw fail("imu.axes", "three chip axes for body x, y, z, such as \"x,-y,-z\"")
            }
            settings.axes = map
        }
        config.imu = settings
    }
}
