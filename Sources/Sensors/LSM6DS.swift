/// STMicroelectronics LSM6DS3 (with the LSM6DS3TR-C) and LSM6DSOX (with the LSM6DSO): the control and output
/// registers Telltale uses are shared; the accelerometer's low-pass differs between the two generations.
///
/// Register facts from the LSM6DS3 and LSM6DSOX datasheets: CTRL1_XL and CTRL2_G hold rate [7:4] and full scale
/// [3:2]; CTRL3_C resets, keeps a sample's bytes together (BDU) and auto-increments (IF_INC); data in little-endian
/// 16-bit words from OUT_TEMP_L: temperature, gyroscope, accelerometer, read in one burst.
public final class LSM6DS: IMUDriver {
    enum Register {
        static let whoAmI: UInt8 = 0x0F
        /// CTRL1_XL: ODR_XL [7:4], FS_XL [3:2], LPF2_XL_EN [1] (DSOX), BW_XL [1:0] (DS3).
        static let control1Accel: UInt8 = 0x10
        static let control2Gyro: UInt8 = 0x11  // CTRL2_G: ODR_G [7:4], FS_G [3:2]
        static let control3: UInt8 = 0x12  // CTRL3_C: BOOT [7], BDU [6], IF_INC [2], SW_RESET [0]
        static let control4: UInt8 = 0x13  // CTRL4_C: XL_BW_SCAL_ODR [7] (DS3)
        static let control8Accel: UInt8 = 0x17  // CTRL8_XL: HPCF_XL [7:5] (DSOX)
        static let temperatureLow: UInt8 = 0x20  // OUT_TEMP_L; 14 bytes to OUTZ_H_XL
    }

    static let rates = [12.5, 26, 52, 104, 208, 416, 833, 1660]  // ODR codes 1-8
    static let accelerometerRanges = [2.0, 4, 8, 16]
    static let accelerometerCodes: [UInt8] = [0b00, 0b10, 0b11, 0b01]
    static let accelerometerSensitivity = [0.061, 0.122, 0.244, 0.488]  // mg per LSB
    static let gyroscopeRanges = [250.0, 500, 1000, 2000]
    static let gyroscopeSensitivity = [8.75, 17.5, 35, 70]  // millidegrees per second per LSB
    /// LSM6DS3 anti-aliasing bandwidth, BW_XL 0-3.
    static let bandwidthDS3 = [400.0, 200, 100, 50]
    /// LSM6DSOX LPF2 bandwidth as the rate divided by these, HPCF_XL 0-7.
    static let dividersDSOX = [4.0, 10, 20, 45, 100, 200, 400, 800]

    public let description: String
    public let configured: IMUConfigured
    private let bus: any I2CBus
    private let address: UInt8
    private let accelerometerScale: Double
    private let gyroscopeScale: Double
    private let temperatureSensitivity: Double
    private var buffer = [UInt8](repeating: 0, count: 14)

    public init(bus: any I2CBus, address: UInt8, chip: IMUChip = .lsm6dsox, settings: IMUSettings) throws(IMUError) {
        self.bus = bus
        self.address = address
        let found = try IMUChip.probe(chip, bus: bus, address: address)
        let generation: IMUChip = found == 0x6C ? .lsm6dsox : .lsm6ds3
        description = "\(found == 0x6A ? "LSM6DS3TR-C" : generation.displayName) at \(hex(address)) on \(bus.name)"
        // The original LSM6DS3 gives 16 LSB per °C; the TR-C and the DSOX 256.
        temperatureSensitivity = found == 0x69 ? 16 : 256
        let rateIndex = nearest(settings.sampleRate, Self.rates)
        let rate = Self.rates[rateIndex]
        let accelerometerIndex = atLeast(settings.accelerometerRange, Self.accelerometerRanges)
        let gyroscopeIndex = atLeast(settings.gyroscopeRange, Self.gyroscopeRanges)
        accelerometerScale = Self.accelerometerSensitivity[accelerometerIndex] / 1000 * standardGravity
        gyroscopeScale = Self.gyroscopeSensitivity[gyroscopeIndex] / 1000
        let odr = UInt8(rateIndex + 1) << 4
        var control1 = odr | Self.accelerometerCodes[accelerometerIndex] << 2
        let lowPass: Double
        do {
            try bus.writeRegister(address, Register.control3, 0x01)  // software reset
            bus.pause(seconds: 0.01)
            try bus.writeRegister(address, Register.control3, 0x44)  // BDU, IF_INC
            if generation == .lsm6ds3 {
                let index = nearest(settings.lowPass, Self.bandwidthDS3)
                lowPass = Self.bandwidthDS3[index]
                try bus.writeRegister(address, Register.control4, 0x80)  // bandwidth from BW_XL, not from the rate
                control1 |= UInt8(index)
            } else {
                let bandwidths = Self.dividersDSOX.map { rate / $0 }
                let index = nearest(settings.lowPass, bandwidths)
                lowPass = bandwidths[index]
                try bus.writeRegister(address, Register.control8Accel, UInt8(index) << 5)
                control1 |= 0x02  // LPF2_XL_EN
            }
            try bus.writeRegister(address, Register.control1Accel, control1)
            try bus.writeRegister(address, Register.control2Gyro, odr | UInt8(gyroscopeIndex) << 2)
        } catch {
            throw .bus(error)
        }
        configured = IMUConfigured(
            accelerometerRange: Self.accelerometerRanges[accelerometerIndex],
            gyroscopeRange: Self.gyroscopeRanges[gyroscopeIndex], sampleRate: rate, lowPass: lowPass,
            magnetometer: false)
    }

    public func read() throws(I2CError) -> IMUReading {
        try bus.read(address, register: Register.temperatureLow, into: &buffer)
        return buffer.withUnsafeBytes { raw in
            IMUReading(
                accelerometer: SIMD3(littleEndian(raw, 8), littleEndian(raw, 10), littleEndian(raw, 12))
                    * accelerometerScale,
                gyroscope: SIMD3(littleEndian(raw, 2), littleEndian(raw, 4), littleEndian(raw, 6)) * gyroscopeScale,
                temperature: littleEndian(raw, 0) / temperatureSensitivity + 25)
        }
    }
}
