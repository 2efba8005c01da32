import Engine
import Marine
import NMEA
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct IMUEngineTests {
    let g = AttitudeFilter.gravity

    @Test("still at start: the gyro's mean becomes its bias, so the rate of turn reads 0 rather than the bias")
    func startupBias() {
        var configuration = EngineConfiguration()
        configuration.kinds = [.rateOfTurn]
        var engine = Engine(configuration: configuration)
        let imu = engine.source(named: "imu")
        // 0.5 °/s of bias about the vertical is 30 °/min of phantom turn: gravity cannot show it.
        let bias = SIMD3(0.2, -0.3, 0.5)
        var time = 0.0
        for step in 0..<500 {
            let wobble = 0.05 * sin(Double(step))
            engine.ingest(gyroscope: bias + wobble, accelerometer: SIMD3(0, 0, -g), from: imu, at: time)
            time += 0.01
        }
        _ = tick(&engine, at: time)
        #expect(abs(engine.values.rateOfTurn ?? 99) < 0.05)
        #expect(engine.takeNotices().contains { $0.hasPrefix("imu: boat still at start, gyro bias measured (0.2") })

        var without = configuration
        without.startupBiasWindow = 0
        var naive = Engine(configuration: without)
        time = 0
        for _ in 0..<500 {
            naive.ingest(gyroscope: bias, accelerometer: SIMD3(0, 0, -g), from: imu, at: time)
            time += 0.01
        }
        _ = tick(&naive, at: time)
        #expect(abs((naive.values.rateOfTurn ?? 0) - 0.5) < 0.05)
    }

    @Test("moving at start: no bias is taken from a rolling boat, and the engine says so")
    func movingStart() {
        var engine = Engine()
        let imu = engine.source(named: "imu")
        var time = 0.0
        for _ in 0..<500 {
            engine.ingest(
                gyroscope: SIMD3(6 * sin(2 * .pi * time / 5), 0, 0), accelerometer: SIMD3(0, 0, -g), from: imu, at: time
            )
            time += 0.01
        }
        #expect(engine.takeNotices().contains { $0.hasPrefix("imu: boat moving at start") })
    }

    @Test("a stored bias starts the filter when the start is not still")
    func storedBias() {
        var configuration = EngineConfiguration()
        configuration.initialGyroBias = SIMD3(0, 0, 0.4)
        configuration.startupBiasWindow = 0
        var engine = Engine(configuration: configuration)
        let imu = engine.source(named: "imu")
        engine.ingest(gyroscope: SIMD3(0, 0, 0.4), accelerometer: SIMD3(0, 0, -g), from: imu, at: 0)
        _ = tick(&engine, at: 0.01)
        #expect(abs(engine.values.rateOfTurn ?? 99) < 1e-6)
    }

    @Test("with imu heading on, the magnetometer feeds HDG (after any compass input, which ranks first)")
    func magneticHeading() throws {
        var configuration = EngineConfiguration()
        configuration.imuHeading = true
        configuration.magnetometerOffset = SIMD3(5, -3, 1)
        configuration.kinds = [.headingMagnetic]
        var engine = Engine(configuration: configuration)
        let compass = engine.source(named: "compass")
        let imu = engine.source(named: "imu")
        // Heading 120° magnetic, level: the field is (Bh cos ψ, -Bh sin ψ, Bv) plus the boat's own offset.
        let psi = 120 * Double.pi / 180
        let field = SIMD3(20 * cos(psi), -20 * sin(psi), 34.6) + SIMD3(5, -3, 1)
        var time = 0.0
        var out: [ComputedKind: Sentence] = [:]
        for _ in 0..<100 {
            engine.ingest(gyroscope: .zero, accelerometer: SIMD3(0, 0, -g), magnetometer: field, from: imu, at: time)
            time += 0.01
        }
        out = tick(&engine, at: time)
        let hdg = try #require(out[.headingMagnetic])
        #expect(String(decoding: hdg.bytes, as: UTF8.self).hasPrefix("$IIHDG,120.0,"))
        // A compass input takes over, though the IMU's heading came first: the IMU ranks after every input. It does
        // once it has been fresh for the selector's return delay.
        for second in 0...11 {
            engine.ingest(
                try HDG(sensorHeading: 95, deviation: nil, variation: nil).encode(talker: "HC"), from: compass,
                at: time + Double(second))
            engine.ingest(
                gyroscope: .zero, accelerometer: SIMD3(0, 0, -g), magnetometer: field, from: imu,
                at: time + Double(second))
            out = tick(&engine, at: time + Double(second) + 0.01)
        }
        #expect(String(decoding: try #require(out[.headingMagnetic]).bytes, as: UTF8.self).hasPrefix("$IIHDG,95.0,"))
    }
}
