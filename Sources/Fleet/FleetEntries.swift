/// One boat entered in the fleet file: who it is to the race office, its class and its handicap.
public struct FleetEntry: Sendable, Equatable {
    /// The boat's id on the brokers (`[uplink] boat`).
    public var boat: String
    public var name = ""
    public var sail = ""
    /// Class or division; boats are filtered, started and placed by it.
    public var group = ""
    /// A CSS colour for the boat on the chart (`#rgb`, `#rrggbb` or a colour's name), nil for the panel's own.
    public var colour: String?
    /// IRC time correction coefficient: corrected = elapsed × TCC.
    public var tcc: Double?
    /// Portsmouth Yardstick number: corrected = elapsed × 1000 / PY.
    public var py: Double?

    public init(boat: String) { self.boat = boat }

    /// The corrected time of an elapsed time (seconds): by TCC when the boat has one, else by PY, else the elapsed
    /// time itself (a one-design class).
    public func corrected(_ elapsed: Double) -> Double {
        if let tcc { return elapsed * tcc }
        if let py { return elapsed * 1000 / py }
        return elapsed
    }

    /// The rating as the results print it: "TCC 1.012", "PY 1099", or "".
    public var rating: String {
        if let tcc { return "TCC " + FleetExport.fixed(tcc, 3) }
        if let py { return "PY " + FleetExport.fixed(py, 0) }
        return ""
    }
}

/// The race office's fleet file: CSV as a spreadsheet or Sailwave writes it, a header line naming the columns (in any
/// order, any case; others ignored): `boat` (or `id`: the boat's id on the brokers, required), `name`, `sail` (or
/// `sail number`, `sailno`), `class` (or `division`), `colour` (or `color`), `tcc` (or `irc`), `py`.
///
/// A line that cannot be an entry (no id, an id that is not a boat's, a rating out of range, a colour that is not
/// one, a boat twice) is left out and said, with its line number; the rest is taken.
public enum FleetEntries {
    public static let maximumEntries = 10_000

    public static func parse(_ text: String) -> (entries: [FleetEntry], problems: [String]) {
        var problems: [String] = []
        var entries: [FleetEntry] = []
        var seen: Set<String> = []
        let rows = csv(text)
        guard let header = rows.first?.fields else { return ([], ["the fleet file is empty"]) }
        var columns: [String: Int] = [:]
        let names: [String: String] = [
            "boat": "boat", "id": "boat", "name": "name", "sail": "sail", "sail number": "sail", "sailno": "sail",
            "class": "class", "division": "class", "colour": "colour", "color": "colour", "tcc": "tcc", "irc": "tcc",
            "py": "py",
        ]
        for (index, field) in header.enumerated() {
            if let name = names[lowercased(trimmed(field))], columns[name] == nil { columns[name] = index }
        }
        guard columns["boat"] != nil else {
            return ([], ["the fleet file's first line must name its columns, one of them boat (the boat's id)"])
        }
        for row in rows.dropFirst() {
            func field(_ name: String) -> String {
                guard let index = columns[name], index < row.fields.count else { return "" }
                return trimmed(row.fields[index])
            }
            if row.fields.allSatisfy({ trimmed($0).isEmpty }) { continue }
            let id = field("boat")
            guard FleetModel.isValidBoat(id) else {
                problems.append("line \(row.line): \"\(id.prefix(40))\" is not a boat's id")
                continue
            }
            guard !seen.contains(id) else {
                problems.append("line \(row.line): \(id) is entered twice")
                continue
            }
            guard entries.count < maximumEntries else {
                problems.append("line \(row.line): more than \(maximumEntries) boats")
                break
            }
            var entry = FleetEntry(boat: id)
            entry.name = String(field("name").prefix(80))
            entry.sail = String(field("sail").prefix(20))
            entry.group = String(field("class").prefix(40))
            let colour = field("colour")
            if !colour.isEmpty {
                guard isColour(colour) else {
                    problems.append(
                        "line \(row.line): \"\(colour.prefix(20))\" is not a colour (#rgb, #rrggbb, a name)")
                    continue
                }
                entry.colour = colour
            }
            // A rating: empty (none), or a number in its range; anything else leaves the line out.
            func rating(_ name: String, _ label: String, _ range: ClosedRange<Double>) -> Double?? {
                let text = field(name)
                if text.isEmpty { return .some(nil) }
                guard let value = Double(text), range.contains(value) else {
                    problems.append(
                        "line \(row.line): \(label) \"\(text.prefix(20))\" is not between "
                            + "\(FleetExport.fixed(range.lowerBound, range.lowerBound < 1 ? 1 : 0)) and "
                            + "\(FleetExport.fixed(range.upperBound, 0))")
                    return nil
                }
                return .some(value)
            }
            guard let tcc = rating("tcc", "TCC", 0.3...3), let py = rating("py", "PY", 300...3000) else { continue }
            entry.tcc = tcc
            entry.py = py
            seen.insert(id)
            entries.append(entry)
        }
        return (entries, problems)
    }

    /// `#rgb`, `#rrggbb`, or a colour's name in letters: nothing that could leave a style attribute.
    static func isColour(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        func hex(_ b: UInt8) -> Bool { (b >= 48 && b <= 57) || (b >= 65 && b <= 70) || (b >= 97 && b <= 102) }
        if bytes.first == UInt8(ascii: "#") {
            return (bytes.count == 4 || bytes.count == 7) && bytes.dropFirst().allSatisfy(hex)
        }
        return bytes.count <= 20 && bytes.allSatisfy { ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) }
    }

    static func trimmed(_ text: String) -> String {
        var bytes = Substring(text)
        while let first = bytes.first, first == " " || first == "\t" { bytes = bytes.dropFirst() }
        while let last = bytes.last, last == " " || last == "\t" { bytes = bytes.dropLast() }
        return String(bytes)
    }

    static func lowercased(_ text: String) -> String {
        String(decoding: text.utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self)
    }

    /// CSV rows (RFC 4180: commas or semicolons, quoted fields with doubled quotes, CRLF or LF), each with the line it
    /// starts on.
    static func csv(_ text: String) -> [(line: Int, fields: [String])] {
        var rows: [(line: Int, fields: [String])] = []
        var fields: [String] = []
        var field: [UInt8] = []
        var quoted = false
        var line = 1
        var rowLine = 1
        var bytes = Array(text.utf8)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        // The separator: a spreadsheet set for a decimal comma writes semicolons.
        let firstLine = bytes.prefix { $0 != 10 }
        let separator: UInt8 =
            firstLine.filter({ $0 == UInt8(ascii: ";") }).count > firstLine.filter({ $0 == UInt8(ascii: ",") }).count
            ? UInt8(ascii: ";") : UInt8(ascii: ",")
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\"") {
                        field.append(byte)
                        index += 1
                    } else {
                        quoted = false
                    }
                } else {
                    if byte == 10 { line += 1 }
                    field.append(byte)
                }
            } else if byte == UInt8(ascii: "\"") && field.isEmpty {
                quoted = true
            } else if byte == separator {
                fields.append(String(decoding: field, as: UTF8.self))
                field = []
            } else if byte == 10 {
                fields.append(String(decoding: field, as: UTF8.self))
                rows.append((rowLine, fields))
                fields = []
                field = []
                line += 1
                rowLine = line
            } else if byte != 13 {
                field.append(byte)
            }
            index += 1
        }
        if !field.isEmpty || !fields.isEmpty {
            fields.append(String(decoding: field, as: UTF8.self))
            rows.append((rowLine, fields))
        }
        return rows
    }
}
