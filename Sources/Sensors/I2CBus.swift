import CPosix
import Platform

/// A failed I²C transaction, with the bus and the address it was for.
public struct I2CError: Error, CustomStringConvertible, Sendable {
    public enum Kind: Sendable, Equatable {
        /// The bus could not be opened (missing, no permission).
        case open
        /// Nothing acknowledged the address (wrong address, chip unpowered, wiring).
        case noAcknowledge
        /// Any other failure of the transfer, with its errno.
        case transfer
        /// A scripted bus saw a transaction other than the one in its transcript (tests only).
        case unexpected
    }

    public let kind: Kind
    public let bus: String
    public let address: UInt8
    public let detail: String

    public init(_ kind: Kind, bus: String, address: UInt8, detail: String) {
        self.kind = kind
        self.bus = bus
        self.address = address
        self.detail = detail
    }

    public var description: String {
        kind == .open ? "I2C \(bus): \(detail)" : "I2C \(bus) address \(hex(address)): \(detail)"
    }
}

/// Counts kept by every bus, for the gateway's periodic summary.
public struct I2CStatistics: Sendable, Equatable {
    public var transactions = 0
    /// Transfers that failed once and were tried again.
    public var retries = 0
    /// Transfers that failed for good (after the retries).
    public var errors = 0

    public init() {}
}

/// An I²C bus, as the drivers use it: register writes, and a register address written then bytes read back in one
/// transaction (a repeated start, as the chips' burst reads need).
public protocol I2CBus: AnyObject {
    /// The bus's name in messages: `/dev/i2c-1`.
    var name: String { get }
    var statistics: I2CStatistics { get }
    /// Writes `bytes` (a register address, then its values) to the chip at `address`.
    func write(_ address: UInt8, _ bytes: [UInt8]) throws(I2CError)
    /// Writes the register address, then reads `buffer.count` bytes from it (auto-incrementing on every chip here).
    func read(_ address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(I2CError)
    /// Waits, after a reset or a mode change; a scripted bus does not wait.
    func pause(seconds: Double)
}

extension I2CBus {
    /// One register.
    public func readRegister(_ address: UInt8, _ register: UInt8) throws(I2CError) -> UInt8 {
        var value: [UInt8] = [0]
        try read(address, register: register, into: &value)
        return value[0]
    }

    /// Fills `bytes` from `register` on (a burst read into a buffer the caller keeps: nothing allocated).
    public func read(_ address: UInt8, register: UInt8, into bytes: inout [UInt8]) throws(I2CError) {
        let failure: I2CError? = bytes.withUnsafeMutableBytes { raw -> I2CError? in
            do throws(I2CError) {
                try read(address, register: register, into: raw)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    public func writeRegister(_ address: UInt8, _ register: UInt8, _ value: UInt8) throws(I2CError) {
        try write(address, [register, value])
    }
}

/// A Linux I²C adapter, `/dev/i2c-N`, through the i2c-dev `I2C_RDWR` ioctl: each read is one combined transaction
/// (register address written, repeated start, bytes read), so nothing else on the bus can come between the two.
///
/// Transient failures (a glitch, clock stretching gone wrong, a busy adapter) are tried again up to `attempts`
/// times; a missing acknowledge on the first transfer is reported as such so a wrong address reads plainly.
public final class LinuxI2CBus: I2CBus {
    public let name: String
    public private(set) var statistics = I2CStatistics()
    public let attempts: Int
    private let fd: Int32

    // From <linux/i2c-dev.h> and <linux/i2c.h>.
    static let ioctlRDWR: UInt = 0x0707
    private static let flagRead: UInt16 = 0x0001

    /// The ioctl, replaceable so that the tests can make transfers fail (the result, and errno when it is < 0).
    public typealias Transfer = (_ fd: Int32, _ request: UnsafeMutableRawPointer) -> (result: Int32, code: Int32)
    private let transferCall: Transfer

    /// Opens the adapter; `path` may be a symlink.
    public init(path: String, attempts: Int = 3, transfer: Transfer? = nil) throws(I2CError) {
        name = path
        self.attempts = max(1, attempts)
        transferCall =
            transfer ?? { fd, request in
                POSIX.ioctl(fd, LinuxI2CBus.ioctlRDWR, request)
            }
        do {
            fd = try POSIX.open(path, O_RDWR)
        } catch {
            throw I2CError(.open, bus: path, address: 0, detail: "cannot open the bus: \(Self.message(error.code))")
        }
    }

    deinit { POSIX.close(fd) }

    public func write(_ address: UInt8, _ bytes: [UInt8]) throws(I2CError) {
        var payload = bytes
        let failure: I2CError? = payload.withUnsafeMutableBytes { buffer -> I2CError? in
            do throws(I2CError) {
                try transfer(address, write: buffer, read: nil)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    public func read(_ address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(I2CError) {
        var reg = register  // on the stack: a sample's read allocates nothing
        let failure: I2CError? = withUnsafeMutableBytes(of: &reg) { registerBuffer -> I2CError? in
            do throws(I2CError) {
                try transfer(address, write: registerBuffer, read: buffer)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    public func pause(seconds: Double) {
        POSIX.pause(seconds: seconds)
    }

    /// `struct i2c_msg` is { u16 addr; u16 flags; u16 len; u8 *buf; } (16 bytes on 64-bit, 12 on 32-bit ARM) and
    /// `struct i2c_rdwr_ioctl_data` is { struct i2c_msg *msgs; u32 nmsgs; }: laid out here by hand, so the layout
    /// does not depend on how Swift arranges a struct.
    private func transfer(
        _ address: UInt8, write: UnsafeMutableRawBufferPointer, read: UnsafeMutableRawBufferPointer?
    ) throws(I2CError) {
        statistics.transactions += 1
        let pointerSize = MemoryLayout<UnsafeMutableRawPointer>.size
        let messageSize = pointerSize == 8 ? 16 : 12
        let bufferOffset = 8  // after three u16, aligned for the pointer on both
        var messages: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        var request: (UInt64, UInt64) = (0, 0)
        var lastCode: Int32 = 0
        for attempt in 0..<attempts {
            let result = withUnsafeMutableBytes(of: &messages) { raw -> Int32 in
                func message(_ index: Int, flags: UInt16, _ data: UnsafeMutableRawBufferPointer) {
                    let base = index * messageSize
                    raw.storeBytes(of: UInt16(address), toByteOffset: base, as: UInt16.self)
                    raw.storeBytes(of: flags, toByteOffset: base + 2, as: UInt16.self)
                    raw.storeBytes(of: UInt16(data.count), toByteOffset: base + 4, as: UInt16.self)
                    raw.storeBytes(
                        of: data.baseAddress, toByteOffset: base + bufferOffset, as: UnsafeMutableRawPointer?.self)
                }
                message(0, flags: 0, write)
                if let read { message(1, flags: Self.flagRead, read) }
                return withUnsafeMutableBytes(of: &request) { data -> Int32 in
                    data.storeBytes(of: raw.baseAddress, toByteOffset: 0, as: UnsafeMutableRawPointer?.self)
                    data.storeBytes(of: UInt32(read == nil ? 1 : 2), toByteOffset: pointerSize, as: UInt32.self)
                    let outcome = transferCall(fd, data.baseAddress!)
                    lastCode = outcome.code
                    return outcome.result
                }
            }
            if result >= 0 { return }
            // ENXIO: no acknowledge from the address. Nothing will change by asking again at once.
            if lastCode == ENXIO { break }
            guard Self.isTransient(lastCode), attempt + 1 < attempts else { break }
            statistics.retries += 1
            pause(seconds: 0.001)
        }
        statistics.errors += 1
        if lastCode == ENXIO {
            throw I2CError(
                .noAcknowledge, bus: name, address: address, detail: "no acknowledge (nothing answers at this address)")
        }
        throw I2CError(.transfer, bus: name, address: address, detail: Self.message(lastCode))
    }

    static func isTransient(_ code: Int32) -> Bool {
        // EREMOTEIO (121) is how several adapters report a NACK in mid-transfer, often a glitch on a long cable.
        code == EIO || code == EAGAIN || code == ETIMEDOUT || code == EBUSY || code == EINTR || code == 121
    }

    static func message(_ code: Int32) -> String { POSIX.message(code) }
}

/// `0x68`: how addresses and registers are written in messages and URLs.
public func hex(_ value: UInt8) -> String {
    let digits = Array("0123456789abcdef")
    return "0x" + String(digits[Int(value >> 4)]) + String(digits[Int(value & 0xF)])
}
