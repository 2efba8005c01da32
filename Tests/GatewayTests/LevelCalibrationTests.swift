import Engine
import Gateway
import Marine
import NMEA
import Platform
import Sensors
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct LevelCalibrationTests {
    let g = AttitudeFilter.gravity

    /// An IMU trace at rest, the IMU tilted by (heel, pitch) on a level boat, or rolling when `moving`.
    func trace(_ path: String, heel: Double, pitch: Double, moving: Bool = false) {
        var text = "time_s,ax,ay,az,gx,gy,gz\n"
        for step in 0..<800 {
            let t = Double(step) * 0.01
            let roll = moving ? 6 * sin(2 * .pi * t / 4) : 0
            let phi = (heel + roll) * .pi / 180
            let theta = pitch * .pi / 180
            let wobble = 0.05 * sin(Double(step) * 2.3)
            let f = SIMD3(g * sin(theta), -g * cos(theta) * sin(phi), -g * cos(theta) * cos(phi))
            let gx = 0.3 + wobble + (moving ? 6 * 2 * .pi / 4 * cos(2 * .pi * t / 4) : 0)
            text += "\(1_763_780_000 + t),\(f.x),\(f.y + wobble / 10),\(f.z),\(gx),\(-0.2),\(0.4 - wobble)\n"
        }
        writeText(path, text)
    }

    @Test("calibrate level: a tilted IMU on a still boat gives its tilt and gyro bias; the state file is written whole")
    func level() throws {
        let folder = temporaryFolder()
        trace(folder + "/still.csv", heel: 3, pitch: -2)
        let imu = try IMUConfiguration.parse("csv://" + folder + "/still.csv", base: ".")
        let result = try LevelCalibration.measure(imu, seconds: 5) { _ in }
        #expect(abs(result.mounting.heel - 3) < 0.01 && abs(result.mounting.pitch + 2) < 0.01)
        #expect(abs(result.gyroBias.z - 0.4) < 0.05)
        var state = StateFile()
        state.level = StateFile.Level(
            imu: imu.endpoint, heel: result.mounting.heel, pitch: result.mounting.pitch, gyroBias: result.gyroBias,
            time: 1_763_780_000, seconds: 5)
        try state.save(folder + "/state.toml")
        let loaded = try StateFile.load(folder + "/state.toml")
        #expect(abs((loaded.level?.heel ?? 0) - result.mounting.heel) < 1e-4)
        #expect(loaded.level?.imu == imu.endpoint)
        #expect(loaded.level?.time == 1_763_780_000 && loaded.level?.seconds == 5, "written whole, read whole")
        // Nothing left beside it.
        let listing = try #require(opendir(folder))
        var names: [String] = []
        while let entry = readdir(listing) {
            names.append(
                withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) })
        }
        closedir(listing)
        #expect(names.filter { $0.hasPrefix("state.toml") } == ["state.toml"])

        // Applied to that IMU only.
        var configuration = GatewayConfiguration()
        configuration.imu = imu
        #expect(loaded.apply(to: &configuration)?.hasPrefix("state: level calibration applied") == true)
        #expect(configuration.imu?.mounting == Mounting(heel: loaded.level!.heel, pitch: loaded.level!.pitch))
        #expect(configuration.engine.initialGyroBias != nil)
        var other = GatewayConfiguration()
        other.imu = try IMUConfiguration.parse("i2c:///dev/i2c-1", base: ".")
        #expect(loaded.apply(to: &other)?.contains("not applied") == true)
        #expect(other.imu?.mounting == .level)
    }

    @Test("calibrate level refuses a moving boat")
    func moving() throws {
        let folder = temporaryFolder()
        trace(folder + "/rolling.csv", heel: 0, pitch: 0, moving: true)
        let imu = try IMUConfiguration.parse("csv://" + folder + "/rolling.csv", base: ".")
        #expect {
            _ = try LevelCalibration.measure(imu, seconds: 5) { _ in }
        } throws: { error in
            "\(error)".contains("not still")
        }
    }

    @Test("a state file that is not ours is reported, not half-read")
    func badState() {
        let folder = temporaryFolder()
        writeText(folder + "/state.toml", "[level]\nheel = 2\n")
        #expect(throws: ConfigurationFile.Error.self) { try StateFile.load(folder + "/state.toml") }
        #expect((try? StateFile.load(folder + "/absent.toml")) == StateFile())
        // Numbers no level calibration has (a broken card): refused, so the IMU runs uncalibrated, never on NaN.
        let good =
            "[level]\nimu = \"i2c:1\"\nheel = 1.5\npitch = -0.5\ngyro_bias = [0.1, -0.2, 0.05]\ntime = 1700000000\n"
        writeText(folder + "/good.toml", good)
        #expect((try? StateFile.load(folder + "/good.toml"))?.level?.heel == 1.5)
        for (from, to) in [
            ("heel = 1.5", "heel = nan"), ("pitch = -0.5", "pitch = 1e300"), ("heel = 1.5", "heel = 181"),
            ("[0.1, -0.2, 0.05]", "[inf, 0, 0]"), ("[0.1, -0.2, 0.05]", "[nan, 0, 0]"),
            ("[0.1, -0.2, 0.05]", "[0, 0, 31]"),
            ("time = 1700000000", "time = 1e300"),
        ] {
            writeText(folder + "/broken.toml", good.replacing(from, with: to))
            #expect(throws: ConfigurationFile.Error.self, "\(to)") { try StateFile.load(folder + "/broken.toml") }
        }
    }
}
