/// InvenSense MPU-6050 and the MPU-6500 / MPU-9250 family: one register map for what Telltale uses.
///
/// Register facts from the MPU-6000/6050 Register Map (RM-MPU-6000A) and the MPU-9250 Register Map (RM-MPU-9250A):
/// data in big-endian 16-bit words from ACCEL_XOUT_H, accelerometer, temperature, gyroscope, read in one burst so
/// the axes belong to one sample. The MPU-9250's AK8963 magnetometer is not driven here.
public final class MPU6050: IMUDriver {
    enum Register {
        static let sampleRateDivider: UInt8 = 0x19  // SMPLRT_DIV
        static let config: UInt8 = 0x1A  // CONFIG: DLPF_CFG [2:0]
        static let gyroConfig: UInt8 = 0x1B  // GYRO_CONFIG: FS_SEL [4:3]
        static let accelConfig: UInt8 = 0x1C  // ACCEL_CONFIG: AFS_SEL [4:3]
        static let accelConfig2: UInt8 = 0x1D  // ACCEL_CONFIG 2 (MPU-6500/9250): A_DLPFCFG [2:0], ACCEL_FCHOICE_B [3]
        static let accelXHigh: UInt8 = 0x3B  // ACCEL_XOUT_H; 14 bytes to GYRO_ZOUT_L
        static let powerManagement1: UInt8 = 0x6B  // PWR_MGMT_1: DEVICE_RESET [7], SLEEP [6], CLKSEL [2:0]
        static let whoAmI: UInt8 = 0x75
    }

    static let accelerometerRanges = [2.0, 4, 8, 16]
    static let gyroscopeRanges = [250.0, 500, 1000, 2000]
    /// LSB per °/s for FS_SEL 0-3.
    static let gyroscopeSensitivity = [131.0, 65.5, 32.8, 16.4]
    /// Gyroscope 3 dB bandwidth for DLPF_CFG 1-6 (the settings with a 1 kHz internal rate).
    static let lowPass6050 = [188.0, 98, 42, 20, 10, 5]
    static let lowPass6500 = [184.0, 92, 41, 20, 10, 5]
    /// Accelerometer 3 dB bandwidth for A_DLPFCFG 1-6 (MPU-6500/9250).
    static let accelerometerLowPass6500 = [218.1, 99, 44.8, 21.2, 10.2, 5.05]

    public let description: String
    public let configured: IMUConfigured
    private let bus: any I2CBus
    private let address: UInt8
    private let chip: IMUChip
    private let accelerometerScale: Double
    private let gyroscopeScale: Double
    private var buffer = [UInt8](repeating: 0, count: 14)

    public init(bus: any I2CBus, address: UInt8, chip: IMUChip = .mpu6050, settings: IMUSettings) throws(IMUError) {
        self.bus = bus
        self.address = address
        let found = try IMUChip.probe(chip, bus: bus, address: address)
        // A 6500-family chip asked for as another member of the family is the family: name what is there.
        let actual: IMUChip = found == 0x68 ? .mpu6050 : found == 0x70 ? .mpu6500 : .mpu9250
        self.chip = actual
        description = "\(actual.displayName) at \(hex(address)) on \(bus.name)"
        let accelerometerCode = atLeast(settings.accelerometerRange, Self.accelerometerRanges)
        let gyroscopeCode = atLeast(settings.gyroscopeRange, Self.gyroscopeRanges)
        let table = actual == .mpu6050 ? Self.lowPass6050 : Self.lowPass6500
        let lowPassIndex = nearest(settings.lowPass, table)
        // With the low-pass on, the gyroscope runs at 1 kHz inside; the output rate is 1 kHz / (1 + divider).
        let divider = UInt8(max(0, min(255, (1000 / max(settings.sampleRate, 4)).rounded() - 1)))
        accelerometerScale = standardGravity / (16384 / Double(1 << accelerometerCode))
        gyroscopeScale = 1 / Self.gyroscopeSensitivity[gyroscopeCode]
        configured = IMUConfigured(
            accelerometerRange: Self.accelerometerRanges[accelerometerCode],
            gyroscopeRange: Self.gyroscopeRanges[gyroscopeCode], sampleRate: 1000 / (1 + Double(divider)),
            lowPass: table[lowPassIndex], magnetometer: false)
        do {
            try bus.writeRegister(address, Register.powerManagement1, 0x80)  // reset every register
            bus.pause(seconds: 0.1)
            try bus.writeRegister(address, Register.powerManagement1, 0x01)  // awake, clock from the X gyro's PLL
            bus.pause(seconds: 0.01)
            try bus.writeRegister(address, Register.sampleRateDivider, divider)
            try bus.writeRegister(address, Register.config, UInt8(lowPassIndex + 1))
            try bus.writeRegister(address, Register.gyroConfig, UInt8(gyroscopeCode) << 3)
            try bus.writeRegister(address, Register.accelConfig, UInt8(accelerometerCode) << 3)
            if actual != .mpu6050 {
                let accelerometerLowPass = nearest(settings.lowPass, Self.accelerometerLowPass6500)
                try bus.writeRegister(address, Register.accelConfig2, UInt8(accelerometerLowPass + 1))
            }
        } catch {
            throw .bus(error)
        }
    }

    public func read() throws(I2CError) -> IMUReading {
        try bus.read(address, register: Register.accelXHigh, into: &buffer)
        return buffer.withUnsafeBytes { raw in
            let accelerometer = SIMD3(bigEndian(raw, 0), bigEndian(raw, 2), bigEndian(raw, 4)) * accelerometerScale
            let temperatureRaw = bigEndian(raw, 6)
            let gyroscope = SIMD3(bigEndian(raw, 8), bigEndian(raw, 10), bigEndian(raw, 12)) * gyroscopeScale
            let temperature = chip == .mpu6050 ? temperatureRaw / 340 + 36.53 : temperatureRaw / 333.87 + 21
            return IMUReading(accelerometer: accelerometer, gyroscope: gyroscope, temperature: temperature)
        }
    }
}
