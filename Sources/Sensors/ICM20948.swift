/// TDK InvenSense ICM-20948 (the IMU on the MacArthur HAT and many breakouts), its AK09916 magnetometer optional.
///
/// Register facts from the ICM-20948 datasheet (DS-000189): four register banks chosen through REG_BANK_SEL;
/// bank 0 holds identity, power and data, bank 2 the rates, ranges and low-pass filters. Data in big-endian 16-bit
/// words from ACCEL_XOUT_H: accelerometer, gyroscope, then temperature, read in one burst. The magnetometer sits
/// behind the chip's auxiliary bus; with I2C_BYPASS_EN it answers on the host bus at 0x0C (``AK09916``).
public final class ICM20948: IMUDriver {
    enum Register {
        static let bankSelect: UInt8 = 0x7F  // REG_BANK_SEL: USER_BANK [5:4], in every bank
        // Bank 0
        static let whoAmI: UInt8 = 0x00
        static let powerManagement1: UInt8 = 0x06  // PWR_MGMT_1: DEVICE_RESET [7], SLEEP [6], CLKSEL [2:0]
        static let powerManagement2: UInt8 = 0x07  // PWR_MGMT_2: accelerometer and gyroscope axes off when set
        static let interruptPinConfig: UInt8 = 0x0F  // INT_PIN_CFG: BYPASS_EN [1]
        static let accelXHigh: UInt8 = 0x2D  // ACCEL_XOUT_H; 14 bytes to TEMP_OUT_L
        // Bank 2
        static let gyroSampleRateDivider: UInt8 = 0x00  // GYRO_SMPLRT_DIV
        static let gyroConfig1: UInt8 = 0x01  // GYRO_DLPFCFG [5:3], GYRO_FS_SEL [2:1], GYRO_FCHOICE [0]
        static let accelSampleRateDivider1: UInt8 = 0x10  // ACCEL_SMPLRT_DIV_1: bits 11:8
        static let accelSampleRateDivider2: UInt8 = 0x11  // ACCEL_SMPLRT_DIV_2: bits 7:0
        static let accelConfig: UInt8 = 0x14  // ACCEL_DLPFCFG [5:3], ACCEL_FS_SEL [2:1], ACCEL_FCHOICE [0]
    }

    static let accelerometerRanges = [2.0, 4, 8, 16]
    static let gyroscopeRanges = [250.0, 500, 1000, 2000]
    static let gyroscopeSensitivity = [131.0, 65.5, 32.8, 16.4]
    /// 3 dB bandwidths for GYRO_DLPFCFG and ACCEL_DLPFCFG 0-7 (with FCHOICE set).
    static let gyroscopeLowPass = [196.6, 151.8, 119.5, 51.2, 23.9, 11.6, 5.7, 361.4]
    static let accelerometerLowPass = [246.0, 246.0, 111.4, 50.4, 23.9, 11.5, 5.7, 473.0]
    /// Both sensors run at 1125 Hz inside with the low-pass on; output rate 1125 / (1 + divider).
    static let internalRate = 1125.0

    public let description: String
    public let configured: IMUConfigured
    private let bus: any I2CBus
    private let address: UInt8
    private let accelerometerScale: Double
    private let gyroscopeScale: Double
    private var buffer = [UInt8](repeating: 0, count: 14)
    private let magnetometer: AK09916?
    /// The magnetometer runs at most 100 Hz: read it on every n-th sample.
    private let magnetometerEvery: Int
    private var count = 0

    public init(bus: any I2CBus, address: UInt8, settings: IMUSettings) throws(IMUError) {
        self.bus = bus
        self.address = address
        let first: UInt8
        do { first = try bus.readRegister(address, Register.whoAmI) } catch { throw .bus(error) }
        if first != 0xEA {
            // Left in another bank by an earlier run? Select bank 0 and ask again (a write only when the first
            // answer was wrong, so that another chip at this address is not written to in the usual case).
            do { try bus.writeRegister(address, Register.bankSelect, 0x00) } catch { throw .bus(error) }
            _ = try IMUChip.probe(.icm20948, bus: bus, address: address)
        }
        description = "ICM-20948 at \(hex(address)) on \(bus.name)"
        let accelerometerCode = atLeast(settings.accelerometerRange, Self.accelerometerRanges)
        let gyroscopeCode = atLeast(settings.gyroscopeRange, Self.gyroscopeRanges)
        let gyroscopeLowPass = nearest(settings.lowPass, Self.gyroscopeLowPass)
        let accelerometerLowPass = nearest(settings.lowPass, Self.accelerometerLowPass)
        let divider = Int(max(0, min(255, (Self.internalRate / max(settings.sampleRate, 5)).rounded() - 1)))
        accelerometerScale = standardGravity / (16384 / Double(1 << accelerometerCode))
        gyroscopeScale = 1 / Self.gyroscopeSensitivity[gyroscopeCode]
        let rate = Self.internalRate / Double(1 + divider)
        do {
            try bus.writeRegister(address, Register.powerManagement1, 0x80)  // reset every register
            bus.pause(seconds: 0.1)
            try bus.writeRegister(address, Register.bankSelect, 0x00)
            try bus.writeRegister(address, Register.powerManagement1, 0x01)  // awake, best clock
            bus.pause(seconds: 0.05)
            try bus.writeRegister(address, Register.powerManagement2, 0x00)  // every axis on
            try bus.writeRegister(address, Register.bankSelect, 0x20)
            try bus.writeRegister(address, Register.gyroSampleRateDivider, UInt8(divider))
            try bus.writeRegister(
                address, Register.gyroConfig1, UInt8(gyroscopeLowPass) << 3 | UInt8(gyroscopeCode) << 1 | 1)
            try bus.writeRegister(address, Register.accelSampleRateDivider1, UInt8(divider >> 8))
            try bus.writeRegister(address, Register.accelSampleRateDivider2, UInt8(divider & 0xFF))
            try bus.writeRegister(
                address, Register.accelConfig, UInt8(accelerometerLowPass) << 3 | UInt8(accelerometerCode) << 1 | 1)
            try bus.writeRegister(address, Register.bankSelect, 0x00)
            if settings.magnetometer {
                try bus.writeRegister(address, Register.interruptPinConfig, 0x02)  // the AK09916 onto the host bus
            }
        } catch {
            throw .bus(error)
        }
        magnetometer = settings.magnetometer ? try AK09916(bus: bus, rate: rate) : nil
        magnetometerEvery = magnetometer.map { max(1, Int((rate / $0.rate).rounded())) } ?? 1
        configured = IMUConfigured(
            accelerometerRange: Self.accelerometerRanges[accelerometerCode],
            gyroscopeRange: Self.gyroscopeRanges[gyroscopeCode], sampleRate: rate,
            lowPass: Self.gyroscopeLowPass[gyroscopeLowPass], magnetometer: magnetometer != nil)
    }

    public func read() throws(I2CError) -> IMUReading {
        try bus.read(address, register: Register.accelXHigh, into: &buffer)
        var reading = buffer.withUnsafeBytes { raw in
            IMUReading(
                accelerometer: SIMD3(bigEndian(raw, 0), bigEndian(raw, 2), bigEndian(raw, 4)) * accelerometerScale,
                gyroscope: SIMD3(bigEndian(raw, 6), bigEndian(raw, 8), bigEndian(raw, 10)) * gyroscopeScale,
                // TEMP_degC = (TEMP_OUT - RoomTemp_Offset) / Temp_Sensitivity + 21, offset 21 LSB, 333.87 LSB/°C.
                temperature: (bigEndian(raw, 12) - 21) / 333.87 + 21)
        }
        if let magnetometer {
            count += 1
            if count >= magnetometerEvery {
                count = 0
                reading.magnetometer = try magnetometer.read()
            }
        }
        return reading
    }
}
