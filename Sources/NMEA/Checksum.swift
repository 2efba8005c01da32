/// The NMEA 0183 checksum: XOR of every byte strictly between the start character and `*`.
public enum Checksum {
    /// XOR of the bytes in `bytes[range]`.
    public static func xor(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> UInt8 {
        var sum: UInt8 = 0
        for index in range {
            sum ^= bytes[index]
        }
        return sum
    }

    /// XOR of every byte of a sequence.
    public static func xor<S: Sequence>(_ bytes: S) -> UInt8 where S.Element == UInt8 {
        var sum: UInt8 = 0
        for byte in bytes {
            sum ^= byte
        }
        return sum
    }

    /// The value of one hexadecimal digit, upper or lower case, or nil.
    @inline(__always)
    public static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte &- UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte &- UInt8(ascii: "A") &+ 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte &- UInt8(ascii: "a") &+ 10
        default: return nil
        }
    }

    /// The upper-case hexadecimal digit for a nibble (0–15).
    public static func hexDigit(_ nibble: UInt8) -> UInt8 {
        let value = nibble & 0x0F
        return value < 10 ? UInt8(ascii: "0") &+ value : UInt8(ascii: "A") &+ value &- 10
    }
}
