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

@Suite struct IMUURLTests {
    @Test("IMU URLs: the I2C bus, address and chip; the IIO devices and mode; options")
    func parse() throws {
        let i2c = try IMUConfiguration.parse(
            "i2c:///dev/i2c-1?address=0x69&chip=icm20948&rate=200&magnetometer=true", base: ".")
        #expect(i2c.source == .i2c(bus: "/dev/i2c-1", address: 0x69, chip: .icm20948))
        #expect(i2c.sensor.sampleRate == 200 && i2c.sensor.magnetometer)
        let auto = try IMUConfiguration.parse("i2c:///dev/i2c-1", base: ".")
        #expect(auto.source == .i2c(bus: "/dev/i2c-1", address: nil, chip: nil))
        let iio = try IMUConfiguration.parse(
            "iio:///sys/bus/iio/devices/iio:device0?gyro=iio:device1&mode=buffered&lowpass=10", base: ".")
        #expect(
            iio.source
                == .iio(
                    devices: ["/sys/bus/iio/devices/iio:device0", "/sys/bus/iio/devices/iio:device1"], mode: .buffered,
                    devRoot: "/dev", trigger: nil))
        #expect(iio.sensor.lowPass == 10)
        let csv = try IMUConfiguration.parse("csv:trace.csv", base: "/data")
        #expect(csv.source == .csv(path: "/data/trace.csv"))
    }

    @Test(
        "bad IMU URLs say what is wrong",
        arguments: [
            ("i2c:///dev/i2c-1?chip=bmi160", "unknown IMU chip \"bmi160\""),
            ("i2c:///dev/i2c-1?address=0x99", "7-bit"),
            ("i2c:i2c-1", "the bus"),
            ("iio:///sys/bus/iio/devices/iio:device0?mode=fast", "polled or buffered"),
            ("i2c:///dev/i2c-1?rate=5000", "rate must be"),
            ("i2c:///dev/i2c-1?colour=red", "unknown option colour"),
            ("spi:///dev/spidev0.0", "an IMU is"),
        ])
    func refused(url: String, message: String) {
        #expect {
            _ = try IMUConfiguration.parse(url, base: ".")
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    @Test("the MacArthur HAT's profile names its ICM-20948; [imu] without a url uses it, with the HAT's axes")
    func boardIMU() throws {
        let text = "board = \"macarthur-hat\"\n[imu]\nheading = true\nrate = 125\n[[output]]\nurl = \"stdout:\"\n"
        let configuration = try ConfigurationFile.parse(text, base: projectFixtures() + "/../Boards")
        let imu = try #require(configuration.imu)
        #expect(imu.endpoint == "i2c:///dev/i2c-1?address=0x68&chip=icm20948")
        #expect(imu.axes == AxisMap("x,-y,-z"))
        #expect(imu.sensor.sampleRate == 125 && imu.sensor.magnetometer)
        #expect(configuration.engine.imuHeading)
    }

    @Test("[imu] keys are checked with their line")
    func badKeys() {
        do {
            _ = try ConfigurationFile.parse("[imu]\nurl = \"i2c:///dev/i2c-1\"\nlowpas = 20\n")
            Issue.record("accepted")
        } catch {
            #expect(error.key == "lowpas" || error.key == "imu.lowpas")
            #expect(error.line == 3)
        }
        do {
            _ = try ConfigurationFile.parse("[imu]\nurl = \"i2c:///dev/i2c-1?chip=nope\"\n")
            Issue.record("accepted")
        } catch {
            #expect(error.key == "imu.url")
        }
    }
}

/// Files and folders for one test.
func writeText(_ path: String, _ text: String) {
    let file = fopen(path, "w")!
    fputs(text, file)
    fclose(file)
}

@Suite struct CalibrationTests {
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
    }
}

@Suite struct LiveIMUTests {
    let g = AttitudeFilter.gravity

    /// A polled IIO device whose chip is mounted components-up (z up, y to port): axes "x,-y,-z".
    func makeDevice(_ path: String, heel: Double) {
        mkdir(path, 0o755)
        let phi = heel * .pi / 180
        // Body (0, -g sin φ, -g cos φ) seen by the chip: (x, -y, -z).
        let chip = SIMD3(0, g * sin(phi), g * cos(phi))
        writeText(path + "/name", "icm20948\n")
        writeText(path + "/in_accel_scale", "0.001\n")
        writeText(path + "/in_anglvel_scale", "0.001\n")
        for (axis, value) in zip(["x", "y", "z"], [chip.x, chip.y, chip.z]) {
            writeText(path + "/in_accel_\(axis)_raw", "\(Int((value / 0.001).rounded()))\n")
            writeText(path + "/in_anglvel_\(axis)_raw", "0\n")
        }
    }

    @Test(
        "iio:// in the runtime: an IMU that appears after the start is opened, remapped and calibrated; XDR says the boat's heel"
    )
    func runtimeIIO() throws {
        let folder = temporaryFolder()
        let device = folder + "/iio:device0"
        let url = "iio://" + device + "?rate=100"
        var configuration = GatewayConfiguration()
        var imu = try IMUConfiguration.parse(url, base: ".")
        imu.axes = try #require(AxisMap("x,-y,-z"))
        configuration.imu = imu
        // The IMU is tilted 2° to starboard on its mount: the boat heels 10°, it reads 12°.
        var state = StateFile()
        state.level = StateFile.Level(imu: url, heel: 2, pitch: 0, gyroBias: .zero, time: 0, seconds: 5)
        try state.save(folder + "/state.toml")
        configuration.stateFile = folder + "/state.toml"
        var output = OutputConfiguration(name: "tcp", endpoint: .tcp(host: "127.0.0.1", port: 0))
        output.kinds = [.attitude]
        configuration.outputs = [output]
        configuration.engine.kinds = [.attitude]
        configuration.statusLine = false
        let messages = MessageBox()
        let runtime = try Runtime(configuration: configuration) { messages.append($0.message) }
        let reader = LoopbackClient(port: try #require(runtime.tcpPorts["tcp"]))
        let box = RuntimeBox(runtime)
        let readerBox = ClientBox(reader)
        let running = TestThread { box.runtime.run(duration: 4) }
        let start = POSIX.monotonic()
        let reading = TestThread {
            while POSIX.monotonic() - start < 4.2 {
                readerBox.client.drain()
                usleep(5000)
            }
        }
        usleep(700_000)
        makeDevice(device, heel: 12)
        running.join()
        reading.join()
        let text = String(decoding: reader.bytes, as: UTF8.self)
        let last = try #require(text.split(separator: "\r\n").last { $0.contains("ROLL") })
        let heel = try #require(Double(last.split(separator: ",")[2]))
        #expect(abs(heel - 10) <= 0.15, "\(last)")
        let log = messages.items
        #expect(log.contains { $0.hasPrefix("state: level calibration applied") })
        #expect(log.contains { $0.contains("trying again in 1 s") })
        #expect(log.contains { $0.hasPrefix("imu: IIO icm20948") })
    }

    @Test("i2c:// with no such bus: the gateway keeps running and says why, with the bus named")
    func missingBus() throws {
        var configuration = GatewayConfiguration()
        configuration.imu = try IMUConfiguration.parse("i2c:///dev/i2c-telltale-none?chip=mpu6050", base: ".")
        configuration.outputs = [OutputConfiguration(name: "tcp", endpoint: .tcp(host: "127.0.0.1", port: 0))]
        configuration.statusLine = false
        configuration.stateFile = nil
        let messages = MessageBox()
        let runtime = try Runtime(configuration: configuration) { messages.append($0.message) }
        runtime.run(duration: 0.3)
        #expect(messages.items.contains { $0.contains("/dev/i2c-telltale-none") && $0.contains("cannot open the bus") })
    }
}

final class MessageBox: @unchecked Sendable {
    private var lock = pthread_mutex_t()
    private var stored: [String] = []
    init() { pthread_mutex_init(&lock, nil) }
    func append(_ text: String) {
        pthread_mutex_lock(&lock)
        stored.append(text)
        pthread_mutex_unlock(&lock)
    }
    var items: [String] {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        return stored
    }
}

@Suite struct AttitudeOutputTests {
    @Test("XDR names and decimals per output: one output as configured globally, another B&G-style with 2 decimals")
    func perOutput() throws {
        let folder = temporaryFolder()
        CalibrationTests().trace(folder + "/heeled.csv", heel: 7.25, pitch: -1.5)
        let text = """
            status_line = false
            state_file = ""
            [attitude]
            decimals = 1
            [imu]
            url = "csv://\(folder)/heeled.csv"
            [[output]]
            name = "plain"
            url = "tcp://127.0.0.1:1"
            kinds = ["attitude"]
            [[output]]
            name = "bg"
            url = "tcp://127.0.0.1:2"
            kinds = ["attitude"]
            attitude_names = ["HEEL", "TRIM"]
            attitude_decimals = 2
            talker = "YX"
            """
        var configuration = try ConfigurationFile.parse(text)
        // Any free port (the file format wants a real one).
        for index in configuration.outputs.indices {
            configuration.outputs[index].endpoint = .tcp(host: "127.0.0.1", port: 0)
        }
        configuration.engine.kinds = configuration.requiredKinds
        let runtime = try Runtime(configuration: configuration) { _ in }
        let plain = LoopbackClient(port: try #require(runtime.tcpPorts["plain"]))
        let bg = LoopbackClient(port: try #require(runtime.tcpPorts["bg"]))
        let box = RuntimeBox(runtime)
        let boxes = (ClientBox(plain), ClientBox(bg))
        let running = TestThread { box.runtime.run(duration: 2.5) }
        let start = POSIX.monotonic()
        let reading = TestThread {
            while POSIX.monotonic() - start < 2.7 {
                boxes.0.client.drain()
                boxes.1.client.drain()
                usleep(5000)
            }
        }
        running.join()
        reading.join()
        let plainLast = try #require(String(decoding: plain.bytes, as: UTF8.self).split(separator: "\r\n").last)
        let bgLast = try #require(String(decoding: bg.bytes, as: UTF8.self).split(separator: "\r\n").last)
        // The same attitude (the last tick's), in two dialects.
        let p = plainLast.split(separator: ",")
        let b = bgLast.split(separator: ",")
        #expect(p[0] == "$IIXDR" && p[4] == "ROLL" && p[8].hasPrefix("PTCH*"), "\(plainLast)")
        #expect(b[0] == "$YXXDR" && b[4] == "HEEL" && b[8].hasPrefix("TRIM*"), "\(bgLast)")
        #expect(p[2].split(separator: ".").last?.count == 1 && b[2].split(separator: ".").last?.count == 2)
        #expect(b[6].split(separator: ".").last?.count == 2)
        let heel = try #require(Double(b[2]))
        #expect(abs(heel - 7.25) < 1, "\(bgLast)")
        #expect(abs((Double(p[2]) ?? 0) - heel) <= 0.05 + 1e-9)
        #expect(
            bgLast.hasSuffix(checksummed(String(bgLast.dropFirst().prefix { $0 != "*" })).suffix(3)))
    }

    @Test("attitude names are checked")
    func badNames() {
        #expect(throws: ConfigurationFile.Error.self) {
            try ConfigurationFile.parse("[[output]]\nurl = \"stdout:\"\nattitude_names = [\"heel\", \"TRIM\"]\n")
        }
        #expect(throws: ConfigurationFile.Error.self) {
            try ConfigurationFile.parse("[[output]]\nurl = \"stdout:\"\nattitude_names = [\"HEEL\"]\n")
        }
    }
}
