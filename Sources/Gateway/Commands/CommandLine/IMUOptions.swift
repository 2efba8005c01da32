/// What `telltale imu` is told.
public struct IMUOptions: CommandOptions {
    /// A configuration file: its `[imu]` section and board are used.
    public var config: String?
    /// The IMU URL, instead of or over the configuration's.
    public var imu: String?
    public var seconds = 5.0
    /// Every I²C transaction written to this file.
    public var transcript: String?

    public init() {}

    public static let spec = CommandSpec(
        "imu", abstract: "Read the IMU and print its samples (body frame) with heel and pitch, as CSV.",
        discussion: """
            Columns: time_s,ax,ay,az,gx,gy,gz,mx,my,mz,heel,pitch. Tilt the boat (or the board) to starboard: heel \
            goes positive; bow up: pitch positive. With --transcript, every I2C transaction is written to a file in \
            the format of the driver tests' transcripts.
            """,
        flags: [
            .option(
                "config", "FILE", "A configuration file (TOML); its [imu] section and board are used.",
                example: "boat.toml"),
            .option(
                "imu", "URL",
                "The IMU: i2c:///dev/i2c-1?address=0x68&chip=icm20948, iio:///sys/bus/iio/devices/"
                    + "iio:device0 or csv:///path.csv.", example: "i2c:///dev/i2c-1?chip=auto"),
            .option("seconds", "SECONDS", "Seconds to read.", example: "2"),
            .option("transcript", "FILE", "Write the I2C transactions to this file (i2c:// IMUs).", example: "icm.txt"),
        ])

    public mutating func set(_ flag: String, _ value: String?) throws(CommandError) {
        switch flag {
        case "config": config = CommandParser.text(value)
        case "imu": imu = CommandParser.text(value)
        case "seconds": seconds = try CommandParser.number(flag, value)
        case "transcript": transcript = CommandParser.text(value)
        default: throw .unhandled(flag)
        }
    }
}

/// What `telltale calibrate level` is told.
public struct CalibrateOptions: CommandOptions {
    public var config: String?
    public var imu: String?
    public var seconds = 5.0
    /// The state file (default: the configuration's, else /var/lib/telltale/state.toml).
    public var state: String?

    public init() {}

    public static let spec = CommandSpec(
        "calibrate level", abstract: "With the boat level and still, measure the IMU's mounting tilt and gyro bias.",
        discussion: """
            Moor the boat in calm water with her normal load, trimmed level (or as you want 0° heel and pitch to be), \
            and run this. It averages a few seconds of samples, refuses if the boat moved, and stores the mounting \
            tilt and gyro bias in the state file (atomically). `telltale run` takes them off every sample of that IMU.
            """,
        flags: [
            .option(
                "config", "FILE", "A configuration file (TOML); its [imu] section and board are used.",
                example: "boat.toml"),
            .option("imu", "URL", "The IMU, as for `telltale imu`.", example: "i2c:///dev/i2c-1?chip=auto"),
            .option("seconds", "SECONDS", "Seconds to average.", example: "3"),
            .option(
                "state", "FILE",
                "The state file (default: the configuration's state_file, else "
                    + "/var/lib/telltale/state.toml).", example: "state.toml"),
        ])

    public mutating func set(_ flag: String, _ value: String?) throws(CommandError) {
        switch flag {
        case "config": config = CommandParser.text(value)
        case "imu": imu = CommandParser.text(value)
        case "seconds": seconds = try CommandParser.number(flag, value)
        case "state": state = CommandParser.text(value)
        default: throw .unhandled(flag)
        }
    }
}
