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
struct IMUArguments: ParsableArguments {
    @Option(help: "A configuration file (TOML); its [imu] section and board are used.")
    var config: String?

    @Option(
        help:
            "The IMU: i2c:///dev/i2c-1?address=0x68&chip=icm20948, iio:///sys/bus/iio/devices/iio:device0 or csv:///path.csv"
    )
    var imu: String?
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

    @OptionGroup var arguments: IMUArguments

    @Option(help: "Seconds to average.")
    var seconds = 5.0

    @Option(help: "The state file (default: the configuration's state_file, else /var/lib/telltale/state.toml).")
    var state: String?

    func run() throws {
        var options = IMUOptions()
        options.config = arguments.config
        options.imu = arguments.imu
        options.seconds = seconds
        options.state = state
        do {
            Console.out(try IMUCommands.calibrateLevel(options) { Console.error("telltale: " + $0 + "\n") } + "\n")
        } catch {
            Console.error("\(error)\n")
            throw ExitCode.failure
        }
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

    @OptionGroup var arguments: IMUArguments

    @Option(help: "Seconds to read.")
    var seconds = 5.0

    @Option(help: "Write the I2C transactions to this file (i2c:// IMUs).")
    var transcript: String?

    func run() throws {
        var options = IMUOptions()
        options.config = arguments.config
        options.imu = arguments.imu
        options.seconds = seconds
        options.transcript = transcript
        do {
            try IMUCommands.sample(options, out: { Console.out($0) }, log: { Console.error("telltale: " + $0 + "\n") })
        } catch {
            Console.error("\(error)\n")
            throw ExitCode.failure
        }
    }
}
