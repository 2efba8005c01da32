/// Writes a ``ForecastGrid`` file: the importer fills it field by field and time by time, then takes the bytes.
public struct ForecastGridWriter: Sendable {
    public let columns: Int
    public let rows: Int
    public let south: Double
    public let west: Double
    public let rowStep: Double
    public let columnStep: Double
    public let runTime: Int64
    public let times: [Int64]
    public let fields: [ForecastField]
    public let label: String
    private var data: [Int16]
    /// Values refused because the atmosphere cannot hold them (a broken file), and points left without a value.
    public private(set) var refused = 0

    /// A grid of `rows` × `columns` points from (`south`, `west`) in steps of `rowStep` and `columnStep` degrees,
    /// every point missing until set. `times` must increase.
    public init(
        columns: Int, rows: Int, south: Double, west: Double, rowStep: Double, columnStep: Double, runTime: Int64,
        times: [Int64], fields: [ForecastField], label: String
    ) {
        self.columns = columns
        self.rows = rows
        self.south = south
        self.west = west
        self.rowStep = rowStep
        self.columnStep = columnStep
        self.runTime = runTime
        self.times = times
        self.fields = fields
        var label = Array(label.utf8.prefix(255))
        // Never a UTF-8 sequence cut in half.
        while let last = label.last, last & 0xC0 == 0x80 || last >= 0xC0 { label.removeLast() }
        self.label = String(decoding: label, as: UTF8.self)
        data = Array(repeating: ForecastGrid.missing, count: times.count * fields.count * rows * columns)
    }

    /// Sets `field` at time index `time` from `values`, row by row from the south, each row west to east
    /// (`rows` × `columns` of them). NaN is a point without a value (a GRIB bitmap's); an infinite or impossible
    /// value is left missing too, and counted in ``refused``.
    public mutating func set(_ field: ForecastField, time: Int, values: [Double]) {
        guard let fieldIndex = fields.firstIndex(of: field), time >= 0, time < times.count,
            values.count == rows * columns
        else { return }
        let partnerIndex = field.partner.flatMap { fields.firstIndex(of: $0) }
        for (point, value) in values.enumerated() where !value.isNaN {
            let index = (point * times.count + time) * fields.count + fieldIndex
            guard let stored = field.stored(value) else {
                refused += 1
                continue
            }
            // A vector beyond what it can be (two components each in range): both left missing.
            if let partnerIndex, let partner = field.partner,
                let other = partner.value(data[index - fieldIndex + partnerIndex]), !field.holds(value, other)
            {
                data[index - fieldIndex + partnerIndex] = ForecastGrid.missing
                refused += 1
                continue
            }
            data[index] = stored
        }
    }

    /// The file.
    public func bytes() -> [UInt8] {
        var out: [UInt8] = []
        let labelBytes = Array(label.utf8)
        let timesOffset = ForecastGrid.align8(ForecastGrid.fixedHeader + fields.count + labelBytes.count)
        let headerLength = timesOffset + 8 * times.count
        out.reserveCapacity(headerLength + 2 * data.count)
        func append16(_ v: UInt16) {
            out.append(UInt8(v & 0xFF))
            out.append(UInt8(v >> 8))
        }
        func append32(_ v: UInt32) {
            for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8((v >> shift) & 0xFF)) }
        }
        func append64(_ v: UInt64) {
            for shift in stride(from: 0, to: 64, by: 8) { out.append(UInt8((v >> shift) & 0xFF)) }
        }
        out.append(contentsOf: ForecastGrid.magic)
        append16(ForecastGrid.version)
        append16(UInt16(headerLength))
        append32(UInt32(columns))
        append32(UInt32(rows))
        append32(UInt32(times.count))
        out.append(UInt8(fields.count))
        out.append(UInt8(labelBytes.count))
        append16(0)
        for value in [south, west, rowStep, columnStep] { append64(value.bitPattern) }
        append64(UInt64(bitPattern: runTime))
        for field in fields { out.append(field.rawValue) }
        out.append(contentsOf: labelBytes)
        while out.count < timesOffset { out.append(0) }
        for time in times { append64(UInt64(bitPattern: time)) }
        for value in data { append16(UInt16(bitPattern: value)) }
        return out
    }
}
