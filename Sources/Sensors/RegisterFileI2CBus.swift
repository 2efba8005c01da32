/// A chip modelled as register banks (for benchmarks and the runtime's tests): writes set registers, reads return
/// them from the register written last, auto-incrementing. Register 0x7f selects one of four banks when
/// `bankSelect` is on (the ICM-20948's REG_BANK_SEL). Nothing is kept of the traffic, so a read allocates nothing.
public final class RegisterFileI2CBus: I2CBus {
    public let name: String
    public private(set) var statistics = I2CStatistics()
    public let address: UInt8
    public var registers = [[UInt8]](repeating: [UInt8](repeating: 0, count: 256), count: 4)
    private let bankSelect: Bool
    private var bank = 0

    public init(name: String = "/dev/i2c-model", address: UInt8, bankSelect: Bool) {
        self.name = name
        self.address = address
        self.bankSelect = bankSelect
    }

    public func write(_ address: UInt8, _ bytes: [UInt8]) throws(I2CError) {
        statistics.transactions += 1
        guard address == self.address else { throw noAcknowledge(address) }
        guard let first = bytes.first else { return }
        if bankSelect && first == 0x7F, bytes.count > 1 {
            bank = Int(bytes[1] >> 4) & 3
            return
        }
        for (offset, value) in bytes.dropFirst().enumerated() { registers[bank][(Int(first) + offset) & 0xFF] = value }
    }

    public func read(_ address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(I2CError) {
        statistics.transactions += 1
        guard address == self.address else { throw noAcknowledge(address) }
        for index in 0..<buffer.count { buffer[index] = registers[bank][(Int(register) + index) & 0xFF] }
    }

    public func pause(seconds: Double) {}

    private func noAcknowledge(_ address: UInt8) -> I2CError {
        statistics.errors += 1
        return I2CError(
            .noAcknowledge, bus: name, address: address, detail: "no acknowledge (nothing answers at this address)")
    }
}
