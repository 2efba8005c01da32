import ArgumentParser
import Gateway
import Marine
import Platform
import Sensors

/// `telltale calibrate`: what Telltale measures once on the boat and keeps in its state file.
struct Calibrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Calibrate the IMU on the boat; the result goes to the state file.",
        subcommands: [CalibrateLevel.self])
}

/// The IMU named by `--imu`, else by the configuration file (and its board profile).
struct IMUOptions: ParsableArguments {
    @Option(help: "A configuration file (TOML); its [imu] section and board are used.")
    var config: String?

    @Option(
        help:
            "The IMU: i2c:///dev/i2c-1?address=0x68&chip=icm20948, iio:///sys/bus/iio/devices/iio:device0 or csv:///path.csv"
    )
    var imu: String?

    func load() throws -> GatewayConfiguration {
        var configuration = GatewayConfiguration()
        if let config {
            do { configuration = try ConfigurationFile.load(path: config) } catch {
                throw ValidationError("\(config): \(error)")
            }
        }
        if let imu {
            do {
                var parsed = try IMUConfiguration.parse(imu, base: ".")
                if let axes = configuration.imu?.axes { parsed.axes = axes }
                configuration.imu = parsed
            } catch {
                throw ValidationError("--imu: \(error)")
            }
        }
        guard configuration.imu != nil else {
            throw ValidationError("no IMU: give --imu URL or a configuration with [imu]")
        }
        return configuration
    }
}

struct CalibrateLevel: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "level",
        abstract: "With the boat level and still, measure the IMU's mounting tilt and gyro bias.",
        discussion: """
            Moor the boat in calm water with her normal load, trimmed level (or as you want 0° heel and pitch to be),
            and run this. It averages a few seconds of samples, refuses if the boat moved, and stores the mounting
            tilt and gyro bias in the state file (atomically). `telltale run` takes them off every sample of that IMU.
            """)

    @OptionGroup var imuOptions: IMUOptions

    @Option(help: "Seconds to average.")
    var seconds = 5.0

    @Option(help: "The state file (default: the configuration's state_file, else /var/lib/telltale/state.toml).")
    var state: String?

    func run() throws {
        let configuration = try imuOptions.load()
        let imu = configuration.imu!
        guard seconds >= 1, seconds <= 120 else { throw ValidationError("--seconds: 1 to 120") }
        guard let path = state ?? configuration.stateFile else {
            throw ValidationError("no state file: give --state FILE")
        }
        StopSignal.install()
        Console.error("calibrate: reading \(imu.endpoint) for \(seconds) s; keep the boat still\n")
        let result: LevelCalibration.Result
        do {
            result = try LevelCalibration.measure(imu, seconds: seconds) { Console.error("telltale: " + $0 + "\n") }
        } catch {
            Console.error("calibrate: \(error)\n")
            throw ExitCode.failure
        }
        var file = (try? StateFile.load(path)) ?? StateFile()
        file.level = StateFile.Level(
            imu: imu.endpoint, heel: result.mounting.heel, pitch: result.mounting.pitch, gyroBias: result.gyroBias,
            time: POSIX.unixTime(), seconds: result.seconds)
        do { try file.save(path) } catch {
            Console.error("calibrate: \(error)\n")
            throw ExitCode.failure
        }
        let bias = result.gyroBias
        Console.out(
            "mounting: heel \(Inspect.format(result.mounting.heel, decimals: 2))°, pitch \(Inspect.format(result.mounting.pitch, decimals: 2))°; "
                + "gyro bias (\(Inspect.format(bias.x, decimals: 3)), \(Inspect.format(bias.y, decimals: 3)), \(Inspect.format(bias.z, decimals: 3))) °/s "
                + "from \(result.samples) samples; saved to \(path)\n")
    }
}

/// `telltale imu`: the IMU's samples in the body frame, to check wiring, axes and calibration.
struct IMUCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "imu",
        abstract: "Read the IMU and print its samples (body frame) with heel and pitch, as CSV.",
        discussion: """
            Columns: time_s,ax,ay,az,gx,gy,gz,mx,my,mz,heel,pitch. Tilt the boat (or the board) to starboard: heel
            goes positive; bow up: pitch positive. With --transcript, every I2C transaction is written to a file in
            the format of the driver tests' transcripts.
            """)

    @OptionGroup var imuOptions: IMUOptions

    @Option(help: "Seconds to read.")
    var seconds = 5.0

    @Option(help: "Write the I2C transactions to this file (i2c:// IMUs).")
    var transcript: String?

    func run() throws {
        var configuration = try imuOptions.load()
        if let path = configuration.stateFile, let message = (try? StateFile.load(path))?.apply(to: &configuration) {
            Console.error("telltale: \(message)\n")
        }
        let imu = configuration.imu!
        var recording: RecordingI2CBus?
        let sampler = IMUSampler(
            configuration: imu, log: { Console.error("telltale: " + $0 + "\n") },
            wrap: transcript == nil
                ? nil
                : { bus in
                    let wrapped = RecordingI2CBus(bus)
                    recording = wrapped
                    return wrapped
                })
        var filter = AttitudeFilter(settings: configuration.engine.attitude)
        var last: Double?
        var printed = 0
        Console.out("time_s,ax,ay,az,gx,gy,gz,mx,my,mz,heel,pitch\n")
        StopSignal.install()
        do {
            try sampler.run(seconds: seconds) { sample in
                filter.update(
                    gyroscope: sample.gyroscope, accelerometer: sample.accelerometer,
                    dt: last.map { sample.time - $0 } ?? 0.01)
                last = sample.time
                printed += 1
                let m = sample.magnetometer
                let fields =
                    [sample.time].map { Inspect.format($0, decimals: 3) }
                    + [sample.accelerometer.x, sample.accelerometer.y, sample.accelerometer.z].map {
                        Inspect.format($0, decimals: 3)
                    }
                    + [sample.gyroscope.x, sample.gyroscope.y, sample.gyroscope.z].map {
                        Inspect.format($0, decimals: 3)
                    }
                    + (m.map { [$0.x, $0.y, $0.z].map { Inspect.format($0, decimals: 2) } } ?? ["", "", ""])
                    + [Inspect.format(filter.heel, decimals: 2), Inspect.format(filter.pitch, decimals: 2)]
                Console.out(fields.joined(separator: ",") + "\n")
            }
        } catch {
            Console.error("imu: \(error)\n")
            throw ExitCode.failure
        }
        if let transcript, let recording {
            do {
                try POSIX.writeFile(transcript, recording.transcript)
            } catch {
                Console.error("imu: \(error)\n")
                throw ExitCode.failure
            }
        }
        if printed == 0 { throw ExitCode.failure }
    }
}
