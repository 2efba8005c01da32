import Sensors
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The IIO reader against sysfs trees the test builds, as the kernel lays them out.
@Suite struct IIOTests {
    /// A fresh directory for one test.
    func temporaryDirectory() -> String { temporaryFolder("iio") }

    func write(_ path: String, _ text: String) {
        let file = fopen(path, "w")!
        fputs(text, file)
        fclose(file)
    }

    func makeDirectory(_ path: String) { mkdir(path, 0o755) }

    func read(_ path: String) -> String {
        guard let file = fopen(path, "r") else { return "" }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 256)
        guard fgets(&buffer, 256, file) != nil else { return "" }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self).filter { $0 != "\n" }
    }

    /// A device with accelerometer and gyroscope channels, as inv_mpu6050 or st_lsm6dsx present them.
    func device(_ root: String, _ name: String, accel: [Int]?, gyro: [Int]?, magn: [Int]? = nil) -> String {
        let path = "\(root)/\(name)"
        makeDirectory(path)
        write("\(path)/name", "telltale-fake\n")
        write("\(path)/sampling_frequency", "50\n")
        if let accel {
            for (axis, value) in zip(["x", "y", "z"], accel) { write("\(path)/in_accel_\(axis)_raw", "\(value)\n") }
            write("\(path)/in_accel_scale", "0.000598\n")
        }
        if let gyro {
            for (axis, value) in zip(["x", "y", "z"], gyro) { write("\(path)/in_anglvel_\(axis)_raw", "\(value)\n") }
            write("\(path)/in_anglvel_scale", "0.000266316\n")
            write("\(path)/in_anglvel_z_offset", "-10\n")
        }
        if let magn {
            for (axis, value) in zip(["x", "y", "z"], magn) {
                write("\(path)/in_magn_\(axis)_raw", "\(value)\n")
                write("\(path)/in_magn_\(axis)_scale", "0.0015\n")
            }
        }
        return path
    }

    @Test("polled: raw, offset and scale per channel, in m/s², °/s and µT; the asked rate written")
    func polled() throws {
        let root = temporaryDirectory()
        let path = device(
            root, "iio:device0", accel: [100, -200, 16400], gyro: [376, 0, -366], magn: [100, 200, -300])
        let reader = try IIOReader(devices: [path], sampleRate: 100, magnetometer: true)
        var readings: [IMUReading] = []
        try reader.read { reading, _ in readings.append(reading) }
        let reading = try #require(readings.first)
        #expect(abs(reading.accelerometer.z - 16400 * 0.000598) < 1e-9)
        #expect(abs(reading.accelerometer.y + 200 * 0.000598) < 1e-9)
        #expect(abs(reading.gyroscope.x - 376 * 0.000266316 * 180 / .pi) < 1e-9)
        #expect(abs(reading.gyroscope.z - (-376) * 0.000266316 * 180 / .pi) < 1e-9)
        #expect(abs((reading.magnetometer?.z ?? 0) + 300 * 0.0015 * 100) < 1e-9)
        #expect(read("\(path)/sampling_frequency") == "100")
        #expect(reader.sampleRate == 100)
        // A new value is read again from the same descriptors.
        write("\(path)/in_accel_x_raw", "-5\n")
        try reader.read { reading, _ in readings.append(reading) }
        #expect(abs(readings[1].accelerometer.x + 5 * 0.000598) < 1e-9)
    }

    @Test("polled over two devices: accelerometer on one, gyroscope on the other (ST's drivers)")
    func twoDevices() throws {
        let root = temporaryDirectory()
        let accel = device(root, "iio:device0", accel: [0, 0, 16400], gyro: nil)
        let gyro = device(root, "iio:device1", accel: nil, gyro: [10, 20, 30])
        let reader = try IIOReader(devices: [accel, gyro])
        var got: IMUReading?
        try reader.read { reading, _ in got = reading }
        #expect(abs((got?.gyroscope.y ?? 0) - 20 * 0.000266316 * 180 / .pi) < 1e-9)
        #expect(abs((got?.accelerometer.z ?? 0) - 16400 * 0.000598) < 1e-9)
    }

    @Test("a device without gyroscope channels: the error names the device and what is missing")
    func missingChannels() {
        let root = temporaryDirectory()
        let path = device(root, "iio:device0", accel: [0, 0, 1], gyro: nil)
        #expect {
            _ = try IIOReader(devices: [path])
        } throws: { error in
            "\(error)".contains("no anglvel channel x on \(path)")
        }
    }

    @Test("a value that is not a number is an error, not a sample")
    func unreadable() throws {
        let root = temporaryDirectory()
        let path = device(root, "iio:device0", accel: [0, 0, 1], gyro: [0, 0, 0])
        let reader = try IIOReader(devices: [path])
        write("\(path)/in_anglvel_y_raw", "oops\n")
        var count = 0
        #expect(throws: IMUError.self) { try reader.read { _, _ in count += 1 } }
        #expect(count == 0 && reader.readErrors == 1)
    }

    @Test(
        "scan types: byte order, sign, bits and shift",
        arguments: [(String, [UInt8], Double)]([
            ("le:s16/16>>0", [0x34, 0x12], 4660.0),
            ("le:s16/16>>0", [0xFE, 0xFF], -2.0),
            ("be:s12/16>>4", [0xFF, 0xF0], -1.0),
            ("be:u12/16>>4", [0xFF, 0xF0], 4095.0),
            ("le:s32/32>>0", [0x00, 0x00, 0x00, 0x80], -2_147_483_648.0),
        ]))
    func scanTypes(text: String, bytes: [UInt8], value: Double) throws {
        let type = try #require(IIOScanType(text))
        #expect(type.decode(bytes) == value)
    }

    @Test(
        "scan types the reader cannot use are refused",
        arguments: ["le:s16/16X2>>0", "xx:s16/16>>0", "le:s17/16>>0", "le:s16/24>>0"])
    func badScanTypes(text: String) {
        #expect(IIOScanType(text) == nil)
    }

    @Test("buffered: channels enabled, records laid out by index with the timestamp aligned, ages from timestamps")
    func buffered() throws {
        let root = temporaryDirectory()
        let path = device(root, "iio:device0", accel: [0, 0, 0], gyro: [0, 0, 0])
        makeDirectory("\(path)/scan_elements")
        makeDirectory("\(path)/buffer")
        write("\(path)/buffer/enable", "0\n")
        write("\(path)/buffer/length", "1\n")
        let names = ["in_accel_x", "in_accel_y", "in_accel_z", "in_anglvel_x", "in_anglvel_y", "in_anglvel_z"]
        for (index, name) in names.enumerated() {
            write("\(path)/scan_elements/\(name)_en", "0\n")
            write("\(path)/scan_elements/\(name)_index", "\(index)\n")
            write("\(path)/scan_elements/\(name)_type", "be:s16/16>>0\n")
        }
        write("\(path)/scan_elements/in_timestamp_en", "0\n")
        write("\(path)/scan_elements/in_timestamp_index", "6\n")
        write("\(path)/scan_elements/in_timestamp_type", "le:s64/64>>0\n")
        let dev = "\(root)/dev"
        makeDirectory(dev)
        // Three records of 24 bytes: six big-endian words, 4 bytes of padding, the timestamp at 16.
        var bytes: [UInt8] = []
        for sample in 0..<3 {
            for word in [Int16(sample), 0, 16400, 100, -100, Int16(sample * 10)] {
                bytes += [UInt8(UInt16(bitPattern: word) >> 8), UInt8(UInt16(bitPattern: word) & 0xFF)]
            }
            bytes += [0, 0, 0, 0]
            let nanoseconds = UInt64(1_000_000_000 + sample * 10_000_000)
            for byte in 0..<8 { bytes.append(UInt8((nanoseconds >> (8 * UInt64(byte))) & 0xFF)) }
        }
        bytes += [1, 2, 3]  // the start of a record not yet complete
        let file = fopen("\(dev)/iio:device0", "wb")!
        fwrite(bytes, 1, bytes.count, file)
        fclose(file)

        let reader = try IIOReader(devices: [path], mode: .buffered, devRoot: dev)
        #expect(reader.bufferedRecordSize == 24)
        #expect(read("\(path)/buffer/enable") == "1")
        #expect(read("\(path)/scan_elements/in_anglvel_z_en") == "1")
        #expect(read("\(path)/scan_elements/in_timestamp_en") == "1")
        var samples: [(IMUReading, Double)] = []
        try reader.read { samples.append(($0, $1)) }
        #expect(samples.count == 3)
        #expect(samples.map { $0.0.accelerometer.x / 0.000598 } == [0, 1, 2])
        #expect(samples.map { ($0.1 * 1000).rounded() } == [20, 10, 0])
        #expect(abs(samples[2].0.gyroscope.z - (20 - 10) * 0.000266316 * 180 / .pi) < 1e-9)
    }

    @Test("buffered needs every channel on one device")
    func bufferedSplit() {
        let root = temporaryDirectory()
        let accel = device(root, "iio:device0", accel: [0, 0, 1], gyro: nil)
        let gyro = device(root, "iio:device1", accel: nil, gyro: [0, 0, 0])
        #expect {
            _ = try IIOReader(devices: [accel, gyro], mode: .buffered, devRoot: root)
        } throws: { error in
            "\(error)".contains("mode=polled")
        }
    }
}
