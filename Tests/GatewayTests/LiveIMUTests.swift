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
