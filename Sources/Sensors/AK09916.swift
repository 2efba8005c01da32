/// Asahi Kasei AK09916, the magnetometer inside the ICM-20948, reached at 0x0C once the ICM-20948 bypasses its
/// auxiliary bus onto the host's.
///
/// Register facts from the AK09916 datasheet: WIA2 0x09; ST1 (DRDY [0]), then HXL..HZH little-endian, a dummy,
/// ST2 (HOFL [3]); reading through ST2 releases the next sample. 0.15 µT per LSB. Its axes are not the ICM-20948's:
/// x is shared, y and z are reversed (the datasheet's orientation figure), so readings are turned into the
/// accelerometer's axes here and one axis map serves all three sensors.
public final class AK09916 {
    enum Register {
        static let whoAmI2: UInt8 = 0x01  // WIA2
        static let status1: UInt8 = 0x10  // ST1; 9 bytes to ST2
        static let control2: UInt8 = 0x31  // CNTL2: MODE [4:0]
        static let control3: UInt8 = 0x32  // CNTL3: SRST [0]
    }

    public static let address: UInt8 = 0x0C
    static let microteslaPerCount = 0.15
    /// Continuous measurement modes 1-4 and their rates.
    static let modes: [(code: UInt8, rate: Double)] = [(0x02, 10), (0x04, 20), (0x06, 50), (0x08, 100)]

    public let rate: Double
    private let bus: any I2CBus
    private var buffer = [UInt8](repeating: 0, count: 9)
    private var last: SIMD3<Double>?

    /// The fastest continuous mode not faster than `rate`.
    init(bus: any I2CBus, rate: Double) throws(IMUError) {
        self.bus = bus
        let mode = Self.modes.last { $0.rate <= rate } ?? Self.modes[0]
        self.rate = mode.rate
        let found: UInt8
        do { found = try bus.readRegister(Self.address, Register.whoAmI2) } catch {
            throw .bus(error)
        }
        guard found == 0x09 else {
            throw .unexpectedChip(
                expected: "the ICM-20948's AK09916 magnetometer", bus: bus.name, address: Self.address,
                register: Register.whoAmI2, found: found, identified: nil)
        }
        do {
            try bus.writeRegister(Self.address, Register.control3, 0x01)  // soft reset
            bus.pause(seconds: 0.01)
            try bus.writeRegister(Self.address, Register.control2, mode.code)
        } catch {
            throw .bus(error)
        }
    }

    /// The newest field, in the ICM-20948's axes, µT; the previous one when no new sample is ready; nil on overflow
    /// (a magnet too close: no heading can be trusted).
    func read() throws(I2CError) -> SIMD3<Double>? {
        try bus.read(Self.address, register: Register.status1, into: &buffer)
        let ready = buffer[0] & 0x01 != 0
        let overflow = buffer[8] & 0x08 != 0
        if overflow { return nil }
        guard ready else { return last }
        let field = buffer.withUnsafeBytes { raw in
            SIMD3(littleEndian(raw, 1), -littleEndian(raw, 3), -littleEndian(raw, 5)) * Self.microteslaPerCount
        }
        last = field
        return field
    }
}
