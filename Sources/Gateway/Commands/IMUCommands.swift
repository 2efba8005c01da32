import Engine
import Marine
import Platform
import Router
import Sensors

extension GatewayConfiguration {
    /// The configuration `imu` and `calibrate level` read the IMU with: the file's (and its board's), with `imu`
    /// taking the place of its `[imu]`.
    static func withIMU(config: String?, imu: String?, seconds: Double) throws(CommandError) -> GatewayConfiguration {
        var configuration = GatewayConfiguration()
        if let config {
            do { configuration = try ConfigurationFile.load(path: config) } catch {
                throw CommandError("\(config): \(error)")
            }
        }
        if let imu { try configuration.useIMU(imu) }
        guard configuration.imu != nil else {
            throw CommandError("no IMU: give --imu URL or a configuration with [imu]")
        }
        guard seconds >= 1, seconds <= 120 else { throw CommandError("--seconds: 1 to 120") }
        return configuration
    }
}

/// `telltale imu`, `telltale calibrate level` and `telltale ports` without their command-line library.
public enum IMUCommands {
    /// Prints the IMU's samples in the body frame with heel and pitch, as CSV, to `out`; messages go to `log`.
    public static func sample(
        _ options: IMUOptions, out: (String) -> Void, log: @escaping (String) -> Void
    ) throws(CommandError) {
        var configuration = try GatewayConfiguration.withIMU(
            config: options.config, imu: options.imu, seconds: options.seconds)
        if let path = configuration.stateFile, let message = (try? StateFile.load(path))?.apply(to: &configuration) {
            log(message)
        }
        let imu = configuration.imu!
        var recording: RecordingI2CBus?
        let sampler = IMUSampler(
            configuration: imu, log: log,
            wrap: options.transcript == nil
                ? nil
                : { bus in
                    let wrapped = RecordingI2CBus(bus)
                    recording = wrapped
                    return wrapped
                })
        var filter = AttitudeFilter(settings: configuration.engine.attitude)
        var last: Double?
        var printed = 0
        func text(_ values: [Double], _ decimals: Int) -> [String] {
            values.map { FixedDecimal.text($0, decimals: decimals) }
        }
        out("time_s,ax,ay,az,gx,gy,gz,mx,my,mz,heel,pitch\n")
        StopSignal.install()
        do {
            try sampler.run(seconds: options.seconds) { sample in
                filter.update(
                    gyroscope: sample.gyroscope, accelerometer: sample.accelerometer,
                    dt: last.map { sample.time - $0 } ?? 0.01)
                last = sample.time
                printed += 1
                let a = sample.accelerometer
                let g = sample.gyroscope
                let fields =
                    text([sample.time, a.x, a.y, a.z, g.x, g.y, g.z], 3)
                    + (sample.magnetometer.map { text([$0.x, $0.y, $0.z], 2) } ?? ["", "", ""])
                    + text([filter.heel, filter.pitch], 2)
                out(fields.joined(separator: ",") + "\n")
            }
        } catch {
            throw CommandError("imu: \(error)")
        }
        if let transcript = options.transcript, let recording {
            do { try POSIX.writeFile(transcript, recording.transcript) } catch { throw CommandError("imu: \(error)") }
        }
        if printed == 0 { throw CommandError("imu: no samples from \(imu.endpoint)") }
    }

    /// With the boat level and still: measures the IMU's mounting tilt and gyro bias and stores them in the state
    /// file; returns the line that says what was stored.
    public static func calibrateLevel(
        _ options: CalibrateOptions, log: @escaping (String) -> Void
    ) throws(CommandError) -> String {
        let configuration = try GatewayConfiguration.withIMU(
            config: options.config, imu: options.imu, seconds: options.seconds)
        let imu = configuration.imu!
        guard let path = options.state ?? configuration.stateFile else {
            throw CommandError("no state file: give --state FILE")
        }
        StopSignal.install()
        log("calibrate: reading \(imu.endpoint) for \(options.seconds) s; keep the boat still")
        let result: LevelCalibration.Result
        do { result = try LevelCalibration.measure(imu, seconds: options.seconds, log: log) } catch {
            throw CommandError("calibrate: \(error)")
        }
        var file = (try? StateFile.load(path)) ?? StateFile()
        file.level = StateFile.Level(
            imu: imu.endpoint, heel: result.mounting.heel, pitch: result.mounting.pitch, gyroBias: result.gyroBias,
            time: POSIX.unixTime(), seconds: result.seconds)
        do { try file.save(path) } catch { throw CommandError("calibrate: \(error)") }
        let bias = result.gyroBias
        func two(_ value: Double) -> String { FixedDecimal.text(value, decimals: 2) }
        func three(_ value: Double) -> String { FixedDecimal.text(value, decimals: 3) }
        return "mounting: heel \(two(result.mounting.heel))°, pitch \(two(result.mounting.pitch))°; "
            + "gyro bias (\(three(bias.x)), \(three(bias.y)), \(three(bias.z))) °/s "
            + "from \(result.samples) samples; saved to \(path)"
    }
}
