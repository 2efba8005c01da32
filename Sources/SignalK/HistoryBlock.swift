/// The boat's history on the card, one block a minute (#40): what is kept, how a minute is packed, and how it is read
/// back, torn blocks included. Pure: the shell appends the bytes to a file a day and reads them back.
///
/// A block: `TTH1` (this boat) or `TTV1` (another vessel, heard on AIS), the UNIX minute (UInt32), the payload's length
/// (UInt16), the payload, and a CRC-32 of all before it (little-endian throughout). Another vessel's payload begins with
/// its context (a length byte and the text, `vessels.urn:mrn:imo:mmsi:235000001`). The payload is, for each series with
/// a sample in the minute: its id (one byte; 255 for a series `[history] paths` adds, followed by its path as a length
/// byte and the text, and its step as a power of ten, one signed byte), a bitmap of the seconds it has (8 bytes, bit i second i), then each sample as a zigzag varint: the change from the
/// one before (first-order), or the change of that change for the position (second-order: a boat at steady speed
/// costs a byte a second, not three). Values are whole numbers of each series' step (1e-7° of position, 0.001 rad,
/// 0.01 m/s, 0.01 m, 1 Pa, 0.01 K), so a sample costs a byte or two, the bitmap an eighth of a byte.
public enum HistoryBlock {
    public static let magic: [UInt8] = Array("TTH1".utf8)
    /// Another vessel's minute.
    public static let vesselMagic: [UInt8] = Array("TTV1".utf8)
    /// The id of a series named in the block (``named(_:)``).
    public static let namedID: UInt8 = 255
    /// The step of a named series: a thousandth of its SI unit.
    public static let namedExponent: Int8 = -3
    /// The most series `[history] paths` may add, and the longest path.
    public static let largestNamed = 16
    public static let longestName = 120
    /// Header (magic, minute, length) and the CRC after the payload.
    public static let overhead = 14

    /// One series kept: a Signal K path (the position is two series, its latitude and longitude), its step in SI
    /// units, whether it is an angle (averaged as a vector), whether it is packed second-order.
    public struct Series: Hashable, Sendable {
        public let id: UInt8
        public let path: String
        public let step: Double
        public let isAngle: Bool
        public let secondOrder: Bool
    }

    /// What is kept by default, once a second: the values people ask about afterwards.
    public static let series: [Series] = [
        Series(id: 0, path: "navigation.position.latitude", step: 1e-7, isAngle: false, secondOrder: true),
        Series(id: 1, path: "navigation.position.longitude", step: 1e-7, isAngle: false, secondOrder: true),
        Series(id: 2, path: "navigation.courseOverGroundTrue", step: 0.001, isAngle: true, secondOrder: false),
        Series(id: 3, path: "navigation.speedOverGround", step: 0.01, isAngle: false, secondOrder: false),
        Series(id: 4, path: "navigation.headingTrue", step: 0.001, isAngle: true, secondOrder: false),
        Series(id: 5, path: "navigation.speedThroughWater", step: 0.01, isAngle: false, secondOrder: false),
        Series(id: 6, path: "environment.wind.angleApparent", step: 0.001, isAngle: true, secondOrder: false),
        Series(id: 7, path: "environment.wind.speedApparent", step: 0.01, isAngle: false, secondOrder: false),
        Series(id: 8, path: "environment.wind.angleTrueWater", step: 0.001, isAngle: true, secondOrder: false),
        Series(id: 9, path: "environment.wind.speedTrue", step: 0.01, isAngle: false, secondOrder: false),
        Series(id: 10, path: "environment.wind.directionTrue", step: 0.001, isAngle: true, secondOrder: false),
        Series(id: 11, path: "environment.depth.belowTransducer", step: 0.01, isAngle: false, secondOrder: false),
        Series(id: 12, path: "navigation.attitude.roll", step: 0.001, isAngle: false, secondOrder: false),
        Series(id: 13, path: "navigation.attitude.pitch", step: 0.001, isAngle: false, secondOrder: false),
        Series(id: 14, path: "environment.outside.pressure", step: 1, isAngle: false, secondOrder: false),
        Series(id: 15, path: "environment.water.temperature", step: 0.01, isAngle: false, secondOrder: false),
        Series(
            id: 16, path: "navigation.course.calcValues.crossTrackError", step: 0.1, isAngle: false, secondOrder: false),
    ]

    /// The paths the History API names (the position once, as `navigation.position`).
    public static let paths: [String] =
        ["navigation.position"] + series.dropFirst(2).map { $0.path }

    /// What is kept of another vessel heard on AIS: its position, course and speed over ground (the first four
    /// series, with the same ids).
    public static let vesselSeries = 4
    public static let vesselPaths = [
        "navigation.position", "navigation.courseOverGroundTrue", "navigation.speedOverGround",
    ]

    /// A series `[history] paths` adds: kept under its name, a thousandth of its SI unit a step; an angle (units rad)
    /// is averaged as a vector.
    public static func named(_ path: String, isAngle: Bool) -> Series {
        var step = 1.0
        for _ in 0..<Int(-namedExponent) { step /= 10 }
        return Series(id: namedID, path: path, step: step, isAngle: isAngle, secondOrder: false)
    }

    /// The series a store keeps: the defaults and the named ones.
    public static func catalog(adding named: [Series]) -> [Series] {
        series + named.prefix(largestNamed)
    }

    /// The History API's paths of a catalog.
    public static func paths(of catalog: [Series]) -> [String] {
        paths + catalog.dropFirst(series.count).map { $0.path }
    }

    /// A minute being gathered: a value a second for each series, the newest of the second.
    public struct Minute: Sendable {
        public let minute: Int64
        /// Another vessel's context; nil for this boat.
        public let context: String?
        let catalog: [Series]
        var values: [[Int64?]]

        /// A minute of `catalog`'s series (another vessel's: the first ``vesselSeries``).
        public init(minute: Int64, context: String? = nil, catalog: [Series] = HistoryBlock.series) {
            self.minute = minute
            self.context = context.map {
                String(decoding: Array($0.utf8.prefix(HistoryBlock.longestName)), as: UTF8.self)
            }
            self.catalog = context == nil ? catalog : Array(catalog.prefix(HistoryBlock.vesselSeries))
            values = Array(repeating: Array(repeating: nil, count: 60), count: self.catalog.count)
        }

        /// Keeps `value` (SI) for series `index` at `second` (0–59); a value that is not finite, or beyond what the
        /// step can hold, is left out.
        public mutating func record(_ index: Int, second: Int, _ value: Double) {
            guard index >= 0, index < values.count, second >= 0, second < 60, value.isFinite else { return }
            let steps = (value / catalog[index].step).rounded()
            guard abs(steps) < 1e15 else { return }
            values[index][second] = Int64(steps)
        }

        public var isEmpty: Bool { values.allSatisfy { $0.allSatisfy { $0 == nil } } }

        /// Whether series `index` has a sample at `second`.
        public func has(_ index: Int, second: Int) -> Bool {
            index >= 0 && index < values.count && second >= 0 && second < 60 && values[index][second] != nil
        }

        /// The block's bytes.
        public func encode() -> [UInt8] {
            var payload: [UInt8] = []
            if let context {
                payload.append(UInt8(context.utf8.count))
                payload += context.utf8
            }
            for (index, samples) in values.enumerated() where samples.contains(where: { $0 != nil }) {
                let info = catalog[index]
                payload.append(info.id)
                if info.id == HistoryBlock.namedID {
                    let name = Array(info.path.utf8.prefix(HistoryBlock.longestName))
                    payload.append(UInt8(name.count))
                    payload += name
                    payload.append(UInt8(bitPattern: HistoryBlock.namedExponent))
                }
                var bitmap: UInt64 = 0
                for (second, sample) in samples.enumerated() where sample != nil { bitmap |= 1 << UInt64(second) }
                for shift in stride(from: 0, to: 64, by: 8) {
                    payload.append(UInt8(truncatingIfNeeded: bitmap >> UInt64(shift)))
                }
                var previous: Int64 = 0
                var change: Int64 = 0
                for sample in samples {
                    guard let sample else { continue }
                    let delta = sample &- previous
                    if info.secondOrder {
                        HistoryBlock.varint(delta &- change, into: &payload)
                        change = delta
                    } else {
                        HistoryBlock.varint(delta, into: &payload)
                    }
                    previous = sample
                }
            }
            var block = context == nil ? HistoryBlock.magic : HistoryBlock.vesselMagic
            let minute = UInt32(truncatingIfNeeded: self.minute)
            for shift in stride(from: 0, to: 32, by: 8) {
                block.append(UInt8(truncatingIfNeeded: minute >> UInt32(shift)))
            }
            block.append(UInt8(truncatingIfNeeded: payload.count))
            block.append(UInt8(truncatingIfNeeded: payload.count >> 8))
            block += payload
            let crc = CRC32.checksum(block)
            for shift in stride(from: 0, to: 32, by: 8) {
                block.append(UInt8(truncatingIfNeeded: crc >> UInt32(shift)))
            }
            return block
        }
    }

    /// One minute read back: for each series index, its 60 seconds (nil where nothing was kept), in SI units.
    public struct Decoded: Sendable {
        public var minute: Int64
        /// Another vessel's context; nil for this boat.
        public var context: String?
        /// By the index of the catalog the block was read with; a named series the catalog does not hold is skipped.
        public var values: [[Double?]]
    }

    static func varint(_ value: Int64, into out: inout [UInt8]) {
        var zigzag = UInt64(bitPattern: (value << 1) ^ (value >> 63))
        while zigzag >= 0x80 {
            out.append(UInt8(zigzag & 0x7F) | 0x80)
            zigzag >>= 7
        }
        out.append(UInt8(zigzag))
    }

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

extension SignalKModel {
    /// The current value of a path (the preferred source's), if it is one the history keeps as a number.
    func historyValue(_ path: String) -> SignalKValue? {
        let found = entries[path] ?? []
        let preferred = preferredSource(path)
        return (found.first(where: { $0.source == preferred }) ?? found.first)?.value
    }

    /// This second's values for the history: each series' value now, in the order of ``HistoryBlock/series``; nil
    /// where there is none (a value withdrawn is null here, never a stale one).
    public func historySample(catalog: [HistoryBlock.Series] = HistoryBlock.series) -> [Double?] {
        var sample: [Double?] = Array(repeating: nil, count: catalog.count)
        if let value = historyValue("navigation.position"), case .position(let latitude, let longitude) = value {
            sample[0] = latitude
            sample[1] = longitude
        }
        if let value = historyValue("navigation.attitude"), case .attitude(let roll, let pitch, _) = value {
            sample[12] = roll
            sample[13] = pitch
        }
        for index in 2..<catalog.count where index != 12 && index != 13 {
            if let value = historyValue(catalog[index].path), case .number(let number) = value {
                sample[index] = number
            }
        }
        return sample
    }
}

extension SignalKTraffic.Station {
    /// What the history keeps of a vessel heard on AIS now: latitude, longitude, course and speed over ground (the
    /// first ``HistoryBlock/vesselSeries`` series).
    public var historySample: [Double?] {
        var sample: [Double?] = Array(repeating: nil, count: HistoryBlock.vesselSeries)
        for (path, value) in values {
            if path == "navigation.position", case .position(let latitude, let longitude) = value {
                sample[0] = latitude
                sample[1] = longitude
            } else if path == "navigation.courseOverGroundTrue", case .number(let number) = value {
                sample[2] = number
            } else if path == "navigation.speedOverGround", case .number(let number) = value {
                sample[3] = number
            }
        }
        return sample
    }

    /// Whether the history keeps this station's track: vessels and search-and-rescue units, not fixed stations.
    public var isKeptInHistory: Bool { context.hasPrefix("vessels.") || context.hasPrefix("sar.") }

    /// When the station was last heard, on the engine's clock.
    public var lastHeard: Double { heard }
}
