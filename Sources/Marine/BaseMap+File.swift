/// The base map's file, one a resolution (`basemap-<c|l|i|h|f>.ttbm`), made by `telltale basemap build` and mapped by
/// the gateway, which hands out a bin's bytes as they are (the panel decodes them). Little-endian:
///
///     "TTBM" version(1) letter(1) binMinutes(u16) binsAcross(u16) binCount(u32)
///     offsets (u32 × binCount+1, from the start of the data)
///     data: for each bin, its rings: count (varint); each ring its level (u8), its point count (varint), its first
///     point (u16 x, u16 y, 1/65535ths of the bin from its south-west corner), then each next point as the
///     zigzag varint differences in x and y.
///
/// A bin with no rings (open sea) is empty: its offset equals the next. Differences make the full resolution half
/// the size of plain pairs (coast points are close together). Pure.
extension BaseMap {
    public static let magic: [UInt8] = Array("TTBM".utf8)
    public static let headerSize = 14

    /// A resolution's bins as the file holds them.
    public static func encode(
        resolution: Resolution, binMinutes: Int, binsAcross: Int, bins: [[Ring]]
    ) -> [UInt8] {
        var out = magic + [1, resolution.byte]
        appendU16(&out, binMinutes)
        appendU16(&out, binsAcross)
        appendU32(&out, bins.count)
        var data: [UInt8] = []
        var offsets: [Int] = [0]
        for rings in bins {
            if !rings.isEmpty {
                appendVarint(&data, rings.count)
                for ring in rings {
                    data.append(UInt8(ring.level))
                    appendVarint(&data, ring.x.count)
                    appendU16(&data, Int(ring.x[0]))
                    appendU16(&data, Int(ring.y[0]))
                    for index in 1..<ring.x.count {
                        appendVarint(&data, zigzag(Int(ring.x[index]) - Int(ring.x[index - 1])))
                        appendVarint(&data, zigzag(Int(ring.y[index]) - Int(ring.y[index - 1])))
                    }
                }
            }
            offsets.append(data.count)
        }
        for offset in offsets { appendU32(&out, offset) }
        return out + data
    }

    /// What a mapped base map file says of itself; nil when it is not one (or is cut short).
    public struct Header: Sendable, Equatable {
        public var letter: UInt8
        public var binMinutes: Int
        public var binsAcross: Int
        public var binCount: Int

        public init?(_ bytes: UnsafeRawBufferPointer) {
            guard bytes.count >= BaseMap.headerSize, Array(bytes[0..<4]) == BaseMap.magic, bytes[4] == 1 else {
                return nil
            }
            letter = bytes[5]
            binMinutes = Int(bytes[6]) | Int(bytes[7]) << 8
            binsAcross = Int(bytes[8]) | Int(bytes[9]) << 8
            binCount = Int(bytes[10]) | Int(bytes[11]) << 8 | Int(bytes[12]) << 16 | Int(bytes[13]) << 24
            // Each field is at most 16 bits and the count 32: multiplied only once the first two are in range, so
            // that a broken header cannot overflow the Pi's 32-bit Int.
            guard binMinutes > 0, binMinutes <= 21_600, binsAcross <= 21_600, binsAcross * binMinutes == 21_600,
                binCount == binsAcross * binsAcross / 2,
                bytes.count >= BaseMap.headerSize + 4 * (binCount + 1)
            else { return nil }
        }

        /// Where bin `bin`'s bytes are in the file; nil for a bin it has not, or offsets out of its bounds.
        public func range(of bin: Int, in bytes: UnsafeRawBufferPointer) -> Range<Int>? {
            guard bin >= 0, bin < binCount else { return nil }
            // The offsets are unsigned 32-bit: read and added as such (as an Int on the Pi's 32-bit build, one past
            // 2^31 in a broken file would be negative, or overflow when added).
            func offset(_ index: Int) -> UInt64 {
                let at = BaseMap.headerSize + 4 * index
                return UInt64(bytes[at]) | UInt64(bytes[at + 1]) << 8 | UInt64(bytes[at + 2]) << 16
                    | UInt64(bytes[at + 3]) << 24
            }
            let data = UInt64(BaseMap.headerSize + 4 * (binCount + 1))
            let start = data + offset(bin)
            let end = data + offset(bin + 1)
            guard start <= end, end <= UInt64(bytes.count) else { return nil }
            return Int(start)..<Int(end)
        }
    }

    /// A bin's rings back from its bytes (the panel does the same in JavaScript); nil when they do not read.
    public static func decode(_ bytes: ArraySlice<UInt8>) -> [Ring]? {
        var at = bytes.startIndex
        // At most five bytes, and below 2^31 - 1 (a broken file's larger number is not read: on the Pi's 32-bit
        // build it would be a negative count).
        func varint() -> Int? {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while at < bytes.endIndex, shift < 35 {
                let byte = bytes[at]
                at += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return value < UInt64(Int32.max) ? Int(value) : nil }
                shift += 7
            }
            return nil
        }
        func u16() -> Int? {
            guard at + 2 <= bytes.endIndex else { return nil }
            defer { at += 2 }
            return Int(bytes[at]) | Int(bytes[at + 1]) << 8
        }
        if bytes.isEmpty { return [] }
        guard let count = varint(), count <= bytes.count else { return nil }
        var rings: [Ring] = []
        for _ in 0..<count {
            guard at < bytes.endIndex else { return nil }
            let level = Int(bytes[at])
            at += 1
            guard let points = varint(), points >= 1, points <= bytes.count, var x = u16(), var y = u16() else {
                return nil
            }
            var ring = Ring(level: level, x: [UInt16(x)], y: [UInt16(y)])
            for _ in 1..<points {
                guard let dx = varint(), let dy = varint() else { return nil }
                x += unzigzag(dx)
                y += unzigzag(dy)
                guard x >= 0, x <= side, y >= 0, y <= side else { return nil }
                ring.x.append(UInt16(x))
                ring.y.append(UInt16(y))
            }
            rings.append(ring)
        }
        return at == bytes.endIndex ? rings : nil
    }

    static func zigzag(_ value: Int) -> Int { value >= 0 ? value << 1 : ((-value) << 1) - 1 }
    static func unzigzag(_ value: Int) -> Int { value & 1 == 0 ? value >> 1 : -((value + 1) >> 1) }

    static func appendVarint(_ out: inout [UInt8], _ value: Int) {
        var rest = value
        while rest >= 0x80 {
            out.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        out.append(UInt8(rest))
    }

    static func appendU16(_ out: inout [UInt8], _ value: Int) {
        out += [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF)]
    }

    static func appendU32(_ out: inout [UInt8], _ value: Int) {
        out += [
            UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8((value >> 24) & 0xFF),
        ]
    }

    /// The bin holding a point (latitude −90 to 90, any longitude), for bins of `binMinutes`.
    public static func bin(latitude: Double, longitude: Double, binMinutes: Int) -> Int {
        let size = Double(binMinutes) / 60
        let across = 21_600 / binMinutes
        var east = longitude.truncatingRemainder(dividingBy: 360)
        if east < 0 { east += 360 }
        let row = min(max(Int((90 - latitude) / size), 0), across / 2 - 1)
        let column = min(Int(east / size), across - 1)
        return row * across + column
    }
}
