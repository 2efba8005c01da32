/// One reading of an IMU in the chip's own axes, in SI-ish units: specific force in m/s² (a chip lying flat at
/// rest reads about +9.81 on the axis pointing up), rates in degrees per second, the magnetic field in microtesla.
public struct IMUReading: Sendable, Equatable {
    public var accelerometer: SIMD3<Double>
    public var gyroscope: SIMD3<Double>
    /// When the chip has a magnetometer, it is enabled, and a new field sample was ready.
    public var magnetometer: SIMD3<Double>?
    /// Degrees Celsius, the die temperature.
    public var temperature: Double?

    public init(
        accelerometer: SIMD3<Double>, gyroscope: SIMD3<Double>, magnetometer: SIMD3<Double>? = nil,
        temperature: Double? = nil
    ) {
        self.accelerometer = accelerometer
        self.gyroscope = gyroscope
        self.magnetometer = magnetometer
        self.temperature = temperature
    }
}

/// What a driver is asked for. Each chip takes the nearest setting it supports (at least the asked range, the
/// nearest rate and bandwidth) and says what it chose in ``IMUDriver/configured``.
public struct IMUSettings: Sendable, Equatable {
    /// Accelerometer full scale, ±g. A boat slamming into a wave reaches 3-4 g; ±4 g keeps resolution.
    public var accelerometerRange = 4.0
    /// Gyroscope full scale, ±degrees per second. A boat rolls at most 30-60 °/s; ±500 leaves margin for knocks.
    public var gyroscopeRange = 500.0
    /// Output data rate, Hz. The attitude filter runs at 100-200 Hz.
    public var sampleRate = 100.0
    /// Digital low-pass bandwidth, Hz: below half the sample rate (no aliasing), well above the roll and pitch
    /// frequencies (under 1 Hz) and the filter's latency budget (a 20 Hz low-pass delays by about 8 ms).
    public var lowPass = 20.0
    /// Read the magnetometer (ICM-20948's AK09916).
    public var magnetometer = false

    public init() {}
}

/// The settings a chip actually runs with.
public struct IMUConfigured: Sendable, Equatable, CustomStringConvertible {
    public var accelerometerRange: Double
    public var gyroscopeRange: Double
    public var sampleRate: Double
    public var lowPass: Double
    public var magnetometer: Bool

    public init(
        accelerometerRange: Double, gyroscopeRange: Double, sampleRate: Double, lowPass: Double, magnetometer: Bool
    ) {
        self.accelerometerRange = accelerometerRange
        self.gyroscopeRange = gyroscopeRange
        self.sampleRate = sampleRate
        self.lowPass = lowPass
        self.magnetometer = magnetometer
    }

    public var description: String {
        "±\(format(accelerometerRange)) g, ±\(format(gyroscopeRange)) °/s, \(format(sampleRate)) Hz, low-pass \(format(lowPass)) Hz"
            + (magnetometer ? ", magnetometer on" : "")
    }
}

/// A configured IMU chip.
public protocol IMUDriver: AnyObject {
    /// `ICM-20948 at 0x68 on /dev/i2c-1`.
    var description: String { get }
    var configured: IMUConfigured { get }
    /// The latest sample. Nothing is allocated.
    func read() throws(I2CError) -> IMUReading
}

/// Why a chip could not be set up.
public enum IMUError: Error, CustomStringConvertible, Sendable {
    case bus(I2CError)
    /// The identity register did not hold what the chip answers with.
    case unexpectedChip(
        expected: String, bus: String, address: UInt8, register: UInt8, found: UInt8, identified: String?)
    case unknownChip(String)
    /// The IIO reader's failures: a missing device, attribute or channel.
    case iio(String)

    public var description: String {
        switch self {
        case .bus(let error):
            if error.kind == .open {
                return
                    "\(error) (on a Raspberry Pi: enable I2C with raspi-config or dtparam=i2c_arm=on, and run in the i2c group)"
            }
            if error.kind == .noAcknowledge {
                return
                    "\(error): check the address (the board's address jumper or AD0/SA0 pin), the wiring and the chip's power"
            }
            return error.description
        case .unexpectedChip(let expected, let bus, let address, let register, let found, let identified):
            var text =
                "expected \(expected) at \(hex(address)) on \(bus), but WHO_AM_I (register \(hex(register))) read \(hex(found))"
            if let identified { text += ": that is \(identified)" }
            return text
        case .unknownChip(let name):
            return
                "unknown IMU chip \"\(name)\"; known: \(IMUChip.allCases.map { $0.rawValue }.joined(separator: ", ")) or auto"
        case .iio(let message):
            return message
        }
    }
}

/// The chips Telltale drives, with their identities from the datasheets.
public enum IMUChip: String, CaseIterable, Sendable {
    case icm20948
    case mpu6050
    case mpu6500
    case mpu9250
    case lsm6ds3
    case lsm6dsox

    /// The identity register and the values it may hold for this chip (variants of one family share a driver).
    public var identity: (register: UInt8, values: [UInt8]) {
        switch self {
        case .icm20948: (ICM20948.Register.whoAmI, [0xEA])
        case .mpu6050: (MPU6050.Register.whoAmI, [0x68])
        case .mpu6500: (MPU6050.Register.whoAmI, [0x70])
        case .mpu9250: (MPU6050.Register.whoAmI, [0x71, 0x73])
        case .lsm6ds3: (LSM6DS.Register.whoAmI, [0x69, 0x6A])
        case .lsm6dsox: (LSM6DS.Register.whoAmI, [0x6C])
        }
    }

    public var displayName: String {
        switch self {
        case .icm20948: "ICM-20948"
        case .mpu6050: "MPU-6050"
        case .mpu6500: "MPU-6500"
        case .mpu9250: "MPU-9250"
        case .lsm6ds3: "LSM6DS3"
        case .lsm6dsox: "LSM6DSOX"
        }
    }

    /// The addresses the chip answers at (its address pin low, then high).
    public var addresses: [UInt8] {
        switch self {
        case .icm20948, .mpu6050, .mpu6500, .mpu9250: [0x68, 0x69]
        case .lsm6ds3, .lsm6dsox: [0x6A, 0x6B]
        }
    }

    /// Probes `address` for this chip and configures it.
    public func open(bus: any I2CBus, address: UInt8, settings: IMUSettings) throws(IMUError) -> any IMUDriver {
        switch self {
        case .icm20948: try ICM20948(bus: bus, address: address, settings: settings)
        case .mpu6050, .mpu6500, .mpu9250: try MPU6050(bus: bus, address: address, chip: self, settings: settings)
        case .lsm6ds3, .lsm6dsox: try LSM6DS(bus: bus, address: address, chip: self, settings: settings)
        }
    }

    /// Reads the identity register and checks it; on a mismatch, names what answered if it is a known chip.
    static func probe(_ chip: IMUChip, bus: any I2CBus, address: UInt8) throws(IMUError) -> UInt8 {
        let (register, values) = chip.identity
        let found: UInt8
        do { found = try bus.readRegister(address, register) } catch { throw .bus(error) }
        if values.contains(found) { return found }
        throw .unexpectedChip(
            expected: chip.displayName, bus: bus.name, address: address, register: register, found: found,
            identified: identify(bus: bus, address: address)?.displayName)
    }

    /// Which known chip answers at `address`, trying each identity register in turn (reads only).
    public static func identify(bus: any I2CBus, address: UInt8) -> IMUChip? {
        var answers: [(register: UInt8, value: UInt8?)] = []
        for chip in allCases {
            let (register, values) = chip.identity
            // Each identity register is read once.
            let value: UInt8?
            if let known = answers.first(where: { $0.register == register }) {
                value = known.value
            } else {
                value = try? bus.readRegister(address, register)
                answers.append((register, value))
            }
            if let value, values.contains(value) { return chip }
        }
        return nil
    }

    /// `chip=auto`: the first known chip found at `address` (or, with none given, at any of the usual addresses).
    public static func detect(bus: any I2CBus, address: UInt8?) -> (chip: IMUChip, address: UInt8)? {
        let candidates: [UInt8] = address.map { [$0] } ?? [0x68, 0x69, 0x6A, 0x6B]
        for candidate in candidates {
            if let chip = identify(bus: bus, address: candidate) { return (chip, candidate) }
        }
        return nil
    }
}

/// Standard gravity, to turn g into m/s².
let standardGravity = 9.80665

/// The option among `choices` nearest to `wanted` (ties to the first).
func nearest(_ wanted: Double, _ choices: [Double]) -> Int {
    var best = 0
    for (index, choice) in choices.enumerated() where abs(choice - wanted) < abs(choices[best] - wanted) {
        best = index
    }
    return best
}

/// The smallest range at least `wanted` (the largest when none is).
func atLeast(_ wanted: Double, _ ranges: [Double]) -> Int {
    ranges.firstIndex { $0 >= wanted } ?? ranges.count - 1
}

func bigEndian(_ buffer: UnsafeRawBufferPointer, _ offset: Int) -> Double {
    Double(Int16(bitPattern: UInt16(buffer[offset]) << 8 | UInt16(buffer[offset + 1])))
}

func littleEndian(_ buffer: UnsafeRawBufferPointer, _ offset: Int) -> Double {
    Double(Int16(bitPattern: UInt16(buffer[offset + 1]) << 8 | UInt16(buffer[offset])))
}

func format(_ value: Double) -> String {
    let rounded = (value * 10).rounded() / 10
    return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
}
