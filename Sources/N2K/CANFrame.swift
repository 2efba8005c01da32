/// One CAN frame of an NMEA 2000 bus: its 29-bit identifier and up to eight data bytes, held inline (a frame is a
/// value: reading one allocates nothing).
public struct CANFrame: Hashable, Sendable {
    /// The 29-bit extended identifier (``N2KIdentifier`` reads it).
    public var id: UInt32
    /// The data bytes, the first in the lowest byte.
    public var data: UInt64
    /// How many data bytes (0 to 8).
    public var count: Int

    public init(id: UInt32, data: UInt64, count: Int) {
        self.id = id & 0x1FFF_FFFF
        self.count = min(max(count, 0), 8)
        self.data = self.count == 8 ? data : data & ((1 << (UInt64(self.count) * 8)) - 1)
    }

    /// A frame from its bytes (at most eight are taken).
    public init(id: UInt32, bytes: some Collection<UInt8>) {
        var data: UInt64 = 0
        var count = 0
        for byte in bytes.prefix(8) {
            data |= UInt64(byte) << (UInt64(count) * 8)
            count += 1
        }
        self.init(id: id, data: data, count: count)
    }

    /// Data byte `index` (0 past the frame's length).
    public subscript(index: Int) -> UInt8 {
        guard index >= 0 && index < count else { return 0 }
        return UInt8(truncatingIfNeeded: data >> (UInt64(index) * 8))
    }

    public var identifier: N2KIdentifier { N2KIdentifier(id) }

    /// The data bytes.
    public var bytes: [UInt8] { (0..<count).map { self[$0] } }
}
