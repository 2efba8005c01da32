import Marine
import NMEA

/// One GRIB message of a file, as the import reads its keys through ecCodes: which of the forecast's fields it is,
/// on what grid, for what time, from which model run, and how its values become the grid's units.
struct GRIBMessage {
    /// What the message holds, and how to turn it into a ``ForecastField``.
    enum Role: Equatable {
        case field(ForecastField)
        /// Precipitation accumulated from `start` (UNIX seconds) to the valid time, in kg/m² (mm) once scaled.
        case accumulated(start: Int64)
        /// Precipitation as a rate, mm/h once scaled.
        case rate
    }

    /// The grid, normalised: row 0 south, column 0 west; how the message's own scanning differs.
    struct Geometry: Equatable {
        var columns: Int
        var rows: Int
        var south: Double
        var west: Double
        var rowStep: Double
        var columnStep: Double
        /// The message's rows run north to south, its columns east to west, or it holds columns, not rows.
        var northFirst: Bool
        var eastFirst: Bool
        var columnsFirst: Bool

        /// The same grid to a millionth of a degree.
        func sameGrid(as other: Geometry) -> Bool {
            let westDifference = abs(Angle.direction(west) - Angle.direction(other.west))
            return columns == other.columns && rows == other.rows && abs(south - other.south) < 1e-6
                && (westDifference < 1e-6 || westDifference > 360 - 1e-6) && abs(rowStep - other.rowStep) < 1e-6
                && abs(columnStep - other.columnStep) < 1e-6
        }

        /// The message's values (in its scanning order) in the grid's order.
        func normalised(_ values: [Double]) -> [Double] {
            var out = [Double](repeating: .nan, count: rows * columns)
            for row in 0..<rows {
                let sourceRow = northFirst ? rows - 1 - row : row
                for column in 0..<columns {
                    let sourceColumn = eastFirst ? columns - 1 - column : column
                    let index = columnsFirst ? sourceColumn * rows + sourceRow : sourceRow * columns + sourceColumn
                    out[row * columns + column] = values[index]
                }
            }
            return out
        }
    }

    var shortName: String
    var role: Role
    var geometry: Geometry
    /// UNIX seconds: the run's analysis time and the time the values are valid for.
    var run: Int64
    var valid: Int64
    /// Multiply the message's values by this for the grid's units.
    var scale: Double
    /// Where the message is in the file.
    var bytes: Range<Int>
    /// The centre that made it (`kwbc` NCEP, `ecmf` ECMWF...).
    var centre: String

    var field: ForecastField {
        switch role {
        case .field(let field): field
        case .accumulated, .rate: .precipitation
        }
    }

    /// Why a message is left out of the import.
    enum Skip: Error, Equatable {
        /// Not a field a boat uses here (temperature, waves...).
        case unused(String)
        /// A grid the import does not read (rotated, Lambert, Gaussian), by its ecCodes name.
        case grid(String)
        /// ecCodes could not read it, or its keys say something impossible.
        case unreadable(String)
    }

    /// The message's role, grid, times and scale from its keys.
    static func read(_ codes: ECCodes, _ handle: ECCodes.Handle, bytes: Range<Int>) throws(Skip) -> GRIBMessage {
        var shortName = codes.string(handle, "shortName") ?? "unknown"
        // NCEP's GRIB1 gust (table 2 version 2, number 180) has no short name in ecCodes' tables.
        if shortName == "unknown", codes.long(handle, "edition") == 1, codes.string(handle, "centre") == "kwbc",
            codes.long(handle, "indicatorOfParameter") == 180
        {
            shortName = "gust"
        }
        let level = codes.string(handle, "typeOfLevel") ?? ""
        let units = codes.string(handle, "units") ?? ""
        let stepType = codes.string(handle, "stepType") ?? "instant"
        guard
            let role = role(shortName: shortName, level: level, height: codes.long(handle, "level"), stepType: stepType)
        else { throw .unused(shortName) }
        let gridType = codes.string(handle, "gridType") ?? "unknown"
        guard gridType == "regular_ll" else { throw .grid(gridType) }
        guard let columns = codes.long(handle, "Ni"), let rows = codes.long(handle, "Nj"), columns >= 2, rows >= 2,
            columns <= 20_000, rows <= 20_000,
            let firstLatitude = codes.double(handle, "latitudeOfFirstGridPointInDegrees"),
            let lastLatitude = codes.double(handle, "latitudeOfLastGridPointInDegrees"),
            let firstLongitude = codes.double(handle, "longitudeOfFirstGridPointInDegrees"),
            let lastLongitude = codes.double(handle, "longitudeOfLastGridPointInDegrees"),
            abs(firstLatitude) <= 90, abs(lastLatitude) <= 90
        else { throw .unreadable("\(shortName): no grid") }
        let eastFirst = codes.long(handle, "iScansNegatively") == 1
        let northFirst = codes.long(handle, "jScansPositively") != 1
        let columnsFirst = codes.long(handle, "jPointsAreConsecutive") == 1
        // The steps from the corners (the increments may be missing, or rounded to a thousandth of a degree).
        let rowStep = abs(lastLatitude - firstLatitude) / Double(rows - 1)
        let westmost = eastFirst ? lastLongitude : firstLongitude
        let eastmost = eastFirst ? firstLongitude : lastLongitude
        var span = (eastmost - westmost).truncatingRemainder(dividingBy: 360)
        if span <= 0 { span += 360 }
        let columnStep = span / Double(columns - 1)
        guard rowStep > 0, columnStep > 0 else { throw .unreadable("\(shortName): a grid of no size") }
        let geometry = Geometry(
            columns: columns, rows: rows, south: min(firstLatitude, lastLatitude),
            west: westmost >= 180 ? westmost - 360 : westmost, rowStep: rowStep,
            columnStep: columnStep, northFirst: northFirst, eastFirst: eastFirst, columnsFirst: columnsFirst)
        guard stepIsReadable(codes, handle) else { throw .unreadable("\(shortName): an impossible forecast step") }
        guard let run = unixTime(date: codes.long(handle, "dataDate"), time: codes.long(handle, "dataTime")),
            let valid = unixTime(date: codes.long(handle, "validityDate"), time: codes.long(handle, "validityTime"))
        else { throw .unreadable("\(shortName): no date") }
        // A forecast is for after its run (the analysis at it), and not years after.
        guard valid >= run, valid - run <= Int64(Self.longestForecast) else {
            throw .unreadable("\(shortName): impossible dates")
        }
        var finalRole = role
        if case .accumulated = role {
            guard let start = codes.long(handle, "startStep"), let end = codes.long(handle, "endStep"), end >= start,
                let unit = stepSeconds(codes.long(handle, "stepUnits")), end - start <= Self.longestForecast / Int(unit)
            else { throw .unreadable("\(shortName): an accumulation without its steps") }
            finalRole = .accumulated(start: valid - Int64(end - start) * unit)
        }
        return GRIBMessage(
            shortName: shortName, role: finalRole, geometry: geometry, run: run, valid: valid,
            scale: scale(role: role, units: units), bytes: bytes, centre: codes.string(handle, "centre") ?? "")
    }

    /// Which field a message is, by the short name ecCodes gives it whatever the centre and edition, and its level.
    static func role(shortName: String, level: String, height: Int?, stepType: String) -> Role? {
        switch shortName {
        case "10u": return .field(.windEast)
        case "10v": return .field(.windNorth)
        case "u" where level == "heightAboveGround" && height == 10: return .field(.windEast)
        case "v" where level == "heightAboveGround" && height == 10: return .field(.windNorth)
        case "gust", "10fg", "i10fg", "fg10", "10fg3", "10fg6", "gust10": return .field(.gust)
        case "prmsl", "msl", "mslet": return .field(.pressure)
        case "tp": return stepType == "accum" ? .accumulated(start: 0) : nil
        case "prate": return .rate
        case "tcc":
            let levels = ["entireAtmosphere", "atmosphere", "atmosphereSingleLayer", "surface"]
            return levels.contains(level) ? .field(.cloud) : nil
        // The sea's current at (or within a few metres of) the surface: NCEP's RTOFS and GRIB1 names, ECMWF's.
        case "ucurr", "uogrd", "uoe", "ocu", "uo", "ssu":
            return isSurfaceOfSea(level, height) ? .field(.currentEast) : nil
        case "vcurr", "vogrd", "von", "ocv", "vo", "ssv":
            return isSurfaceOfSea(level, height) ? .field(.currentNorth) : nil
        default: return nil
        }
    }

    /// A current at the sea's surface or in its first 10 metres.
    static func isSurfaceOfSea(_ level: String, _ height: Int?) -> Bool {
        switch level {
        case "surface", "oceanSurface", "seaSurface", "sfc": return true
        case "depthBelowSea", "depthBelowSeaLayer", "oceanDepthBelowSeaLayer": return (height ?? 0) <= 10
        default: return level.isEmpty
        }
    }

    /// The factor to the grid's units: ECMWF's precipitation is in metres of water, a rate is per second, cloud may
    /// be a fraction.
    static func scale(role: Role, units: String) -> Double {
        switch role {
        case .accumulated: return units == "m" ? 1000 : 1
        case .rate: return 3600
        case .field(.cloud): return units == "%" ? 1 : 100
        case .field: return 1
        }
    }

    /// The furthest a forecast reaches from its run, in seconds: 400 days, past any real model's range.
    static let longestForecast = 400 * 86_400

    /// Seconds in one step of ecCodes' `stepUnits` code (minutes, hours, days, 3/6/12 hours, seconds, 15/30 min).
    static func stepSeconds(_ code: Int?) -> Int64? {
        switch code {
        case 0: 60
        case 1: 3600
        case 2: 86_400
        case 10: 10_800
        case 11: 21_600
        case 12: 43_200
        case 13: 1
        case 14: 900
        case 15: 1800
        default: nil
        }
    }

    /// Whether ecCodes can be asked when a message is valid. Debian's ecCodes (2.28) counts a GRIB 2 message's
    /// validity out one unit at a time: a unit of time it does not know (255, missing, in a damaged file) never ends,
    /// and two billion days take seconds. So the unit and the step are checked first. (GRIB 1's steps are a byte.)
    static func stepIsReadable(_ codes: ECCodes, _ handle: ECCodes.Handle) -> Bool {
        guard codes.long(handle, "edition") == 2 else { return true }
        guard let unit = stepSeconds(codes.long(handle, "indicatorOfUnitOfTimeRange")) else { return false }
        guard let step = codes.long(handle, "forecastTime") else { return true }
        let limit = Self.longestForecast / Int(unit)
        return step >= -limit && step <= limit
    }

    /// UNIX seconds of a GRIB date (YYYYMMDD) and time (HHMM).
    static func unixTime(date: Int?, time: Int?) -> Int64? {
        guard let date, let time, date >= 1900_01_01, date <= 2999_12_31, time >= 0, time < 2400, time % 100 < 60
        else { return nil }
        let day = UTCDate(year: date / 10_000, month: date / 100 % 100, day: date % 100)
        guard (1...12).contains(day.month), (1...31).contains(day.day) else { return nil }
        return Int64(day.daysSinceEpoch) * 86_400 + Int64(time / 100 * 3600 + time % 100 * 60)
    }

    /// Where each GRIB message is in `bytes`: from its "GRIB" to its "7777", by the length its edition gives;
    /// anything between messages (a mail's headers, padding) is stepped over.
    static func split(_ bytes: [UInt8]) -> [Range<Int>] {
        var messages: [Range<Int>] = []
        var index = 0
        while index + 16 <= bytes.count {
            guard bytes[index] == 0x47, bytes[index + 1] == 0x52, bytes[index + 2] == 0x49, bytes[index + 3] == 0x42
            else {
                index += 1
                continue
            }
            var length = 0
            switch bytes[index + 7] {
            case 1: length = Int(bytes[index + 4]) << 16 | Int(bytes[index + 5]) << 8 | Int(bytes[index + 6])
            case 2:
                var total: UInt64 = 0
                for offset in 8..<16 { total = total << 8 | UInt64(bytes[index + offset]) }
                length = total <= UInt64(bytes.count) ? Int(total) : 0
            default: break
            }
            let end = index + length
            if length >= 16, end <= bytes.count, bytes[end - 4] == 0x37, bytes[end - 3] == 0x37,
                bytes[end - 2] == 0x37, bytes[end - 1] == 0x37
            {
                messages.append(index..<end)
                index = end
            } else {
                index += 4
            }
        }
        return messages
    }
}
