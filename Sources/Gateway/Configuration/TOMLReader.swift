/// The TOML a configuration file needs, read without Foundation: comments, `[tables]` (dotted too),
/// `[[arrays of tables]]`, `key = value` (bare, quoted or dotted keys), basic and literal strings, integers and
/// floats (with `_`, signs, exponents, `inf`, `nan`), booleans, arrays (over several lines, trailing comma allowed)
/// and inline tables. Dates and multi-line strings are refused with the line. Every key keeps its line, so that
/// errors can name it.
///
/// (TOMLKit did this before and is the project's chosen library, but it imports Foundation's calendar and with it
/// ICU: about 12 MB of resident memory in the static build, against a 16 MB budget for the whole gateway.)
///
/// Parses TOML text into its root table.
public struct TOMLReader {
    let bytes: [UInt8]
    var position = 0
    var line = 1
    /// How many arrays and inline tables the value being read is within; at most ``maximumNesting``, as the parts of
    /// a dotted key.
    var nesting = 0
    static let maximumNesting = 32

    public static func parse(_ text: String) throws(TOMLError) -> TOMLTable {
        var reader = TOMLReader(bytes: Array(text.utf8))
        return try reader.document()
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    // MARK: Document

    /// Where the current `[header]` points: a path of keys, and for `[[x]]` the index in the array.
    private mutating func document() throws(TOMLError) -> TOMLTable {
        var root = TOMLTable()
        var header: [String] = []
        var headerIsArray = false
        var definedTables: Set<String> = []
        while true {
            skipSpaceAndComments(newlines: true)
            guard let byte = peek() else { break }
            if byte == UInt8(ascii: "[") {
                let isArray = peek(1) == UInt8(ascii: "[")
                position += isArray ? 2 : 1
                skipSpace()
                let path = try keyPath()
                skipSpace()
                guard take(UInt8(ascii: "]")), !isArray || take(UInt8(ascii: "]")) else {
                    throw fail("a table header is not closed with \(isArray ? "]]" : "]")")
                }
                try endOfLine()
                let name = path.joined(separator: ".")
                if isArray {
                    try appendTable(to: &root, path, line: line)
                } else {
                    guard definedTables.insert(name).inserted else { throw fail("table [\(name)] is defined twice") }
                    try ensureTable(in: &root, path, line: line)
                }
                header = path
                headerIsArray = isArray
                continue
            }
            let keyLine = line
            let path = try keyPath()
            skipSpace()
            guard take(UInt8(ascii: "=")) else { throw fail("expected = after the key \(path.joined(separator: "."))") }
            skipSpace()
            let value = try self.value()
            try endOfLine()
            try assign(
                value, at: header + path, inArrayTable: headerIsArray ? header.count : nil, in: &root, line: keyLine)
        }
        return root
    }

    private mutating func assign(
        _ value: TOMLValue, at path: [String], inArrayTable depth: Int?, in root: inout TOMLTable, line keyLine: Int
    ) throws(TOMLError) {
        func insert(_ table: inout TOMLTable, _ rest: ArraySlice<String>, _ arrayDepth: Int?) throws(TOMLError) {
            let key = rest.first!
            if rest.count == 1 {
                guard table[key] == nil else {
                    throw TOMLError(line: keyLine, message: "the key \(path.joined(separator: ".")) is set twice")
                }
                table.set(key, value, line: keyLine)
                return
            }
            if arrayDepth == 1, case .array(var elements)? = table[key], case .table(var last)? = elements.last {
                try insert(&last, rest.dropFirst(), nil)
                elements[elements.count - 1] = .table(last)
                table.set(key, .array(elements), line: table.line(of: key) ?? keyLine)
                return
            }
            var child = table[key]?.table ?? TOMLTable()
            if table[key] != nil && table[key]?.table == nil {
                throw TOMLError(line: keyLine, message: "\(key) is not a table")
            }
            try insert(&child, rest.dropFirst(), arrayDepth.map { $0 - 1 })
            table.set(key, .table(child), line: table.line(of: key) ?? keyLine)
        }
        try insert(&root, path[...], depth)
    }

    private mutating func ensureTable(in root: inout TOMLTable, _ path: [String], line headerLine: Int)
        throws(TOMLError)
    {
        func make(_ table: inout TOMLTable, _ rest: ArraySlice<String>) throws(TOMLError) {
            guard let key = rest.first else { return }
            if case .array(var elements)? = table[key], case .table(var last)? = elements.last {
                try make(&last, rest.dropFirst())
                elements[elements.count - 1] = .table(last)
                table.set(key, .array(elements), line: table.line(of: key) ?? headerLine)
                return
            }
            if table[key] != nil && table[key]?.table == nil {
                throw TOMLError(line: headerLine, message: "\(key) is not a table")
            }
            var child = table[key]?.table ?? TOMLTable()
            try make(&child, rest.dropFirst())
            table.set(key, .table(child), line: table.line(of: key) ?? headerLine)
        }
        try make(&root, path[...])
    }

    private mutating func appendTable(to root: inout TOMLTable, _ path: [String], line headerLine: Int)
        throws(TOMLError)
    {
        func append(_ table: inout TOMLTable, _ rest: ArraySlice<String>) throws(TOMLError) {
            let key = rest.first!
            if rest.count == 1 {
                var elements = table[key]?.array ?? []
                if table[key] != nil && table[key]?.array == nil {
                    throw TOMLError(line: headerLine, message: "\(key) is not an array of tables")
                }
                elements.append(.table(TOMLTable()))
                table.set(key, .array(elements), line: table.line(of: key) ?? headerLine)
                return
            }
            var child = table[key]?.table ?? TOMLTable()
            try append(&child, rest.dropFirst())
            table.set(key, .table(child), line: table.line(of: key) ?? headerLine)
        }
        try append(&root, path[...])
    }

    // MARK: Values

    mutating func keyPath() throws(TOMLError) -> [String] {
        var path: [String] = []
        while true {
            skipSpace()
            if let byte = peek(), byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                path.append(try quotedString())
            } else {
                var key: [UInt8] = []
                while let b = peek(),
                    (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z"))
                        || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
                        || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "_")
                        || b == UInt8(ascii: "-")
                {
                    key.append(b)
                    position += 1
                }
                guard !key.isEmpty else { throw fail("a key is expected") }
                path.append(String(decoding: key, as: UTF8.self))
            }
            skipSpace()
            guard take(UInt8(ascii: ".")) else { return path }
            // Each part is a table within a table, made and read by calls within calls: thousands would run the
            // stack out.
            guard path.count < Self.maximumNesting else {
                throw fail("a dotted key has at most \(Self.maximumNesting) parts")
            }
        }
    }

    // MARK: Scanning

    func peek(_ offset: Int = 0) -> UInt8? {
        position + offset < bytes.count ? bytes[position + offset] : nil
    }

    mutating func take(_ byte: UInt8) -> Bool {
        guard peek() == byte else { return false }
        position += 1
        return true
    }

    mutating func skipSpace() {
        while let b = peek(), b == 0x20 || b == 0x09 { position += 1 }
    }

    mutating func skipSpaceAndComments(newlines: Bool) {
        while let b = peek() {
            if b == 0x20 || b == 0x09 || b == 0x0D {
                position += 1
            } else if b == 0x0A && newlines {
                position += 1
                line += 1
            } else if b == UInt8(ascii: "#") {
                while let c = peek(), c != 0x0A { position += 1 }
            } else {
                return
            }
        }
    }

    /// After a value or header: blanks, a comment, then the end of the line.
    mutating func endOfLine() throws(TOMLError) {
        skipSpace()
        if peek() == UInt8(ascii: "#") { while let c = peek(), c != 0x0A { position += 1 } }
        if peek() == 0x0D { position += 1 }
        guard let b = peek() else { return }
        guard b == 0x0A else { throw fail("unexpected text after a value (one key = value per line)") }
    }

    func fail(_ message: String) -> TOMLError { TOMLError(line: line, message: message) }
}
