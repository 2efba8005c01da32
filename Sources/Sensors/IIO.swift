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
    public private(set) var sampleRate: Double?
    public private(set) var readErrors = 0

    private struct Channel {
        var fd: Int32 = -1
        var scale = 1.0
        var offset = 0.0
        /// Buffered mode: where its bytes are in a record, and how to read them.
        var index = 0
        var type = IIOScanType(littleEndian: true, signed: true, realBits: 16, storageBits: 16, shift: 0)
        var byteOffset = 0
    }

    /// accel x y z, anglvel x y z, magn x y z (the magnetometer's may be absent).
    private var channels: [Channel]
    private let hasMagnetometer: Bool
    private var scratch = [UInt8](repeating: 0, count: 32)
    // Buffered mode.
    private var bufferFD: Int32 = -1
    private var recordSize = 0
    private var timestampOffset: Int?
    private var record = [UInt8](repeating: 0, count: 4096)
    private var pendingBytes = 0
    private var enabledPaths: [String] = []

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

    private func closeAll() {
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

    private func startBuffer(main: String, used: Int, trigger: String?, node: String) throws(IMUError) {
        let scan = "\(main)/scan_elements"
        // Stop a buffer left running, choose the channels, then start it.
        _ = Self.writeText("\(main)/buffer/enable", "0")
        if let trigger, !Self.writeText("\(main)/trigger/current_trigger", trigger) {
            throw .iio("iio: cannot set \(main)/trigger/current_trigger to \(trigger)")
        }
        var elements: [(index: Int, type: IIOScanType, slot: Int?, timestamp: Bool)] = []
        for slot in 0..<used {
            let name = "in_\(Self.kinds[slot / 3])_\(Self.axes[slot % 3])"
            guard Self.writeText("\(scan)/\(name)_en", "1") else {
                throw .iio(
                    "iio: cannot enable \(scan)/\(name)_en (write access to the device's sysfs is needed for mode=buffered)"
                )
            }
            enabledPaths.append("\(scan)/\(name)_en")
            guard let index = Self.readNumber("\(scan)/\(name)_index"),
                let typeText = Self.readText("\(scan)/\(name)_type"),
                let type = IIOScanType(typeText)
            else {
                throw .iio("iio: \(scan)/\(name)_index or _type cannot be read")
            }
            channels[slot].index = Int(index)
            channels[slot].type = type
            elements.append((Int(index), type, slot, false))
        }
        if Self.exists("\(scan)/in_timestamp_en"), Self.writeText("\(scan)/in_timestamp_en", "1"),
            let index = Self.readNumber("\(scan)/in_timestamp_index"),
            let typeText = Self.readText("\(scan)/in_timestamp_type"), let type = IIOScanType(typeText)
        {
            enabledPaths.append("\(scan)/in_timestamp_en")
            elements.append((Int(index), type, nil, type.storageBits == 64))
        }
        // Other channels the device has stay as they are; the record holds every enabled one, in index order.
        for entry in Self.list(scan) where entry.hasSuffix("_en") && !enabledPaths.contains("\(scan)/\(entry)") {
            let name = String(entry.dropLast(3))
            if Self.readNumber("\(scan)/\(entry)") == 1, let index = Self.readNumber("\(scan)/\(name)_index"),
                let typeText = Self.readText("\(scan)/\(name)_type"), let type = IIOScanType(typeText)
            {
                elements.append((Int(index), type, nil, false))
            }
        }
        elements.sort { $0.index < $1.index }
        var offset = 0
        var largest = 1
        for element in elements {
            let size = element.type.storageBytes
            offset = (offset + size - 1) / size * size
            if let slot = element.slot {
                channels[slot].byteOffset = offset
            } else if element.timestamp {
                timestampOffset = offset
            }
            offset += size
            largest = max(largest, size)
        }
        recordSize = (offset + largest - 1) / largest * largest
        // Room for a good batch of records whatever the device's channels.
        if recordSize * 32 > record.count { record = [UInt8](repeating: 0, count: recordSize * 32) }
        _ = Self.writeText("\(main)/buffer/length", "128")
        guard Self.writeText("\(main)/buffer/enable", "1") else {
            throw .iio("iio: cannot start the buffer (\(main)/buffer/enable); does the device need trigger=...?")
        }
        do {
            bufferFD = try POSIX.open(node, O_RDONLY | O_NONBLOCK)
        } catch {
            throw .iio("iio: \(error)")
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

    private func drain(_ body: (IMUReading, Double) -> Void) throws(IMUError) {
        guard recordSize > 0 else { return }
        while true {
            let outcome = record.withUnsafeMutableBytes {
                POSIX.read(bufferFD, into: UnsafeMutableRawBufferPointer(rebasing: $0[pendingBytes...]))
            }
            guard case .bytes(let got) = outcome else {
                guard case .failed(let code) = outcome else { break }
                readErrors += 1
                throw .iio("iio: cannot read \(characterDevice ?? "the buffer"): \(POSIX.message(code))")
            }
            if got == 0 { break }
            pendingBytes += got
            if pendingBytes < record.count { break }
            try deliver(body)
        }
        try deliver(body)
    }

    /// Decodes every whole record in `record[0..<pendingBytes]` and keeps the tail.
    private func deliver(_ body: (IMUReading, Double) -> Void) throws(IMUError) {
        let count = pendingBytes / recordSize
        guard count > 0 else { return }
        let newest = timestampOffset.map { timestamp(at: (count - 1) * recordSize + $0) }
        record.withUnsafeBytes { raw in
            for index in 0..<count {
                let base = index * recordSize
                var reading = IMUReading(accelerometer: .zero, gyroscope: .zero)
                var values = SIMD3<Double>(0, 0, 0)
                for slot in 0..<(hasMagnetometer ? 9 : 6) {
                    let channel = channels[slot]
                    let value = channel.type.value(raw, at: base + channel.byteOffset)
                    values[slot % 3] = (value + channel.offset) * channel.scale
                    if slot == 2 { reading.accelerometer = values }
                    if slot == 5 { reading.gyroscope = values }
                    if slot == 8 { reading.magnetometer = values }
                }
                var age = 0.0
                if let newest, let offset = timestampOffset {
                    age = max(0, Double(newest - timestamp(at: base + offset)) / 1e9)
                }
                body(reading, age)
            }
        }
        let used = count * recordSize
        if used < pendingBytes {
            record.withUnsafeMutableBytes { raw in
                raw.baseAddress!.copyMemory(from: raw.baseAddress! + used, byteCount: pendingBytes - used)
            }
        }
        pendingBytes -= used
    }

    private func timestamp(at offset: Int) -> Int64 {
        record.withUnsafeBytes { raw in
            var value: UInt64 = 0
            for byte in 0..<8 { value |= UInt64(raw[offset + byte]) << (8 * UInt64(byte)) }
            return Int64(bitPattern: value)
        }
    }

    /// One sysfs integer, read again from the start of a descriptor kept open.
    private func readRaw(_ fd: Int32) -> Double? {
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

    // MARK: sysfs helpers

    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    static func lastComponent(_ path: String) -> String {
        String(path.split(separator: "/").last ?? Substring(path))
    }

    static func readText(_ path: String) -> String? {
        guard let fd = try? POSIX.open(path, O_RDONLY) else { return nil }
        defer { POSIX.close(fd) }
        var buffer = [UInt8](repeating: 0, count: 256)
        let got: Int
        switch buffer.withUnsafeMutableBytes({ POSIX.read(fd, into: $0) }) {
        case .bytes(let count): got = count
        case .end: got = 0
        case .wouldBlock, .failed: return nil
        }
        let text = String(decoding: buffer[0..<got], as: UTF8.self)
        return String(text.drop { $0 == " " }.reversed().drop { $0 == "\n" || $0 == " " }.reversed())
    }

    static func readNumber(_ path: String) -> Double? { readText(path).flatMap { Double($0) } }

    @discardableResult
    static func writeText(_ path: String, _ text: String) -> Bool {
        guard let fd = try? POSIX.open(path, O_WRONLY | O_TRUNC) else { return false }
        defer { POSIX.close(fd) }
        var line = text + "\n"
        return line.withUTF8 { POSIX.write(fd, UnsafeRawBufferPointer($0)) } == .bytes(line.utf8.count)
    }

    static func list(_ directory: String) -> [String] { POSIX.list(directory).sorted() }
}

/// A scan element's type, `le:s16/16>>0` or `be:s12/16>>4`: byte order, sign, bits of value, bits of storage,
/// right shift.
public struct IIOScanType: Sendable, Equatable {
    public var littleEndian: Bool
    public var signed: Bool
    public var realBits: Int
    public var storageBits: Int
    public var shift: Int

    public init(littleEndian: Bool, signed: Bool, realBits: Int, storageBits: Int, shift: Int) {
        self.littleEndian = littleEndian
        self.signed = signed
        self.realBits = realBits
        self.storageBits = storageBits
        self.shift = shift
    }

    /// Parses the kernel's text; nil for anything else (including the repeat form `X2`, which no IMU uses).
    public init?(_ text: String) {
        let parts = text.split(separator: ":")
        guard parts.count == 2, parts[0] == "le" || parts[0] == "be" else { return nil }
        littleEndian = parts[0] == "le"
        var rest = parts[1]
        guard let sign = rest.first, sign == "s" || sign == "u" else { return nil }
        signed = sign == "s"
        rest = rest.dropFirst()
        let bitsAndShift = rest.split(separator: ">", omittingEmptySubsequences: true)
        guard bitsAndShift.count == 2, let shift = Int(bitsAndShift[1]) else { return nil }
        let bits = bitsAndShift[0].split(separator: "/")
        guard bits.count == 2, let real = Int(bits[0]), let storage = Int(bits[1]), [8, 16, 32, 64].contains(storage),
            real >= 1, real <= storage, shift >= 0, shift + real <= storage
        else { return nil }
        realBits = real
        storageBits = storage
        self.shift = shift
    }

    var storageBytes: Int { storageBits / 8 }

    /// The value of one element's bytes.
    public func decode(_ bytes: [UInt8]) -> Double? {
        guard bytes.count == storageBytes else { return nil }
        return bytes.withUnsafeBytes { value($0, at: 0) }
    }

    /// The value at `offset`.
    func value(_ raw: UnsafeRawBufferPointer, at offset: Int) -> Double {
        var word: UInt64 = 0
        let bytes = storageBytes
        for index in 0..<bytes {
            let byte = UInt64(raw[offset + (littleEndian ? index : bytes - 1 - index)])
            word |= byte << (8 * UInt64(index))
        }
        word >>= UInt64(shift)
        let mask: UInt64 = realBits == 64 ? ~0 : (1 << UInt64(realBits)) - 1
        word &= mask
        if signed && realBits < 64 && word & (1 << UInt64(realBits - 1)) != 0 {
            return Double(Int64(bitPattern: word | ~mask))
        }
        return signed ? Double(Int64(bitPattern: word)) : Double(word)
    }
}
