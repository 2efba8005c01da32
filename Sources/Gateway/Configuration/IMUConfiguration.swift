import Engine
import Marine
import Router
import Sensors

/// Where IMU samples come from in `telltale run`, and how they are read and mounted.
///
/// URL forms:
/// - `csv:///path.csv` (or `csv:relative.csv`): a recorded or simulated trace played in real time.
/// - `i2c:///dev/i2c-1?address=0x68&chip=icm20948`: a chip driven by Telltale; `chip=auto` (the default) probes
///   the known chips, and without `address` the usual addresses. Options `rate`, `accel_range`, `gyro_range`,
///   `lowpass`, `magnetometer`.
/// - `iio:///sys/bus/iio/devices/iio:device0`: a chip the kernel drives; `&gyro=iio:device1` (or a path) when the
///   gyroscope is another device, `&magnetometer=iio:device2` likewise, `mode=polled|buffered`, `dev=/dev`,
///   `trigger=NAME`, `rate`.
public struct IMUConfiguration: Sendable {
    public enum Source: Sendable, Equatable {
        case csv(path: String)
        case i2c(bus: String, address: UInt8?, chip: IMUChip?)
        case iio(devices: [String], mode: IIOReader.Mode, devRoot: String, trigger: String?)
    }

    public struct URLError: Error, CustomStringConvertible {
        public var reason: String
        public var description: String { reason }
    }

    /// The URL as written (the state file remembers which IMU its calibration belongs to).
    public var endpoint: String
    public var source: Source
    public var loop = false
    public var speed = 1.0
    /// Chip axes to body axes (x forward, y starboard, z down).
    public var axes = AxisMap.identity
    /// Range, rate and low-pass asked of a chip.
    public var sensor = IMUSettings()
    /// The tilt of the IMU on a level boat, from the state file.
    public var mounting = Mounting.level
    /// Seconds without a sample before the device is closed and opened again.
    public var silenceTimeout = 2.0

    public init(endpoint: String, source: Source) {
        self.endpoint = endpoint
        self.source = source
    }

    /// A sample in the chip's axes, in the boat's: the axis map, then the mounting tilt. Every IMU input goes
    /// through here.
    public func bodyFrame(_ sample: IMUFile.Sample) -> IMUFile.Sample {
        var body = sample
        body.accelerometer = mounting.apply(axes.apply(sample.accelerometer))
        body.gyroscope = mounting.apply(axes.apply(sample.gyroscope))
        body.magnetometer = sample.magnetometer.map { mounting.apply(axes.apply($0)) }
        return body
    }

    /// The CSV path, for a `csv:` IMU.
    public var path: String {
        if case .csv(let path) = source { return path }
        return endpoint
    }

    public static let forms =
        "csv:///path.csv, i2c:///dev/i2c-1?address=0x68&chip=icm20948 or iio:///sys/bus/iio/devices/iio:device0"

    public static func parse(_ url: String, base: String) throws(URLError) -> IMUConfiguration {
        if let (path, _) = split(url, "csv") {
            guard !path.isEmpty else { throw URLError(reason: "\(url): no file") }
            return IMUConfiguration(endpoint: url, source: .csv(path: path.hasPrefix("/") ? path : base + "/" + path))
        }
        var (configuration, query): (IMUConfiguration, [(String, String)])
        if let (path, items) = split(url, "i2c") {
            (configuration, query) = try i2c(url, path, items)
        } else if let (path, items) = split(url, "iio") {
            (configuration, query) = try iio(url, path, items)
        } else {
            throw URLError(reason: "\(url): an IMU is \(forms)")
        }
        func number(_ key: String, _ value: String, _ range: ClosedRange<Double>) throws(URLError) -> Double {
            guard let number = Double(value), range.contains(number) else {
                throw URLError(reason: "\(url): \(key) must be a number in \(range.lowerBound)...\(range.upperBound)")
            }
            return number
        }
        for (key, value) in query {
            switch key {
            case "rate": configuration.sensor.sampleRate = try number(key, value, 10...1000)
            case "accel_range": configuration.sensor.accelerometerRange = try number(key, value, 2...16)
            case "gyro_range": configuration.sensor.gyroscopeRange = try number(key, value, 125...2000)
            case "lowpass": configuration.sensor.lowPass = try number(key, value, 1...500)
            case "magnetometer":
                guard value == "true" || value == "false" else {
                    throw URLError(reason: "\(url): magnetometer is true or false")
                }
                configuration.sensor.magnetometer = value == "true"
            default:
                throw URLError(reason: "\(url): unknown option \(key)")
            }
        }
        return configuration
    }

    /// `scheme:path?key=value&...` (or `scheme://path...`) as its path and query; nil for another scheme.
    static func split(_ url: String, _ scheme: String) -> (path: String, query: [(String, String)])? {
        guard url.hasPrefix(scheme + ":") else { return nil }
        var rest = String(url.dropFirst(scheme.count + 1))
        if rest.hasPrefix("//") { rest.removeFirst(2) }
        let parts = rest.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let query =
            parts.count > 1
            ? parts[1].split(separator: "&").map { item -> (String, String) in
                let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                return (String(pair[0]), pair.count > 1 ? String(pair[1]) : "")
            } : []
        return (String(parts[0]), query)
    }

    /// `i2c:///dev/i2c-1?address=0x68&chip=icm20948`: the bus, and the address and chip when given (else found);
    /// the sensor's options left for the caller.
    static func i2c(_ url: String, _ path: String, _ items: [(String, String)]) throws(URLError)
        -> (IMUConfiguration, [(String, String)])
    {
        guard path.hasPrefix("/") else { throw URLError(reason: "\(url): the bus, such as i2c:///dev/i2c-1") }
        var address: UInt8?
        var chip: IMUChip?
        var query: [(String, String)] = []
        for (key, value) in items {
            switch key {
            case "address":
                let digits = value.hasPrefix("0x") ? String(value.dropFirst(2)) : value
                guard let parsed = UInt8(digits, radix: value.hasPrefix("0x") ? 16 : 10), parsed < 0x78 else {
                    throw URLError(reason: "\(url): address must be a 7-bit I2C address such as 0x68")
                }
                address = parsed
            case "chip":
                if value != "auto" {
                    guard let known = IMUChip(rawValue: value) else {
                        throw URLError(reason: "\(url): \(IMUError.unknownChip(value))")
                    }
                    chip = known
                }
            default: query.append((key, value))
            }
        }
        return (IMUConfiguration(endpoint: url, source: .i2c(bus: path, address: address, chip: chip)), query)
    }

    /// `iio:///sys/bus/iio/devices/iio:device0?gyro=...&magnetometer=...&mode=buffered`: the devices, how they are
    /// read; the sensor's options left for the caller.
    static func iio(_ url: String, _ path: String, _ items: [(String, String)]) throws(URLError)
        -> (IMUConfiguration, [(String, String)])
    {
        guard path.hasPrefix("/") else {
            throw URLError(reason: "\(url): the device's sysfs folder, such as iio:///sys/bus/iio/devices/iio:device0")
        }
        var devices = [path]
        var mode = IIOReader.Mode.polled
        var devRoot = "/dev"
        var trigger: String?
        let folder = String(
            path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/"))
        var query: [(String, String)] = []
        for (key, value) in items {
            switch key {
            case "gyro":
                devices.append(value.hasPrefix("/") ? value : folder + "/" + value)
            case "magnetometer" where !["true", "false"].contains(value):
                devices.append(value.hasPrefix("/") ? value : folder + "/" + value)
                query.append(("magnetometer", "true"))
            case "mode":
                guard let parsed = IIOReader.Mode(rawValue: value) else {
                    throw URLError(reason: "\(url): mode is polled or buffered")
                }
                mode = parsed
            case "dev": devRoot = value
            case "trigger": trigger = value
            default: query.append((key, value))
            }
        }
        return (
            IMUConfiguration(
                endpoint: url, source: .iio(devices: devices, mode: mode, devRoot: devRoot, trigger: trigger)),
            query
        )
    }
}
