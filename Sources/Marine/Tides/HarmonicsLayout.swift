/// How a harmonics file (libtcd's TCD, version 2) lays out its numbers: the ASCII header's `[KEY] = value` lines,
/// read once and checked, and where each table starts after it.
///
/// After the header (`[HEADER SIZE]` bytes) and four bytes: the strings of the level units and direction units
/// (each `TYPES × SIZE` bytes), of the restrictions, time zones, countries, datums and legaleses (each room for
/// `2^BITS` strings of `SIZE` bytes), and the constituents' names (`CONSTITUENTS × SIZE`); then, each starting on a
/// byte, the constituents' speeds, their equilibrium arguments and their node factors for every year, bit-packed;
/// then the station records, one after another, each starting with its size.
struct HarmonicsLayout: Sendable {
    let values: [String: Int]
    let recordCount: Int
    let startYear: Int
    let yearCount: Int
    let constituentCount: Int
    let levelUnitsOffset: Int
    let directionUnitsOffset: Int
    let datumsOffset: Int
    let timeZonesOffset: Int
    let countriesOffset: Int
    let namesOffset: Int
    let speedsOffset: Int
    let equilibriumsOffset: Int
    let nodeFactorsOffset: Int
    let recordsOffset: Int
    let end: Int
    let version: String
    let lastModified: String

    static let required = [
        "HEADER SIZE", "NUMBER OF RECORDS", "START YEAR", "NUMBER OF YEARS", "END OF FILE", "MAJOR REV",
        "SPEED BITS", "SPEED SCALE", "SPEED OFFSET", "EQUILIBRIUM BITS", "EQUILIBRIUM SCALE", "EQUILIBRIUM OFFSET",
        "NODE BITS", "NODE SCALE", "NODE OFFSET", "AMPLITUDE BITS", "AMPLITUDE SCALE", "EPOCH BITS", "EPOCH SCALE",
        "RECORD TYPE BITS", "LATITUDE BITS", "LATITUDE SCALE", "LONGITUDE BITS", "LONGITUDE SCALE", "RECORD SIZE BITS",
        "STATION BITS", "DATUM OFFSET BITS", "DATUM OFFSET SCALE", "DATE BITS", "MONTHS ON STATION BITS",
        "CONFIDENCE VALUE BITS", "TIME BITS", "LEVEL ADD BITS", "LEVEL ADD SCALE", "LEVEL MULTIPLY BITS",
        "LEVEL MULTIPLY SCALE", "DIRECTION BITS", "LEVEL UNIT BITS", "LEVEL UNIT TYPES", "LEVEL UNIT SIZE",
        "DIRECTION UNIT BITS", "DIRECTION UNIT TYPES", "DIRECTION UNIT SIZE", "RESTRICTION BITS", "RESTRICTION SIZE",
        "DATUM BITS", "DATUM SIZE", "LEGALESE BITS", "LEGALESE SIZE", "CONSTITUENT BITS", "CONSTITUENTS",
        "CONSTITUENT SIZE", "TZFILE BITS", "TZFILE SIZE", "COUNTRY BITS", "COUNTRY SIZE",
    ]

    init(_ bytes: GridBytes) throws(HarmonicsFile.FormatError) {
        guard bytes.count > 64, bytes.uint8(at: 0) == UInt8(ascii: "[") else { throw .notAHarmonicsFile }
        let (values, texts) = try Self.header(bytes)
        for key in Self.required where values[key] == nil { throw .badHeader("no [\(key)]") }
        func value(_ key: String) -> Int { values[key] ?? 0 }
        guard value("MAJOR REV") == 2 else { throw .badHeader("version \(value("MAJOR REV")) (libtcd 2 files only)") }
        for (key, number) in values where key.hasSuffix(" BITS") && !(1...32).contains(number) {
            throw .badHeader("[\(key)] = \(number)")
        }
        for (key, number) in values where key.hasSuffix(" SCALE") && number <= 0 { throw .badHeader("[\(key)] = 0") }
        // The string tables: room for 2^BITS strings of SIZE bytes each, kept small enough to add up on a 32-bit Pi.
        for table in [
            "LEVEL UNIT", "DIRECTION UNIT", "RESTRICTION", "TZFILE", "COUNTRY", "DATUM", "LEGALESE", "CONSTITUENT",
        ] {
            guard (values[table + " BITS"] ?? 0) <= 16, (1...1000).contains(values[table + " SIZE"] ?? 0) else {
                throw .badHeader("the \(table.lowercased()) table's [\(table) BITS] and [\(table) SIZE]")
            }
        }
        let headerSize = value("HEADER SIZE")
        let end = value("END OF FILE")
        guard headerSize >= 64, headerSize < bytes.count, end <= bytes.count, end > headerSize else {
            throw .badHeader("a header of \(headerSize) bytes in a file of \(bytes.count) ([END OF FILE] = \(end))")
        }
        let constituents = value("CONSTITUENTS")
        let years = value("NUMBER OF YEARS")
        guard value("LEVEL UNIT TYPES") >= 1, value("LEVEL UNIT TYPES") <= 1 << value("LEVEL UNIT BITS"),
            value("DIRECTION UNIT TYPES") >= 1, value("DIRECTION UNIT TYPES") <= 1 << value("DIRECTION UNIT BITS"),
            abs(value("START YEAR")) < 10_000
        else { throw .badHeader("the units tables' [TYPES]") }
        guard (1...255).contains(constituents), constituents <= 1 << value("CONSTITUENT BITS"),
            (1...1000).contains(years), (1...1_000_000).contains(value("NUMBER OF RECORDS"))
        else { throw .badHeader("\(constituents) constituents, \(years) years") }
        var offset = headerSize + 4
        func table(_ count: Int, _ size: Int) -> Int {
            defer { offset += count * size }
            return offset
        }
        levelUnitsOffset = table(value("LEVEL UNIT TYPES"), value("LEVEL UNIT SIZE"))
        directionUnitsOffset = table(value("DIRECTION UNIT TYPES"), value("DIRECTION UNIT SIZE"))
        _ = table(1 << value("RESTRICTION BITS"), value("RESTRICTION SIZE"))
        timeZonesOffset = table(1 << value("TZFILE BITS"), value("TZFILE SIZE"))
        countriesOffset = table(1 << value("COUNTRY BITS"), value("COUNTRY SIZE"))
        datumsOffset = table(1 << value("DATUM BITS"), value("DATUM SIZE"))
        _ = table(1 << value("LEGALESE BITS"), value("LEGALESE SIZE"))
        namesOffset = table(constituents, value("CONSTITUENT SIZE"))
        func bitTable(_ bits: Int) -> Int { table(1, (bits + 7) / 8) }
        speedsOffset = bitTable(constituents * value("SPEED BITS"))
        equilibriumsOffset = bitTable(constituents * years * value("EQUILIBRIUM BITS"))
        nodeFactorsOffset = bitTable(constituents * years * value("NODE BITS"))
        guard offset < end else { throw .badHeader("tables that run past the end of the file") }
        recordsOffset = offset
        self.values = values
        self.end = end
        recordCount = value("NUMBER OF RECORDS")
        startYear = value("START YEAR")
        yearCount = years
        constituentCount = constituents
        version = texts["VERSION"] ?? ""
        lastModified = texts["LAST MODIFIED"] ?? ""
    }

    subscript(key: String) -> Int { values[key] ?? 0 }

    /// The `[KEY] = value` lines before `[END OF ASCII HEADER DATA]`: the numbers, and the texts.
    static func header(_ bytes: GridBytes) throws(HarmonicsFile.FormatError) -> ([String: Int], [String: String]) {
        var numbers: [String: Int] = [:]
        var texts: [String: String] = [:]
        var line: [UInt8] = []
        var index = 0
        let limit = min(bytes.count, 65_536)
        while index < limit {
            let byte = bytes.uint8(at: index)
            index += 1
            guard byte != 0x0A else {
                let text = Latin1.string(line)
                line.removeAll(keepingCapacity: true)
                if text == "[END OF ASCII HEADER DATA]" { return (numbers, texts) }
                guard let close = text.firstIndex(of: "]"), text.hasPrefix("[") else { continue }
                let key = String(text[text.index(after: text.startIndex)..<close])
                let rest = text[text.index(after: close)...].drop { $0 == " " || $0 == "=" }
                texts[key] = String(rest)
                if let number = Int(String(rest)) { numbers[key] = number }
                continue
            }
            guard byte != 0, line.count < 200 else { throw .badHeader("a header line that does not end") }
            line.append(byte)
        }
        throw .badHeader("no [END OF ASCII HEADER DATA]")
    }
}
