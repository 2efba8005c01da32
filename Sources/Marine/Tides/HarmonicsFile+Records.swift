/// The station records: walked from the first for a search (a few fields each), read whole for a station.
extension HarmonicsFile {
    /// A station as a search sees it: its number, where its record is, whether it is a reference, its position and
    /// (when asked for) its name.
    public struct Entry: Sendable {
        public let number: Int
        let offset: Int
        public let isReference: Bool
        public let latitude: Double
        public let longitude: Double
        public let name: String
        /// The station's identifier in its source (NOAA's `8443970`, `PUG1717_35`); "" when names are not read.
        public let stationID: String
    }

    /// Every station, in the file's order; names read only when `names` (the on-board search needs positions alone).
    public func entries(names: Bool = true) throws(FormatError) -> [Entry] {
        var out: [Entry] = []
        out.reserveCapacity(layout.recordCount)
        try walk { (number, offset, size) throws(FormatError) in
            var bits = TideBits(bytes, byte: offset, end: offset + size)
            _ = try bits.unsigned(layout["RECORD SIZE BITS"])
            let type = try bits.unsigned(layout["RECORD TYPE BITS"])
            let (latitude, longitude) = try position(&bits)
            var name = ""
            var identifier = ""
            if names {
                _ = try bits.unsigned(layout["TZFILE BITS"])
                name = try bits.text(limit: 200)
                _ = try bits.signed(layout["STATION BITS"])
                _ = try bits.unsigned(layout["COUNTRY BITS"])
                _ = try bits.text()  // source
                _ = try bits.unsigned(layout["RESTRICTION BITS"])
                _ = try bits.text()  // comments
                _ = try bits.text()  // notes
                _ = try bits.unsigned(layout["LEGALESE BITS"])
                _ = try bits.text()  // the identifier's context
                identifier = try bits.text(limit: 200)
            }
            out.append(
                Entry(
                    number: number, offset: offset, isReference: type == 1, latitude: latitude,
                    longitude: longitude, name: name, stationID: identifier))
        }
        return out
    }

    /// The record numbered `number`, whole.
    public func record(_ number: Int) throws(FormatError) -> TideRecord {
        var found: (offset: Int, size: Int)?
        try walk(upTo: number) { (index, offset, size) throws(FormatError) in
            if index == number { found = (offset, size) }
        }
        guard let found else { throw .noRecord(number) }
        return try record(number: number, offset: found.offset, size: found.size)
    }

    /// The record of a search's entry, whole.
    public func record(_ entry: Entry) throws(FormatError) -> TideRecord {
        var bits = TideBits(bytes, byte: entry.offset, end: layout.end)
        let size = Int(try bits.unsigned(layout["RECORD SIZE BITS"]))
        return try record(number: entry.number, offset: entry.offset, size: size)
    }

    /// Calls `body` with each record's number, offset and size, to `last` (all of them by default).
    func walk(
        upTo last: Int? = nil, _ body: (Int, Int, Int) throws(FormatError) -> Void
    ) throws(FormatError) {
        var offset = layout.recordsOffset
        let count = min(layout.recordCount, (last ?? layout.recordCount - 1) + 1)
        for number in 0..<count {
            var bits = TideBits(bytes, byte: offset, end: layout.end)
            let size = Int(try bits.unsigned(layout["RECORD SIZE BITS"]))
            guard size >= 8, offset + size <= layout.end else { throw .badRecord("record \(number) of \(size) bytes") }
            try body(number, offset, size)
            offset += size
        }
    }

    func position(_ bits: inout TideBits) throws(FormatError) -> (Double, Double) {
        let latitude = Double(try bits.signed(layout["LATITUDE BITS"])) / Double(layout["LATITUDE SCALE"])
        let longitude = Double(try bits.signed(layout["LONGITUDE BITS"])) / Double(layout["LONGITUDE SCALE"])
        guard abs(latitude) <= 90, abs(longitude) <= 360 else {
            throw .badRecord("a station at \(latitude), \(longitude)")
        }
        return (latitude, longitude > 180 ? longitude - 360 : longitude)
    }

    func record(number: Int, offset: Int, size: Int) throws(FormatError) -> TideRecord {
        var bits = TideBits(bytes, byte: offset, end: offset + size)
        _ = try bits.unsigned(layout["RECORD SIZE BITS"])
        let type = try bits.unsigned(layout["RECORD TYPE BITS"])
        guard type == 1 || type == 2 else { throw .badRecord("record \(number) of type \(type)") }
        let (latitude, longitude) = try position(&bits)
        let timeZone = tableString(
            layout.timeZonesOffset, index: Int(try bits.unsigned(layout["TZFILE BITS"])), sizeKey: "TZFILE SIZE")
        let name = try bits.text(limit: 200)
        guard !name.isEmpty else { throw .badRecord("record \(number) has no name") }
        let reference = Int(try bits.signed(layout["STATION BITS"]))
        let country = tableString(
            layout.countriesOffset, index: Int(try bits.unsigned(layout["COUNTRY BITS"])), sizeKey: "COUNTRY SIZE")
        let source = try bits.text()
        _ = try bits.unsigned(layout["RESTRICTION BITS"])
        _ = try bits.text()  // comments
        let notes = try bits.text()
        _ = try bits.unsigned(layout["LEGALESE BITS"])
        _ = try bits.text()  // the station ID's context
        let stationID = try bits.text(limit: 200)
        _ = try bits.unsigned(layout["DATE BITS"])
        _ = try bits.text()  // extra fields
        let directionUnits = try units(
            &bits, bitsKey: "DIRECTION UNIT BITS", offset: layout.directionUnitsOffset,
            typesKey: "DIRECTION UNIT TYPES", sizeKey: "DIRECTION UNIT SIZE")
        let ebb = Int(try bits.unsigned(layout["DIRECTION BITS"]))
        let flood = Int(try bits.unsigned(layout["DIRECTION BITS"]))
        let levelUnits = try units(
            &bits, bitsKey: "LEVEL UNIT BITS", offset: layout.levelUnitsOffset,
            typesKey: "LEVEL UNIT TYPES", sizeKey: "LEVEL UNIT SIZE")
        let kind: TideRecord.Kind
        if type == 1 {
            kind = .reference(try constants(&bits, number: number))
        } else {
            guard reference >= 0, reference < layout.recordCount, reference != number else {
                throw .badRecord("subordinate station \(number) refers to record \(reference)")
            }
            kind = .subordinate(reference: reference, try offsets(&bits))
        }
        return TideRecord(
            number: number, name: name, latitude: latitude, longitude: longitude, timeZone: timeZone,
            country: country, source: source, notes: notes, stationID: stationID, levelUnits: levelUnits,
            ebbDirection: ebb < 360 ? ebb : nil, floodDirection: flood < 360 ? flood : nil,
            directionUnits: directionUnits, kind: kind)
    }

    func units(
        _ bits: inout TideBits, bitsKey: String, offset: Int, typesKey: String, sizeKey: String
    ) throws(FormatError) -> String {
        let index = Int(try bits.unsigned(layout[bitsKey]))
        guard index < layout[typesKey] else { throw .badRecord("units \(index) of \(layout[typesKey])") }
        return tableString(offset, index: index, sizeKey: sizeKey)
    }

    func constants(_ bits: inout TideBits, number: Int) throws(FormatError) -> TideRecord.Constants {
        let datumOffset = Double(try bits.signed(layout["DATUM OFFSET BITS"])) / Double(layout["DATUM OFFSET SCALE"])
        let datum = tableString(
            layout.datumsOffset, index: Int(try bits.unsigned(layout["DATUM BITS"])), sizeKey: "DATUM SIZE")
        let zone = Int(try bits.signed(layout["TIME BITS"]))
        _ = try bits.unsigned(layout["DATE BITS"])  // expiration
        _ = try bits.unsigned(layout["MONTHS ON STATION BITS"])
        _ = try bits.unsigned(layout["DATE BITS"])  // last date on station
        _ = try bits.unsigned(layout["CONFIDENCE VALUE BITS"])
        let count = Int(try bits.unsigned(layout["CONSTITUENT BITS"]))
        var constituents: [(index: Int, amplitude: Double, epoch: Double)] = []
        for _ in 0..<count {
            let index = Int(try bits.unsigned(layout["CONSTITUENT BITS"]))
            let amplitude = Double(try bits.unsigned(layout["AMPLITUDE BITS"])) / Double(layout["AMPLITUDE SCALE"])
            let epoch = Double(try bits.unsigned(layout["EPOCH BITS"])) / Double(layout["EPOCH SCALE"])
            guard index < layout.constituentCount, epoch <= 360 else {
                throw .badRecord("station \(number): constituent \(index), epoch \(epoch)")
            }
            if amplitude > 0 { constituents.append((index, amplitude, epoch)) }
        }
        guard !constituents.isEmpty, abs(zone) <= 2400, datumOffset.isFinite else {
            throw .badRecord("station \(number) has no constants")
        }
        return TideRecord.Constants(
            datumOffset: datumOffset, datum: datum, zoneOffset: zone, constituents: constituents)
    }

    func offsets(_ bits: inout TideBits) throws(FormatError) -> TideRecord.Offsets {
        func side() throws(FormatError) -> (Int, Double, Double) {
            let time = Int(try bits.signed(layout["TIME BITS"]))
            let add = Double(try bits.signed(layout["LEVEL ADD BITS"])) / Double(layout["LEVEL ADD SCALE"])
            let multiply =
                Double(try bits.unsigned(layout["LEVEL MULTIPLY BITS"])) / Double(layout["LEVEL MULTIPLY SCALE"])
            guard abs(time) < 10_000 else { throw .badRecord("a time offset of \(time)") }
            return (time, add, multiply > 0 ? multiply : 1)
        }
        let low = try side()
        let high = try side()
        let flood = Int(try bits.signed(layout["TIME BITS"]))
        let ebb = Int(try bits.signed(layout["TIME BITS"]))
        return TideRecord.Offsets(
            minTimeAdd: low.0, minLevelAdd: low.1, minLevelMultiply: low.2, maxTimeAdd: high.0, maxLevelAdd: high.1,
            maxLevelMultiply: high.2, floodBegins: flood == Self.noSlackOffset ? nil : flood,
            ebbBegins: ebb == Self.noSlackOffset ? nil : ebb)
    }

    /// libtcd's "no offset" for when flood or ebb begins (0xA00); zero is an offset.
    static let noSlackOffset = 0xA00
}
