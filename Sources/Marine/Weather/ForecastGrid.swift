/// One forecast on a regular latitude-longitude grid, as `telltale weather import` writes it from a GRIB file: the
/// few fields a boat uses (``ForecastField``), at each of its times, as 16-bit steps.
///
/// The file, little-endian:
///
///     0   "TTWX"   version u16 (1)   header length u16
///     8   columns u32   rows u32   times u32   fields u8   label length u8   0 u16
///     24  south latitude f64 (row 0)   west longitude f64 (column 0)   row step f64   column step f64 (degrees)
///     56  run time i64 (UNIX seconds)
///     64  field ids u8 × fields, the label (UTF-8), zeros to a multiple of 8, valid times i64 × times
///     header length: for each point (row 0 south, column 0 west, row by row), for each time, for each field: i16
///
/// A point's whole forecast lies together (41 times of 6 fields is under 500 bytes), so the meteogram at the boat,
/// read once a minute, touches a few pages of a mapped file, not one page per time and field.
///
/// Everything is checked when the file is opened (sizes against the length, the grid on the earth, times
/// increasing), so a broken file is refused with the reason and never read past its end.
public struct ForecastGrid: Sendable {
    /// The stored value of a point with no value.
    public static let missing = Int16.min
    static let magic: [UInt8] = [0x54, 0x54, 0x57, 0x58]  // "TTWX"
    static let version: UInt16 = 1
    static let fixedHeader = 64

    /// Why a file is not a forecast grid.
    public enum FormatError: Error, Hashable, Sendable, CustomStringConvertible {
        case notAGrid
        case unsupportedVersion(Int)
        case badHeader(String)
        case wrongLength(expected: Int64, found: Int)

        public var description: String {
            switch self {
            case .notAGrid: "not a Telltale forecast grid (no TTWX header)"
            case .unsupportedVersion(let v): "forecast grid version \(v), this build reads version 1"
            case .badHeader(let why): "broken forecast grid header: \(why)"
            case .wrongLength(let expected, let found): "forecast grid of \(found) bytes, its header says \(expected)"
            }
        }
    }

    public let columns: Int
    public let rows: Int
    /// Degrees: the southern row's latitude, the western column's longitude, and the steps between them.
    public let south: Double
    public let west: Double
    public let rowStep: Double
    public let columnStep: Double
    /// When the model run started (UNIX seconds): of two forecasts for the same place and time, the later run wins.
    public let runTime: Double
    /// Valid times, UNIX seconds, increasing.
    public let times: [Double]
    public let fields: [ForecastField]
    /// Where it came from, in a person's words (the GRIB file's name and the centre that made it).
    public let label: String
    /// The columns go all the way round the earth: the last joins the first.
    public let isGlobal: Bool
    let storage: GridBytes
    let dataOffset: Int
    /// For each field, where the other component of its vector lies among the fields (nil: a scalar, or not here).
    private let partners: [Int?]

    /// Reads the header of `bytes` and checks it against their length.
    public init(_ bytes: GridBytes) throws(FormatError) {
        guard bytes.count >= Self.fixedHeader, (0..<4).allSatisfy({ bytes.uint8(at: $0) == Self.magic[$0] }) else {
            throw .notAGrid
        }
        let version = bytes.uint16(at: 4)
        guard version == Self.version else { throw .unsupportedVersion(Int(version)) }
        let headerLength = Int(bytes.uint16(at: 6))
        // Read as 32 bits and held to 2^30 before they are Ints (a broken file's 2^31 or more is no Int on the Pi's
        // 32-bit build); the ranges below then refuse them.
        let columns = Int(min(bytes.uint32(at: 8), 1 << 30))
        let rows = Int(min(bytes.uint32(at: 12), 1 << 30))
        let timeCount = Int(min(bytes.uint32(at: 16), 1 << 30))
        let fieldCount = Int(bytes.uint8(at: 20))
        let labelLength = Int(bytes.uint8(at: 21))
        guard (2...20_000).contains(columns), (2...20_000).contains(rows), columns * rows <= 20_000_000 else {
            throw .badHeader("a grid of \(columns) × \(rows) points")
        }
        guard (1...4_000).contains(timeCount) else { throw .badHeader("\(timeCount) times") }
        guard (1...ForecastField.allCases.count).contains(fieldCount) else { throw .badHeader("\(fieldCount) fields") }
        let timesOffset = Self.align8(Self.fixedHeader + fieldCount + labelLength)
        guard headerLength == timesOffset + 8 * timeCount, headerLength <= bytes.count else {
            throw .badHeader("header length \(headerLength)")
        }
        let south = bytes.double(at: 24)
        let west = bytes.double(at: 32)
        let rowStep = bytes.double(at: 40)
        let columnStep = bytes.double(at: 48)
        guard south.isFinite, west.isFinite, rowStep.isFinite, columnStep.isFinite, rowStep > 0, columnStep > 0,
            south >= -90, south + Double(rows - 1) * rowStep <= 90 + 1e-6, west >= -360, west <= 360,
            Double(columns - 1) * columnStep <= 360 + 1e-6
        else { throw .badHeader("a grid that is not on the earth") }
        var fields: [ForecastField] = []
        for index in 0..<fieldCount {
            guard let field = ForecastField(rawValue: bytes.uint8(at: Self.fixedHeader + index)),
                !fields.contains(field)
            else { throw .badHeader("an unknown or repeated field") }
            fields.append(field)
        }
        var label: [UInt8] = []
        for index in 0..<labelLength { label.append(bytes.uint8(at: Self.fixedHeader + fieldCount + index)) }
        var times: [Double] = []
        times.reserveCapacity(timeCount)
        for index in 0..<timeCount {
            let time = Double(bytes.int64(at: timesOffset + 8 * index))
            guard time > 0, time < 32_503_680_000, times.last.map({ time > $0 }) ?? true else {
                throw .badHeader("valid times that do not increase")
            }
            times.append(time)
        }
        let runTime = Double(bytes.int64(at: 56))
        guard runTime > 0, runTime <= times[timeCount - 1] else { throw .badHeader("a run time after its forecast") }
        // In 64 bits: 4,000 times of 6 fields over 20 million points is past 2^31 bytes.
        let expected = Int64(headerLength) + Int64(timeCount * fieldCount) * Int64(rows * columns) * 2
        guard expected == Int64(bytes.count) else {
            throw .wrongLength(expected: expected, found: bytes.count)
        }
        self.columns = columns
        self.rows = rows
        self.south = south
        self.west = west
        self.rowStep = rowStep
        self.columnStep = columnStep
        self.runTime = runTime
        self.times = times
        self.fields = fields
        partners = fields.map { field in field.partner.flatMap { fields.firstIndex(of: $0) } }
        self.label = String(decoding: label, as: UTF8.self)
        self.isGlobal = abs(Double(columns) * columnStep - 360) < columnStep * 0.01
        storage = bytes
        dataOffset = headerLength
    }

    static func align8(_ n: Int) -> Int { (n + 7) / 8 * 8 }

    /// Degrees: the northern row's latitude and the eastern column's longitude.
    public var north: Double { south + Double(rows - 1) * rowStep }
    public var east: Double { west + Double(columns - 1) * columnStep }

    /// The stored value of `field` at time index `time`, row `row` (from the south), column `column` (from the
    /// west); nil when missing or the field is not in the file.
    public func value(_ field: ForecastField, time: Int, row: Int, column: Int) -> Double? {
        guard let fieldIndex = fields.firstIndex(of: field) else { return nil }
        return value(fieldIndex: fieldIndex, field: field, time: time, row: row, column: column)
    }

    /// A component of a vector (the wind, the current) whose vector is beyond what it can be reads as missing, its
    /// partner with it: a damaged cell of two components each in range is not a forecast either.
    func value(fieldIndex: Int, field: ForecastField, time: Int, row: Int, column: Int) -> Double? {
        let base = dataOffset + 2 * ((row * columns + column) * times.count + time) * fields.count
        guard let value = field.value(storage.int16(at: base + 2 * fieldIndex)) else { return nil }
        guard let partnerIndex = partners[fieldIndex],
            let other = fields[partnerIndex].value(storage.int16(at: base + 2 * partnerIndex))
        else { return value }
        return field.holds(value, other) ? value : nil
    }

    /// Where `point` falls in the grid: the cell's south-west corner and the fractions across it; nil outside.
    func cell(of point: GeoPoint) -> (row: Int, column: Int, nextColumn: Int, y: Double, x: Double)? {
        let y = (point.latitude - south) / rowStep
        guard y >= -1e-9, y <= Double(rows - 1) + 1e-9 else { return nil }
        var offset = (point.longitude - west).truncatingRemainder(dividingBy: 360)
        if offset < 0 { offset += 360 }
        var x = offset / columnStep
        if !isGlobal {
            if x > Double(columns - 1) + 1e-9 {
                // Just west of the grid's first column by less than the rounding of its edge.
                if 360 - offset < columnStep * 1e-9 { x = 0 } else { return nil }
            }
        }
        let row = min(max(Int(y.rounded(.down)), 0), rows - 2)
        var column = Int(x.rounded(.down))
        if isGlobal {
            column %= columns
        } else {
            column = min(max(column, 0), columns - 2)
        }
        let nextColumn = isGlobal ? (column + 1) % columns : column + 1
        return (row, column, nextColumn, min(max(y - Double(row), 0), 1), min(max(x - Double(column), 0), 1))
    }

    /// Whether the grid carries a field of the air, or the sea's current.
    public var hasWeather: Bool { fields.contains { !$0.isOcean } }
    public var hasOcean: Bool { fields.contains(.currentEast) && fields.contains(.currentNorth) }

    /// Whether `point` is inside the grid.
    public func covers(_ point: GeoPoint) -> Bool { cell(of: point) != nil }

    /// Whether `time` (UNIX seconds) is within the forecast's first and last valid times.
    public func covers(time: Double) -> Bool { time >= times[0] && time <= times[times.count - 1] }

    /// The forecast at `point` and `time` (UNIX seconds): bilinear between the four grid points around it, linear
    /// between the two times around it (wind as its east and north components, so that a veer passes through the
    /// directions between and not through calm); precipitation is the rate of the interval that holds `time`. Nil
    /// when the point or the time is outside the forecast.
    public func sample(at point: GeoPoint, time: Double) -> ForecastSample? {
        guard covers(time: time), let cell = cell(of: point) else { return nil }
        var after = 0
        while after < times.count - 1 && times[after] < time { after += 1 }
        let before = max(after - 1, 0)
        let span = times[after] - times[before]
        let weight = span > 0 ? (time - times[before]) / span : 0
        var sample = ForecastSample(time: time, runTime: runTime)
        for (index, field) in fields.enumerated() {
            let value: Double?
            if field == .precipitation {
                value = spatial(index, field, time: after, cell)
            } else if let a = spatial(index, field, time: before, cell),
                let b = spatial(index, field, time: after, cell)
            {
                value = a + (b - a) * weight
            } else {
                value =
                    weight < 0.5 ? spatial(index, field, time: before, cell) : spatial(index, field, time: after, cell)
            }
            sample.set(field, value)
        }
        return sample
    }

    private func spatial(
        _ index: Int, _ field: ForecastField, time: Int,
        _ cell: (row: Int, column: Int, nextColumn: Int, y: Double, x: Double)
    ) -> Double? {
        guard let sw = value(fieldIndex: index, field: field, time: time, row: cell.row, column: cell.column),
            let se = value(fieldIndex: index, field: field, time: time, row: cell.row, column: cell.nextColumn),
            let nw = value(fieldIndex: index, field: field, time: time, row: cell.row + 1, column: cell.column),
            let ne = value(fieldIndex: index, field: field, time: time, row: cell.row + 1, column: cell.nextColumn)
        else { return nil }
        let southEdge = sw + (se - sw) * cell.x
        let northEdge = nw + (ne - nw) * cell.x
        return southEdge + (northEdge - southEdge) * cell.y
    }
}
