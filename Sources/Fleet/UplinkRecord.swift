import SignalK

/// The uplink's queue on disk, a record at a time: a batch's JSON behind its length and its CRC-32, appended to a
/// segment file. A power cut may leave the last record half written; reading stops there, and the shell cuts the file
/// back to the last whole record. Nothing else is ever rewritten in place.
///
///     "TQ" length u32 (little-endian) crc32 u32 bytes...
public enum UplinkRecord {
    static let magic: [UInt8] = [0x54, 0x51]  // "TQ"
    public static let headerLength = 10
    /// A batch is at most this long (a minute of every group, and alarms, is a few kilobytes).
    public static let maximumLength = 1 << 20

    /// The record of `payload`.
    public static func encode(_ payload: [UInt8]) -> [UInt8] {
        var out = magic
        let length = UInt32(payload.count)
        let crc = CRC32.checksum(payload)
        for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: length >> UInt32(shift))) }
        for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: crc >> UInt32(shift))) }
        return out + payload
    }

    /// The whole records at the start of `bytes` (each payload's range), and how many bytes they take: what follows
    /// is a torn record (or none).
    public static func decode(_ bytes: [UInt8]) -> (records: [Range<Int>], valid: Int) {
        var records: [Range<Int>] = []
        var offset = 0
        while offset + headerLength <= bytes.count {
            guard bytes[offset] == magic[0], bytes[offset + 1] == magic[1] else { break }
            func u32(_ at: Int) -> UInt32 {
                UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3])
                    << 24
            }
            // Compared as read: a broken length past 2^31 is no Int on the Pi's 32-bit build.
            let stated = u32(offset + 2)
            guard stated <= UInt32(maximumLength) else { break }
            let length = Int(stated)
            let start = offset + headerLength
            guard start + length <= bytes.count,
                CRC32.checksum(bytes[start..<(start + length)]) == u32(offset + 6)
            else { break }
            records.append(start..<(start + length))
            offset = start + length
        }
        return (records, offset)
    }
}
