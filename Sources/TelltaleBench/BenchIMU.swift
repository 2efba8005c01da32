import ArgumentParser
import Marine
import Sensors

extension Bench {
    /// `telltale-bench imu`: the cost of one IMU sample on the gateway's side, a driver's burst read and scaling
    /// (an ICM-20948 modelled as registers, no bus time) and one attitude filter update.
    struct IMURead: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "imu", abstract: "Driver read and scaling plus one filter update, per sample (no bus time).")

        @Option(help: "Samples to read.")
        var samples = 1_000_000

        func run() throws {
            let bus = RegisterFileI2CBus(address: 0x68, bankSelect: true)
            bus.registers[0][0x00] = 0xEA
            // At rest, heeled 10° (chip z up, y to port), ±4 g after the driver's set-up.
            let block: [UInt8] = [0x00, 0x00, 0x05, 0x8E, 0x1F, 0x83, 0x00, 0x10, 0xFF, 0xF0, 0x00, 0x08, 0x05, 0x4C]
            let driver = try IMUChip.icm20948.open(bus: bus, address: 0x68, settings: IMUSettings())
            for (index, byte) in block.enumerated() { bus.registers[0][0x2D + index] = byte }
            let axes = AxisMap("x,-y,-z")!
            var filter = AttitudeFilter()
            let start = monotonicSeconds()
            for _ in 0..<samples {
                let reading = try driver.read()
                filter.update(
                    gyroscope: axes.apply(reading.gyroscope), accelerometer: axes.apply(reading.accelerometer), dt: 0.01
                )
            }
            let nanoseconds = (monotonicSeconds() - start) / Double(max(samples, 1)) * 1e9
            Console.out(
                "imu: \(format(nanoseconds, decimals: 0)) ns per sample (ICM-20948 read and scale, axis map, filter update); "
                    + "heel \(format(filter.heel, decimals: 2))°\n")
        }
    }
}
