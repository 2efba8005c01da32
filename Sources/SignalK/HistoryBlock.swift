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

        public init(minute: Int64, context: String? = nil, values: [[Double?]]) {
            self.minute = minute
            self.context = context
            self.values = values
        }
    }

    static func varint(_ value: Int64, into out: inout [UInt8]) {
        var zigzag = UInt64(bitPattern: (value << 1) ^ (value >> 63))
        while zigzag >= 0x80 {
            out.append(UInt8(zigzag & 0x7F) | 0x80)
            zigzag >>= 7
        }
        out.append(UInt8(zigzag))
    }

}
