import CPosix
import Platform

/// An IMU the Linux kernel already drives, read through the Industrial I/O subsystem.
///
/// Channels `in_accel_{x,y,z}`, `in_anglvel_{x,y,z}` and optionally `in_magn_{x,y,z}` are found on one device or
/// spread over several (ST's driver makes one device per sensor). The value of a sample is
/// `(raw + offset) · scale`, with `_scale` and `_offset` per axis or shared, in the IIO ABI's units: m/s², rad/s
/// and gauss, turned here into m/s², °/s and µT.
///
/// Two modes:
/// - polled: each read takes `in_*_raw` from sysfs (one `pread` per axis on descriptors kept open). Works with
///   every driver and needs only read access.
/// - buffered: the device's `scan_elements` are enabled, its buffer started, and records are read from
///   `/dev/iio:deviceN` as the chip produces them, each with its kernel timestamp (no sample lost or read twice).
///   Needs write access to the device's sysfs attributes (udev rule or root) and one device with both sensors.
///
/// The sysfs and /dev roots are paths, so the tests run against a tree they build.
public final class IIOReader {
    public enum Mode: String, Sendable {
        case polled
        case buffered
    }

    /// Where the channels are: the devices' sysfs directories, the first being the main one.
    public let devices: [String]
    public let mode: Mode
    /// `/dev/iio:device0` for buffered mode.
    public let characterDevice: String?
    public let description: String
    /// The rate the device reports (`sampling_frequency`), Hz, when it has one.
    public internal(set) var sampleRate: Double?
    public internal(set) var readErrors = 0

    struct Channel {
        var fd: Int32 = -1
        var scale = 1.0
        var offset = 0.0
        /// Buffered mode: where its bytes are in a record, and how to read them.
        var index = 0
        var type = IIOScanType(littleEndian: true, signed: true, realBits: 16, storageBits: 16, shift: 0)
        var byteOffset = 0
    }

    /// accel x y z, anglvel x y z, magn x y z (the magnetometer's may be absent).
    var channels: [Channel]
    let hasMagnetometer: Bool
    var scratch = [UInt8](repeating: 0, count: 32)
    // Buffered mode.
    var bufferFD: Int32 = -1
    var recordSize = 0
    var timestampOffset: Int?
    var record = [UInt8](repeating: 0, count: 4096)
    var pendingBytes = 0
    var enabledPaths: [String] = []

    static let kinds = ["accel", "anglvel", "magn"]
    static let axes = ["x", "y", "z"]

    /// Opens the channels. `devices`: sysfs device directories (`/sys/bus/iio/devices/iio:device0`); `devRoot`:
    /// where the character devices are (`/dev`); `sampleRate`: written to `sampling_frequency` when it is
    /// writable (a failure to set it is not an error: the device's own rate is read back).
    public init(
        devices: [String], mode: Mode = .polled, devRoot: String = "/dev", sampleRate: Double? = nil,
        magnetometer: Bool = false, trigger: String? = nil
    ) throws(IMUError) {
        guard let main = devices.first else { throw .iio("iio: no device given") }
        self.devices = devices
        self.mode = mode
        var found = [Channel](repeating: Channel(), count: 9)
        var paths = [String?](repeating: nil, count: 9)
        var deviceOf = [Int](repeating: 0, count: 9)
        for (kindIndex, kind) in Self.kinds.enumerated() {
            for (axisIndex, axis) in Self.axes.enumerated() {
                let slot = kindIndex * 3 + axisIndex
                for (deviceIndex, device) in devices.enumerated()
                where Self.exists("\(device)/in_\(kind)_\(axis)_raw")
                    || Self.exists("\(device)/scan_elements/in_\(kind)_\(axis)_en")
                {
                    paths[slot] = device
                    deviceOf[slot] = deviceIndex
                    break
                }
            }
        }
        let names = devices.map { Self.readText("\($0)/name") ?? Self.lastComponent($0) }
        for slot in 0..<6 where paths[slot] == nil {
            throw .iio(
                "iio: no \(Self.kinds[slot / 3]) channel \(Self.axes[slot % 3]) on \(devices.joined(separator: ", ")) (\(names.joined(separator: ", "))); an IMU needs in_accel_* and in_anglvel_*"
            )
        }
        hasMagnetometer = magnetometer && (6..<9).allSatisfy { paths[$0] != nil }
        if magnetometer && !hasMagnetometer {
            throw .iio("iio: no in_magn_x/y/z channels on \(devices.joined(separator: ", ")) for the magnetometer")
        }
        let used = hasMagnetometer ? 9 : 6
        for slot in 0..<used {
            let device = paths[slot]!
            let kind = Self.kinds[slot / 3]
            let axis = Self.axes[slot % 3]
            let base = "\(device)/in_\(kind)"
            guard let scale = Self.readNumber("\(base)_\(axis)_scale") ?? Self.readNumber("\(base)_scale") else {
                throw .iio("iio: \(base)_scale (or \(base)_\(axis)_scale) cannot be read")
            }
            // Into m/s², °/s, µT.
            let unit = kind == "anglvel" ? 180 / Double.pi : kind == "magn" ? 100 : 1
            found[slot].scale = scale * unit
            found[slot].offset = Self.readNumber("\(base)_\(axis)_offset") ?? Self.readNumber("\(base)_offset") ?? 0
        }
        if let sampleRate {
            for device in Set(paths.compactMap { $0 }) {
                for attribute in ["sampling_frequency", "in_accel_sampling_frequency", "in_anglvel_sampling_frequency"]
                where Self.exists("\(device)/\(attribute)") {
                    _ = Self.writeText("\(device)/\(attribute)", format(sampleRate))
                }
            }
        }
        self.sampleRate =
            Self.readNumber("\(main)/sampling_frequency") ?? Self.readNumber("\(main)/in_accel_sampling_frequency")
        channels = found
        description = "IIO \(names.joined(separator: " + ")) at \(devices.joined(separator: ", ")) (\(mode.rawValue))"

        switch mode {
        case .polled:
            characterDevice = nil
            for slot in 0..<used {
                let path = "\(paths[slot]!)/in_\(Self.kinds[slot / 3])_\(Self.axes[slot % 3])_raw"
                do {
                    channels[slot].fd = try POSIX.open(path, O_RDONLY)
                } catch {
                    closeAll()
                    throw .iio("iio: \(error)")
                }
            }
        case .buffered:
            guard deviceOf[0..<used].allSatisfy({ $0 == 0 }) else {
                throw .iio(
                    "iio: buffered mode needs every channel on one device (\(main)); these are spread over several: use mode=polled"
                )
            }
            let node = "\(devRoot)/\(Self.lastComponent(main))"
            characterDevice = node
            try startBuffer(main: main, used: used, trigger: trigger, node: node)
        }
    }

    deinit { closeAll() }

    func closeAll() {
        for index in channels.indices where channels[index].fd >= 0 {
            POSIX.close(channels[index].fd)
            channels[index].fd = -1
        }
        if bufferFD >= 0 {
            POSIX.close(bufferFD)
            bufferFD = -1
            if let main = devices.first { _ = Self.writeText("\(main)/buffer/enable", "0") }
        }
    }

    /// The bytes of one buffered record (for tests and the bench that write a fake device).
    public var bufferedRecordSize: Int { recordSize }

    /// Hands over what is ready: one sample in polled mode; in buffered mode every record queued since the last
    /// call, with its age in seconds against the newest (from the kernel timestamps), oldest first.
    public func read(_ body: (IMUReading, Double) -> Void) throws(IMUError) {
        switch mode {
        case .polled:
            var values = SIMD3<Double>(0, 0, 0)
            var reading = IMUReading(accelerometer: values, gyroscope: values)
            for slot in 0..<(hasMagnetometer ? 9 : 6) {
                guard let raw = readRaw(channels[slot].fd) else {
                    readErrors += 1
                    let path = "in_\(Self.kinds[slot / 3])_\(Self.axes[slot % 3])_raw"
                    throw .iio("iio: cannot read \(path) on \(devices.joined(separator: ", "))")
                }
                values[slot % 3] = (raw + channels[slot].offset) * channels[slot].scale
                if slot == 2 { reading.accelerometer = values }
                if slot == 5 { reading.gyroscope = values }
                if slot == 8 { reading.magnetometer = values }
            }
            body(reading, 0)
        case .buffered:
            try drain(body)
        }
    }

    /// One sysfs integer, read again from the start of a descriptor kept open.
    func readRaw(_ fd: Int32) -> Double? {
        guard case .bytes(let got) = scratch.withUnsafeMutableBytes({ POSIX.read(fd, into: $0, at: 0) }), got > 0
        else { return nil }
        var value = 0
        var negative = false
        var digits = 0
        for index in 0..<got {
            let byte = scratch[index]
            if byte == UInt8(ascii: "-") && digits == 0 {
                negative = true
            } else if byte >= 0x30 && byte <= 0x39 {
                value = value &* 10 &+ Int(byte - 0x30)
                digits += 1
            } else if byte == 0x0A || byte == 0x20 {
                break
            } else {
                return nil
            }
        }
        guard digits > 0 else { return nil }
        return Double(negative ? -value : value)
    }
}
