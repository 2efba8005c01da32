/// A message's data bytes: up to eight held inline (a single-frame message, most of a bus, allocates nothing), more in
/// an array (a fast packet's up to 223, a transport session's up to 1785).
public struct N2KPayload: Hashable, Sendable {
    public private(set) var count: Int
    private var small: UInt64
    private var large: [UInt8]

    public init() {
        count = 0
        small = 0
        large = []
    }

    /// The bytes of one frame.
    public init(_ frame: CANFrame) {
        count = frame.count
        small = frame.data
        large = []
    }

    public init(_ bytes: some Collection<UInt8>) {
        count = bytes.count
        small = 0
        large = []
        if count <= 8 {
            for (index, byte) in bytes.enumerated() { small |= UInt64(byte) << (UInt64(index) * 8) }
        } else {
            large = Array(bytes)
        }
    }

    /// Byte `index` (0 past the end).
    public subscript(index: Int) -> UInt8 {
        guard index >= 0 && index < count else { return 0 }
        return count <= 8 ? UInt8(truncatingIfNeeded: small >> (UInt64(index) * 8)) : large[index]
    }

    public var bytes: [UInt8] { count <= 8 ? (0..<count).map { self[$0] } : large }

    /// The unsigned number in `length` bits (at most 64) from bit `offset`, least significant first (NMEA 2000's
    /// order); nil when the field runs past the data.
    public func bits(_ offset: Int, _ length: Int) -> UInt64? {
        guard length > 0, length <= 64, offset >= 0, offset + length <= count * 8 else { return nil }
        if count <= 8 && length < 64 {
            return (small >> UInt64(offset)) & ((1 << UInt64(length)) - 1)
        }
        var value: UInt64 = 0
        var got = 0
        var bit = offset
        while got < length {
            let byte = UInt64(self[bit >> 3]) >> UInt64(bit & 7)
            let take = min(8 - (bit & 7), length - got)
            value |= (byte & ((1 << UInt64(take)) - 1)) << UInt64(got)
            got += take
            bit += take
        }
        return value
    }
}

/// Bytes being written for a message: fields put at their bit offsets, least significant bit first, the rest of
/// each byte 1s (NMEA 2000's "not available" and its reserved bits).
public struct N2KWriter: Sendable {
    public private(set) var bytes: [UInt8]

    /// `count` bytes, all bits set.
    public init(count: Int) { bytes = Array(repeating: 0xFF, count: count) }

    /// `value`'s low `length` bits at bit `offset` (the buffer grows, with 1s, when the field runs past it).
    public mutating func put(_ value: UInt64, at offset: Int, length: Int) {
        let end = (offset + length + 7) / 8
        if end > bytes.count { bytes += Array(repeating: 0xFF, count: end - bytes.count) }
        var bit = offset
        var left = length
        var rest = value
        while left > 0 {
            let index = bit >> 3
            let shift = bit & 7
            let take = min(8 - shift, left)
            let mask = UInt8(truncatingIfNeeded: ((1 << UInt64(take)) - 1) << UInt64(shift))
            let part = UInt8(truncatingIfNeeded: (rest & ((1 << UInt64(take)) - 1)) << UInt64(shift))
            bytes[index] = (bytes[index] & ~mask) | part
            rest >>= UInt64(take)
            bit += take
            left -= take
        }
    }

    /// Bytes as they are, at a byte offset.
    public mutating func put(bytes more: [UInt8], at byte: Int) {
        if byte + more.count > bytes.count { bytes += Array(repeating: 0xFF, count: byte + more.count - bytes.count) }
        for (index, value) in more.enumerated() { bytes[byte + index] = value }
    }
}
