import Sensors
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Each driver against a transcript written from its datasheet: every configuration write is asserted byte for
/// byte, and the sample reads back in SI units.
@Suite struct DriverTests {
    let g = 9.80665

    func transcript(_ name: String) throws -> ScriptedI2CBus {
        let path = projectFixtures() + "/imu-transcripts/\(name).txt"
        let text = try #require(readFile(path).map { String(decoding: $0, as: UTF8.self) }, "missing \(path)")
        return ScriptedI2CBus(transcript: try I2CTransaction.parse(text))
    }

    func close(_ a: SIMD3<Double>, _ b: SIMD3<Double>, _ tolerance: Double) -> Bool {
        let d = a - b
        return (d * d).sum().squareRoot() < tolerance
    }

    @Test("ICM-20948: configuration writes and one sample scaled")
    func icm20948() throws {
        let bus = try transcript("icm20948")
        let driver = try IMUChip.icm20948.open(bus: bus, address: 0x68, settings: IMUSettings())
        let reading = try driver.read()
        #expect(bus.mismatch == nil, "\(bus.mismatch ?? "")")
        #expect(bus.remaining.isEmpty)
        #expect(close(reading.accelerometer, SIMD3(0, 0, g), 1e-9))
        #expect(close(reading.gyroscope, SIMD3(10, -328 / 65.5, 0), 1e-9))
        #expect(abs((reading.temperature ?? 0) - 24.999) < 0.01)
        #expect(reading.magnetometer == nil)
        #expect(driver.configured.accelerometerRange == 4 && driver.configured.gyroscopeRange == 500)
        #expect(abs(driver.configured.sampleRate - 1125.0 / 11) < 1e-9)
        #expect(driver.description == "ICM-20948 at 0x68 on /dev/i2c-test")
    }

    @Test("ICM-20948 left in another bank, with its AK09916: the field in the accelerometer's axes; overflow dropped")
    func icm20948Magnetometer() throws {
        let bus = try transcript("icm20948-magnetometer")
        var settings = IMUSettings()
        settings.magnetometer = true
        let driver = try IMUChip.icm20948.open(bus: bus, address: 0x69, settings: settings)
        let first = try driver.read()
        let second = try driver.read()
        #expect(bus.mismatch == nil, "\(bus.mismatch ?? "")")
        #expect(bus.remaining.isEmpty)
        let field = try #require(first.magnetometer)
        #expect(close(field, SIMD3(19.95, -10.05, 40.05), 1e-9))
        #expect(second.magnetometer == nil)
        #expect(driver.configured.magnetometer)
    }

    @Test("MPU-6050: configuration writes and one sample scaled")
    func mpu6050() throws {
        let bus = try transcript("mpu6050")
        let driver = try IMUChip.mpu6050.open(bus: bus, address: 0x68, settings: IMUSettings())
        let reading = try driver.read()
        #expect(bus.mismatch == nil, "\(bus.mismatch ?? "")")
        #expect(bus.remaining.isEmpty)
        #expect(close(reading.accelerometer, SIMD3(-0.5 * g, 0, g), 1e-9))
        #expect(close(reading.gyroscope, SIMD3(0, 0, 2), 1e-9))
        #expect(abs((reading.temperature ?? 0) - 25) < 0.01)
        #expect(driver.configured.sampleRate == 100 && driver.configured.lowPass == 20)
    }

    @Test("MPU-9250 at 0x69: its own accelerometer low-pass, its temperature formula")
    func mpu9250() throws {
        let bus = try transcript("mpu9250")
        let driver = try IMUChip.mpu9250.open(bus: bus, address: 0x69, settings: IMUSettings())
        let reading = try driver.read()
        #expect(bus.mismatch == nil, "\(bus.mismatch ?? "")")
        #expect(bus.remaining.isEmpty)
        #expect(close(reading.gyroscope, SIMD3(-66 / 65.5, 0, 0), 1e-9))
        #expect(abs((reading.temperature ?? 0) - 25.0) < 0.01)
        #expect(driver.description.hasPrefix("MPU-9250"))
    }

    @Test("LSM6DSOX: LPF2 bandwidth, little-endian gyroscope-then-accelerometer burst")
    func lsm6dsox() throws {
        let bus = try transcript("lsm6dsox")
        let driver = try IMUChip.lsm6dsox.open(bus: bus, address: 0x6A, settings: IMUSettings())
        let reading = try driver.read()
        #expect(bus.mismatch == nil, "\(bus.mismatch ?? "")")
        #expect(bus.remaining.isEmpty)
        #expect(close(reading.gyroscope, SIMD3(1.75, 0, -3.5), 1e-9))
        #expect(close(reading.accelerometer, SIMD3(0, 4098 * 0.122e-3 * g, 8197 * 0.122e-3 * g), 1e-9))
        #expect(abs((reading.temperature ?? 0) - 27) < 1e-9)
        #expect(driver.configured.sampleRate == 104 && driver.configured.lowPass == 26)
    }

    @Test("LSM6DS3: anti-aliasing bandwidth from BW_XL, 16 LSB per °C")
    func lsm6ds3() throws {
        let bus = try transcript("lsm6ds3")
        let driver = try IMUChip.lsm6ds3.open(bus: bus, address: 0x6B, settings: IMUSettings())
        let reading = try driver.read()
        #expect(bus.mismatch == nil, "\(bus.mismatch ?? "")")
        #expect(bus.remaining.isEmpty)
        #expect(close(reading.accelerometer, SIMD3(0, 0, -8197 * 0.122e-3 * g), 1e-9))
        #expect(abs((reading.temperature ?? 0) - 27) < 1e-9)
        #expect(driver.configured.lowPass == 50)
    }

    @Test("other settings: the nearest rate and bandwidth, at least the asked range")
    func otherSettings() throws {
        var settings = IMUSettings()
        settings.accelerometerRange = 5  // needs ±8 g
        settings.gyroscopeRange = 2000
        settings.sampleRate = 200
        settings.lowPass = 45
        let bus = ScriptedI2CBus(
            transcript: try I2CTransaction.parse(
                """
                R 68 75 : 68
                W 68 6b 80
                W 68 6b 01
                W 68 19 04
                W 68 1a 03
                W 68 1b 18
                W 68 1c 10
                """))
        let driver = try IMUChip.mpu6050.open(bus: bus, address: 0x68, settings: settings)
        #expect(bus.mismatch == nil, "\(bus.mismatch ?? "")")
        #expect(
            driver.configured
                == IMUConfigured(
                    accelerometerRange: 8, gyroscopeRange: 2000, sampleRate: 200, lowPass: 42, magnetometer: false))
    }

    @Test("a wrong chip at the address: the error names the expected chip, the address, and what answered")
    func wrongChip() throws {
        let bus = ScriptedI2CBus(
            transcript: try I2CTransaction.parse(
                """
                R 68 00 : 71    # an MPU-9250's register 0 is not 0xea
                W 68 7f 00
                R 68 00 : 71
                R 68 00 : 71    # identify: not an ICM-20948
                R 68 75 : 71    # not an MPU-6050 or 6500, an MPU-9250
                """))
        #expect {
            _ = try IMUChip.icm20948.open(bus: bus, address: 0x68, settings: IMUSettings())
        } throws: { error in
            "\(error)"
                == "expected ICM-20948 at 0x68 on /dev/i2c-test, but WHO_AM_I (register 0x00) read 0x71: that is MPU-9250"
        }
    }

    @Test("nothing at the address: the error says so and what to check")
    func missingChip() throws {
        let bus = ScriptedI2CBus(transcript: [])
        bus.failures = [(0x6A, .noAcknowledge)]
        #expect {
            _ = try IMUChip.lsm6dsox.open(bus: bus, address: 0x6A, settings: IMUSettings())
        } throws: { error in
            let text = "\(error)"
            return text.contains("/dev/i2c-test address 0x6a") && text.contains("no acknowledge")
                && text.contains("check the address")
        }
        #expect(bus.statistics.errors == 1)
    }

    @Test("a driver that writes something else fails against the transcript (the fake bus can fail a test)")
    func transcriptCatchesWrongWrite() throws {
        let bus = ScriptedI2CBus(transcript: try I2CTransaction.parse("R 68 75 : 68\nW 68 6b 81\n"))
        #expect(throws: IMUError.self) {
            _ = try IMUChip.mpu6050.open(bus: bus, address: 0x68, settings: IMUSettings())
        }
        #expect(bus.mismatch?.contains("expected W 68 6b 81, the driver did W 68 6b 80") == true)
    }

    @Test("auto-detection reads identities only")
    func detect() throws {
        let bus = ScriptedI2CBus(
            transcript: try I2CTransaction.parse(
                """
                R 6a 00 : 00    # not an ICM-20948
                R 6a 75 : 00    # nor of the MPU family
                R 6a 0f : 6c    # an LSM6DSOX
                """))
        let found = try #require(IMUChip.detect(bus: bus, address: 0x6A))
        #expect(found.chip == .lsm6dsox && found.address == 0x6A)
        #expect(!bus.log.contains { if case .write = $0 { true } else { false } })
    }

    @Test("a transcript round-trips through its text form; bad lines name their number")
    func transcriptText() throws {
        let items: [I2CTransaction] = [
            .write(address: 0x68, bytes: [0x6B, 0x80]), .pause(seconds: 0.1),
            .read(address: 0x0C, register: 0x10, bytes: [1, 2, 3]),
        ]
        let text = items.map(\.description).joined(separator: "\n")
        #expect(try I2CTransaction.parse(text) == items)
        #expect(throws: TranscriptError.self) { try I2CTransaction.parse("W 68 6b 80\nX 1 2\n") }
        do {
            _ = try I2CTransaction.parse("W 68 6b 80\nR 68 zz : 01\n")
        } catch {
            #expect(error.line == 2)
        }
    }
}

@Suite struct LinuxI2CBusTests {
    @Test("a bus that does not exist: the error names it")
    func missingBus() {
        #expect {
            _ = try LinuxI2CBus(path: "/dev/i2c-telltale-none")
        } throws: { error in
            "\(error)".contains("/dev/i2c-telltale-none") && "\(error)".contains("cannot open")
        }
    }

    @Test("transient failures are retried and counted; a lasting one is reported with bus and address")
    func retries() throws {
        var calls = 0
        let flaky = try LinuxI2CBus(path: "/dev/null", attempts: 3) { _, _ in
            calls += 1
            return calls <= 2 ? (-1, EIO) : (0, 0)
        }
        try flaky.writeRegister(0x68, 0x6B, 0x00)
        #expect(flaky.statistics.retries == 2 && flaky.statistics.errors == 0)

        let broken = try LinuxI2CBus(path: "/dev/null", attempts: 3) { _, _ in (-1, EIO) }
        #expect {
            _ = try broken.readRegister(0x69, 0x75)
        } throws: { error in
            "\(error)".hasPrefix("I2C /dev/null address 0x69")
        }
        #expect(broken.statistics.retries == 2 && broken.statistics.errors == 1)

        let absent = try LinuxI2CBus(path: "/dev/null", attempts: 3) { _, _ in (-1, ENXIO) }
        #expect(throws: I2CError.self) { try absent.writeRegister(0x68, 0x6B, 0x00) }
        #expect(absent.statistics.retries == 0)
    }

    @Test("the real ioctl on something that is not an adapter fails cleanly")
    func notAnAdapter() throws {
        let bus = try LinuxI2CBus(path: "/dev/null")
        #expect(throws: I2CError.self) { _ = try bus.readRegister(0x68, 0x75) }
        #expect(bus.statistics.errors == 1)
    }

    @Test("the ioctl argument is laid out as struct i2c_rdwr_ioctl_data with two struct i2c_msg")
    func layout() throws {
        var seen: [UInt16] = []
        var count: UInt32 = 0
        let bus = try LinuxI2CBus(path: "/dev/null") { _, request in
            let messages = request.load(as: UnsafeMutableRawPointer.self)
            count = request.load(fromByteOffset: MemoryLayout<UnsafeRawPointer>.size, as: UInt32.self)
            for index in 0..<Int(count) {
                let base = index * 16
                seen.append(messages.load(fromByteOffset: base, as: UInt16.self))
                seen.append(messages.load(fromByteOffset: base + 2, as: UInt16.self))
                seen.append(messages.load(fromByteOffset: base + 4, as: UInt16.self))
                let buffer = messages.load(fromByteOffset: base + 8, as: UnsafeMutablePointer<UInt8>.self)
                if index == 0 { seen.append(UInt16(buffer[0])) } else { buffer[0] = 0xEA }
            }
            return (0, 0)
        }
        #expect(try bus.readRegister(0x68, 0x00) == 0xEA)
        #expect(count == 2)
        #expect(seen == [0x68, 0, 1, 0x00, 0x68, 1, 1])
    }
}
