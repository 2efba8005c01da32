import Engine
import Marine
import Platform

/// What Telltale learns about its boat and keeps across restarts: for now the IMU's mounting tilt and gyro bias
/// from `telltale calibrate level`. A small TOML file, written atomically (a temporary file beside it, synced,
/// renamed over), so a power cut during calibration leaves the old state or the new one, never half of either.
public struct StateFile: Sendable, Equatable {
    public struct Level: Sendable, Equatable {
        /// The IMU URL the calibration was made with: it applies to that IMU only.
        public var imu: String
        public var heel: Double
        public var pitch: Double
        /// °/s, body frame.
        public var gyroBias: SIMD3<Double>
        /// UNIX seconds.
        public var time: Double
        /// Seconds averaged and the spread seen (for the record).
        public var seconds: Double

        public init(imu: String, heel: Double, pitch: Double, gyroBias: SIMD3<Double>, time: Double, seconds: Double) {
            self.imu = imu
            self.heel = heel
            self.pitch = pitch
            self.gyroBias = gyroBias
            self.time = time
            self.seconds = seconds
        }
    }

    public var level: Level?

    public init(level: Level? = nil) {
        self.level = level
    }

    /// Where the service keeps it (systemd's StateDirectory=telltale).
    public static let defaultPath = "/var/lib/telltale/state.toml"

    /// Reads the file; a missing file is an empty state.
    public static func load(_ path: String) throws(ConfigurationFile.Error) -> StateFile {
        guard POSIX.exists(path) else { return StateFile() }
        let bytes: [UInt8]
        do { bytes = try POSIX.readFile(path) } catch {
            throw ConfigurationFile.Error(line: nil, key: path, message: "\(error)")
        }
        let table: TOMLTable
        do { table = try TOMLReader.parse(String(decoding: bytes, as: UTF8.self)) } catch {
            throw ConfigurationFile.Error(line: error.line, key: path, message: error.message)
        }
        var state = StateFile()
        if let level = table["level"]?.table {
            guard let imu = level["imu"]?.string, let heel = level["heel"]?.number, let pitch = level["pitch"]?.number,
                let bias = level["gyro_bias"]?.array?.compactMap({ $0.number }), bias.count == 3
            else {
                throw ConfigurationFile.Error(
                    line: nil, key: path + " [level]", message: "needs imu, heel, pitch and gyro_bias = [x, y, z]")
            }
            // What `calibrate level` can have measured: a mounting's heel and pitch, a gyro's bias in degrees a
            // second. A broken file's NaN or 1e300 applied to the IMU made every heel, and every output computed from
            // it, not a number: the gateway's true wind went silent (2026-12-03).
            // Numbers as integers too: `time` is written as one, and was read back as 0 until 2026-12-03.
            let time = level["time"]?.number ?? 0
            let seconds = level["seconds"]?.number ?? 0
            guard abs(heel) <= 180, abs(pitch) <= 90, bias.allSatisfy({ abs($0) <= 30 }), time.isFinite,
                abs(time) < 1e11, seconds.isFinite, seconds >= 0
            else {
                throw ConfigurationFile.Error(
                    line: nil, key: path + " [level]",
                    message: "heel (±180°), pitch (±90°), gyro_bias (±30 °/s each), time and seconds out of range")
            }
            state.level = Level(
                imu: imu, heel: heel, pitch: pitch, gyroBias: SIMD3(bias[0], bias[1], bias[2]),
                time: time, seconds: seconds)
        }
        return state
    }

    public var text: String {
        var lines = ["# Telltale's state: written by `telltale calibrate level`; not a configuration file."]
        if let level {
            func number(_ value: Double) -> String { FixedDecimal.text(value, decimals: 4) }
            lines += [
                "", "[level]", "imu = \"\(level.imu)\"", "heel = \(number(level.heel))",
                "pitch = \(number(level.pitch))",
                "gyro_bias = [\(number(level.gyroBias.x)), \(number(level.gyroBias.y)), \(number(level.gyroBias.z))]",
                "time = \(Int64(level.time))", "seconds = \(number(level.seconds))",
            ]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes the file atomically.
    public func save(_ path: String) throws(POSIX.Failure) { try POSIX.writeFileAtomically(path, text) }

    /// Applies the level calibration to the IMU and the engine when it was made with this IMU.
    public func apply(to configuration: inout GatewayConfiguration) -> String? {
        guard let level, let imu = configuration.imu else { return nil }
        guard level.imu == imu.endpoint else {
            return "state: the level calibration was made with \(level.imu), not \(imu.endpoint); not applied"
        }
        configuration.imu?.mounting = Mounting(heel: level.heel, pitch: level.pitch)
        configuration.engine.initialGyroBias = level.gyroBias
        return "state: level calibration applied (heel \(level.heel)°, pitch \(level.pitch)°)"
    }
}
