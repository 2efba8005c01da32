/// Blocks read back: decoded, walked, their ends found in a file that a power cut may have left torn.
extension HistoryBlock {
    /// The block at `offset`, and where the next begins; nil when there is no whole, intact block there (torn by a
    /// power cut, or not a block at all).
    public static func decode(
        _ bytes: UnsafeRawBufferPointer, at offset: Int, catalog: [Series] = HistoryBlock.series
    ) -> (Decoded, next: Int)? {
        guard offset >= 0, offset + overhead <= bytes.count, isMagic(bytes, at: offset) else { return nil }
        let isVessel = bytes[offset + 2] == vesselMagic[2]
        func u32(_ at: Int) -> UInt32 {
            (0..<4).reduce(0) { $0 | UInt32(bytes[at + $1]) << UInt32(8 * $1) }
        }
        let length = Int(bytes[offset + 8]) | Int(bytes[offset + 9]) << 8
        let end = offset + 10 + length
        guard end + 4 <= bytes.count,
            CRC32.checksum(UnsafeRawBufferPointer(rebasing: bytes[offset..<end])) == u32(end)
        else { return nil }
        var decoded = Decoded(
            minute: Int64(u32(offset + 4)), context: nil,
            values: Array(repeating: Array(repeating: nil, count: 60), count: catalog.count))
        var at = offset + 10
        if isVessel {
            let length = Int(bytes[at])
            guard length > 0, at + 1 + length <= end else { return nil }
            decoded.context = String(
                decoding: UnsafeRawBufferPointer(rebasing: bytes[(at + 1)..<(at + 1 + length)]), as: UTF8.self)
            at += 1 + length
        }
        func read() -> Int64? {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while at < end, shift < 64 {
                let byte = bytes[at]
                at += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1) }
                shift += 7
            }
            return nil
        }
        while at < end {
            let id = bytes[at]
            at += 1
            var index: Int?
            var info: Series
            if id == namedID {
                guard at < end else { return nil }
                let length = Int(bytes[at])
                guard at + 2 + length <= end else { return nil }
                let name = String(
                    decoding: UnsafeRawBufferPointer(rebasing: bytes[(at + 1)..<(at + 1 + length)]), as: UTF8.self)
                let exponent = Int8(bitPattern: bytes[at + 1 + length])
                at += 2 + length
                guard exponent >= -9, exponent <= 9 else { return nil }
                var step = 1.0
                for _ in 0..<Int(exponent.magnitude) { step = exponent < 0 ? step / 10 : step * 10 }
                index = catalog.firstIndex { $0.id == namedID && $0.path == name }
                info = Series(id: id, path: name, step: step, isAngle: false, secondOrder: false)
            } else {
                guard let fixed = series.firstIndex(where: { $0.id == id }) else { return nil }
                info = series[fixed]
                index = fixed < catalog.count ? fixed : nil
            }
            guard at + 8 <= end else { return nil }
            var bitmap: UInt64 = 0
            for byte in 0..<8 { bitmap |= UInt64(bytes[at + byte]) << UInt64(8 * byte) }
            at += 8
            var previous: Int64 = 0
            var change: Int64 = 0
            for second in 0..<60 where bitmap & (1 << UInt64(second)) != 0 {
                guard let coded = read() else { return nil }
                if info.secondOrder {
                    change = change &+ coded
                    previous = previous &+ change
                } else {
                    previous = previous &+ coded
                }
                if let index { decoded.values[index][second] = Double(previous) * info.step }
            }
        }
        return (decoded, end + 4)
    }

    /// Whether a block's magic (this boat's or another vessel's) begins at `offset`.
    static func isMagic(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        offset + 4 <= bytes.count && bytes[offset] == magic[0] && bytes[offset + 1] == magic[1]
            && (bytes[offset + 2] == magic[2] || bytes[offset + 2] == vesselMagic[2]) && bytes[offset + 3] == magic[3]
    }

    /// Whether the file's data ends at `offset`: four zero bytes (a day file is laid out ahead in zeros, which no block
    /// begins with), or its end.
    public static func isEnd(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        offset + 4 > bytes.count
            || (bytes[offset] == 0 && bytes[offset + 1] == 0 && bytes[offset + 2] == 0 && bytes[offset + 3] == 0)
    }

    /// Every intact block of a file's bytes, in order, to the end of its data: a torn or broken stretch is skipped to
    /// the next block's magic (a power cut mid-write loses that minute alone). A block never begins with a zero byte,
    /// so zeros where a block should begin are the laid-out end; inside a broken stretch zeros are not (a block holds
    /// runs of them), and the search for the next magic goes on to the file's end.
    public static func blocks(
        _ bytes: UnsafeRawBufferPointer, catalog: [Series] = HistoryBlock.series, _ visit: (Decoded) -> Void
    ) {
        walk(bytes, catalog: catalog) { decoded, _ in visit(decoded) }
    }

    /// Where each intact block lies, with its minute and whether it is another vessel's (a playback sends the bytes as
    /// they are).
    public static func spans(
        _ bytes: UnsafeRawBufferPointer, catalog: [Series] = HistoryBlock.series,
        _ visit: (_ minute: Int64, _ isVessel: Bool, _ span: Range<Int>) -> Void
    ) {
        walk(bytes, catalog: catalog) { decoded, span in visit(decoded.minute, decoded.context != nil, span) }
    }

    static func walk(
        _ bytes: UnsafeRawBufferPointer, catalog: [Series], _ visit: (Decoded, Range<Int>) -> Void
    ) {
        var offset = 0
        while offset + overhead <= bytes.count && !isEnd(bytes, at: offset) {
            if let (decoded, next) = decode(bytes, at: offset, catalog: catalog) {
                visit(decoded, offset..<next)
                offset = next
                continue
            }
            offset += 1
            while offset + 4 <= bytes.count && !isMagic(bytes, at: offset) { offset += 1 }
        }
    }

    /// The length of the intact data at the start of a file: where the next block goes after a power cut.
    public static func intactLength(_ bytes: UnsafeRawBufferPointer) -> Int {
        var offset = 0
        while let (_, next) = decode(bytes, at: offset) { offset = next }
        return offset
    }

    /// How many bytes from `offset` a torn block left (to be zeroed): the block its header announces, or, without a
    /// header, up to the zeros of the end; at most 16 KB.
    public static func remainsLength(_ bytes: UnsafeRawBufferPointer, from offset: Int) -> Int {
        guard offset < bytes.count else { return 0 }
        var end = offset
        if offset + 10 <= bytes.count && isMagic(bytes, at: offset) {
            end = offset + overhead + (Int(bytes[offset + 8]) | Int(bytes[offset + 9]) << 8)
        } else {
            while end < bytes.count && !isEnd(bytes, at: end) { end += 1 }
        }
        return min(end, bytes.count, offset + 16_384) - offset
    }
}
