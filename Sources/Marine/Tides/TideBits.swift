/// Fields packed most significant bit first, as libtcd writes a harmonics file: a field of 1 to 32 bits starts
/// wherever the one before it ended. Every read is checked against the end it is given, so a broken file is refused
/// and never read past.
struct TideBits {
    let bytes: GridBytes
    /// The bit read next, counted from the start of the file.
    private(set) var bit: Int
    /// The byte this reader must not reach.
    let end: Int

    init(_ bytes: GridBytes, byte: Int, end: Int) {
        self.bytes = bytes
        self.bit = byte * 8
        self.end = min(end, bytes.count)
    }

    /// The next `count` bits as an unsigned number.
    mutating func unsigned(_ count: Int) throws(HarmonicsFile.FormatError) -> UInt32 {
        guard count > 0 else { return 0 }
        guard count <= 32, bit + count <= end * 8 else { throw .truncated }
        let first = bit >> 3
        let skip = bit & 7
        let byteCount = (skip + count + 7) >> 3
        var value: UInt64 = 0
        for index in 0..<byteCount { value = value << 8 | UInt64(bytes.uint8(at: first + index)) }
        value >>= UInt64(byteCount * 8 - skip - count)
        bit += count
        return UInt32(truncatingIfNeeded: value & ((1 << UInt64(count)) - 1))
    }

    /// The next `count` bits as a two's-complement number.
    mutating func signed(_ count: Int) throws(HarmonicsFile.FormatError) -> Int32 {
        let raw = try unsigned(count)
        guard count < 32 else { return Int32(bitPattern: raw) }
        guard raw & (1 << UInt32(count - 1)) != 0 else { return Int32(raw) }
        return Int32(truncatingIfNeeded: Int64(raw) - (Int64(1) << Int64(count)))
    }

    /// Eight-bit characters up to a NUL (Latin-1 in the files XTide ships), at most `limit` of them.
    mutating func text(limit: Int = 10_000) throws(HarmonicsFile.FormatError) -> String {
        var characters: [UInt8] = []
        while true {
            let byte = UInt8(try unsigned(8))
            if byte == 0 { break }
            guard characters.count < limit else { throw .badRecord("a text field with no end") }
            characters.append(byte)
        }
        return Latin1.string(characters)
    }

    /// Moves to bit `position` (a table's entry).
    mutating func seek(bit position: Int) { bit = position }
}

/// Latin-1 text as Swift text: each byte is the Unicode scalar of the same number.
enum Latin1 {
    static func string<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var utf8: [UInt8] = []
        for byte in bytes {
            if byte < 0x80 {
                utf8.append(byte)
            } else {
                utf8.append(0xC0 | byte >> 6)
                utf8.append(0x80 | byte & 0x3F)
            }
        }
        return String(decoding: utf8, as: UTF8.self)
    }

    /// ASCII letters folded to lower case; everything else as it is.
    static func folded(_ text: String) -> [UInt8] {
        text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
    }
}
