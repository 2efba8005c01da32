/// A harmonics file in libtcd's format, the one XTide reads (Debian's `xtide-data`, or a sailor's own, made from
/// TICON or bought): its stations' positions, names and constants, read where they lie in the bytes (a mapped file
/// costs only the pages a search or a station touches).
///
/// The file's own tables of node factors and equilibrium arguments are read only for a constituent Telltale does not
/// compute (``TideConstituent``); the rest are computed for the year asked, inside the table's years or not.
public struct HarmonicsFile: Sendable {
    /// Why a file is not a harmonics file, or a record in it is broken.
    public enum FormatError: Error, Hashable, Sendable, CustomStringConvertible {
        case notAHarmonicsFile
        case badHeader(String)
        case truncated
        case badRecord(String)
        case noRecord(Int)

        public var description: String {
            switch self {
            case .notAHarmonicsFile: "not a harmonics file (libtcd's TCD format starts with '[')"
            case .badHeader(let why): "broken harmonics file header: \(why)"
            case .truncated: "the harmonics file ends inside a record"
            case .badRecord(let why): "broken station record: \(why)"
            case .noRecord(let number): "no station record \(number)"
            }
        }
    }

    let bytes: GridBytes
    let layout: HarmonicsLayout
    /// The constituents' names and speeds (degrees an hour), in the file's order.
    public let constituentNames: [String]
    public let speeds: [Double]

    public init(_ bytes: GridBytes) throws(FormatError) {
        self.bytes = bytes
        layout = try HarmonicsLayout(bytes)
        var names: [String] = []
        for index in 0..<layout.constituentCount {
            names.append(
                Self.string(
                    bytes, at: layout.namesOffset + index * layout["CONSTITUENT SIZE"],
                    size: layout["CONSTITUENT SIZE"]))
        }
        var bits = TideBits(bytes, byte: layout.speedsOffset, end: layout.equilibriumsOffset)
        var speeds: [Double] = []
        for _ in 0..<layout.constituentCount {
            let raw = Double(try bits.unsigned(layout["SPEED BITS"]))
            let speed = (raw + Double(layout["SPEED OFFSET"])) / Double(layout["SPEED SCALE"])
            guard speed >= 0, speed < 1000 else { throw .badHeader("a constituent speed of \(speed)°/h") }
            speeds.append(speed)
        }
        constituentNames = names
        self.speeds = speeds
    }

    public var recordCount: Int { layout.recordCount }
    /// The years the file's own tables cover.
    public var years: ClosedRange<Int> { layout.startYear...(layout.startYear + layout.yearCount - 1) }
    /// `2019-12-29 12:43 EST`: when the file was made.
    public var lastModified: String { layout.lastModified }
    public var version: String { layout.version }

    /// The file's own equilibrium argument (V0 + u, degrees) and node factor of constituent `index` for `year`, nil
    /// outside the years it covers.
    public func yearTable(constituent index: Int, year: Int) -> (argument: Double, nodeFactor: Double)? {
        guard years.contains(year), index >= 0, index < layout.constituentCount else { return nil }
        let cell = index * layout.yearCount + year - layout.startYear
        do {
            var bits = TideBits(bytes, byte: layout.equilibriumsOffset, end: layout.nodeFactorsOffset)
            bits.seek(bit: layout.equilibriumsOffset * 8 + cell * layout["EQUILIBRIUM BITS"])
            let argument = Double(try bits.unsigned(layout["EQUILIBRIUM BITS"]))
            var node = TideBits(bytes, byte: layout.nodeFactorsOffset, end: layout.recordsOffset)
            node.seek(bit: layout.nodeFactorsOffset * 8 + cell * layout["NODE BITS"])
            let factor = Double(try node.unsigned(layout["NODE BITS"]))
            return (
                (argument + Double(layout["EQUILIBRIUM OFFSET"])) / Double(layout["EQUILIBRIUM SCALE"]),
                (factor + Double(layout["NODE OFFSET"])) / Double(layout["NODE SCALE"])
            )
        } catch {
            return nil
        }
    }

    /// The string at `index` of a table of fixed-size strings.
    func tableString(_ offset: Int, index: Int, sizeKey: String) -> String {
        let size = layout[sizeKey]
        return Self.string(bytes, at: offset + index * size, size: size)
    }

    static func string(_ bytes: GridBytes, at offset: Int, size: Int) -> String {
        var characters: [UInt8] = []
        var index = offset
        while index < offset + size, index < bytes.count {
            let byte = bytes.uint8(at: index)
            if byte == 0 { break }
            characters.append(byte)
            index += 1
        }
        return Latin1.string(characters)
    }
}
