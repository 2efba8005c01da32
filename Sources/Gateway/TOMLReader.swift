/// The TOML a configuration file needs, read without Foundation: comments, `[tables]` (dotted too),
/// `[[arrays of tables]]`, `key = value` (bare, quoted or dotted keys), basic and literal strings, integers and
/// floats (with `_`, signs, exponents, `inf`, `nan`), booleans, arrays (over several lines, trailing comma allowed)
/// and inline tables. Dates and multi-line strings are refused with the line. Every key keeps its line, so that
/// errors can name it.
///
/// (TOMLKit did this before and is the project's chosen library, but it imports Foundation's calendar and with it
/// ICU: about 12 MB of resident memory in the static build, against a 16 MB budget for the whole gateway.)
public enum TOMLValue: Sendable {
    case string(String)
    case integer(Int)
    case float(Double)
    case boolean(Bool)
    case array([TOMLValue])
    case table(TOMLTable)

    public var string: String? { if case .string(let v) = self { v } else { nil } }
    public var int: Int? { if case .integer(let v) = self { v } else { nil } }
    public var double: Double? {
        switch self {
        case .float(let v): v
        default: nil
        }
    }
    public var bool: Bool? { if case .boolean(let v) = self { v } else { nil } }
    public var array: [TOMLValue]? { if case .array(let v) = self { v } else { nil } }
    public var table: TOMLTable? { if case .table(let v) = self { v } else { nil } }
}

/// A table: keys in the order written, each with its value and line.
public struct TOMLTable: Sendable {
    public private(set) var keys: [String] = []
    private var values: [String: (value: TOMLValue, line: Int)] = [:]

    public init() {}

    public subscript(key: String) -> TOMLValue? { values[key]?.value }

    /// The line a key was written on.
    public func line(of key: String) -> Int? { values[key]?.line }

    mutating func set(_ key: String, _ value: TOMLValue, line: Int) {
        if values[key] == nil { keys.append(key) }
        values[key] = (value, line)
    }
}

public struct TOMLError: Error, Sendable, CustomStringConvertible {
    public var line: Int
    public var message: String
    public var description: String { "line \(line): \(message)" }
}

/// Parses TOML text into its root table.
public struct TOMLReader {
    private let bytes: [UInt8]
    private var position = 0
    private var line = 1

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

    private mutating func value() throws(TOMLError) -> TOMLValue {
        guard let byte = peek() else { throw fail("a value is missing") }
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            return .string(try quotedString())
        case UInt8(ascii: "["):
            position += 1
            var elements: [TOMLValue] = []
            while true {
                skipSpaceAndComments(newlines: true)
                if take(UInt8(ascii: "]")) { return .array(elements) }
                elements.append(try value())
                skipSpaceAndComments(newlines: true)
                if take(UInt8(ascii: ",")) { continue }
                guard take(UInt8(ascii: "]")) else { throw fail("expected , or ] in an array") }
                return .array(elements)
            }
        case UInt8(ascii: "{"):
            position += 1
            var table = TOMLTable()
            skipSpace()
            if take(UInt8(ascii: "}")) { return .table(table) }
            while true {
                skipSpace()
                let keyLine = line
                let path = try keyPath()
                skipSpace()
                guard take(UInt8(ascii: "=")) else { throw fail("expected = in an inline table") }
                skipSpace()
                let element = try value()
                guard path.count == 1, table[path[0]] == nil else {
                    throw fail("inline tables take plain keys, once each")
                }
                table.set(path[0], element, line: keyLine)
                skipSpace()
                if take(UInt8(ascii: ",")) { continue }
                guard take(UInt8(ascii: "}")) else { throw fail("expected , or } in an inline table") }
                return .table(table)
            }
        default:
            var word: [UInt8] = []
            while let b = peek(), b != UInt8(ascii: ","), b != UInt8(ascii: "]"), b != UInt8(ascii: "}"),
                b != UInt8(ascii: "#"), b != 0x0A, b != 0x0D, b != 0x20, b != 0x09
            {
                word.append(b)
                position += 1
            }
            let text = String(decoding: word, as: UTF8.self)
            if text == "true" { return .boolean(true) }
            if text == "false" { return .boolean(false) }
            let plain = text.filter { $0 != "_" }
            if let integer = Int(plain), !plain.contains(".") { return .integer(integer) }
            if plain.hasPrefix("0x"), let integer = Int(plain.dropFirst(2), radix: 16) { return .integer(integer) }
            switch plain {
            case "inf", "+inf": return .float(.infinity)
            case "-inf": return .float(-.infinity)
            case "nan", "+nan", "-nan": return .float(.nan)
            default: break
            }
            if let float = Double(plain), plain.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) {
                return .float(float)
            }
            if text.isEmpty { throw fail("a value is missing") }
            if text.contains("-") && text.contains(":") || text.count >= 10 && text.dropFirst(4).first == "-" {
                throw fail("dates are not used in a Telltale configuration")
            }
            throw fail("\(text) is not a value (strings are quoted)")
        }
    }

    private mutating func quotedString() throws(TOMLError) -> String {
        let quote = bytes[position]
        if peek(1) == quote && peek(2) == quote {
            throw fail("multi-line strings are not used in a Telltale configuration")
        }
        position += 1
        var out: [UInt8] = []
        while let byte = peek() {
            position += 1
            if byte == quote { return String(decoding: out, as: UTF8.self) }
            if byte == 0x0A { break }
            if byte == UInt8(ascii: "\\") && quote == UInt8(ascii: "\"") {
                guard let escape = peek() else { break }
                position += 1
                switch escape {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(escape)
                case UInt8(ascii: "u"), UInt8(ascii: "U"):
                    let count = escape == UInt8(ascii: "u") ? 4 : 8
                    guard position + count <= bytes.count,
                        let code = UInt32(
                            String(decoding: bytes[position..<(position + count)], as: UTF8.self), radix: 16),
                        let scalar = Unicode.Scalar(code)
                    else { throw fail("a bad \\u escape") }
                    out.append(contentsOf: Array(String(Character(scalar)).utf8))
                    position += count
                default: throw fail("an unknown escape \\\(String(Unicode.Scalar(escape)))")
                }
                continue
            }
            out.append(byte)
        }
        throw fail("a string is not closed on its line")
    }

    private mutating func keyPath() throws(TOMLError) -> [String] {
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
        }
    }

    // MARK: Scanning

    private func peek(_ offset: Int = 0) -> UInt8? {
        position + offset < bytes.count ? bytes[position + offset] : nil
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard peek() == byte else { return false }
        position += 1
        return true
    }

    private mutating func skipSpace() {
        while let b = peek(), b == 0x20 || b == 0x09 { position += 1 }
    }

    private mutating func skipSpaceAndComments(newlines: Bool) {
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
    private mutating func endOfLine() throws(TOMLError) {
        skipSpace()
        if peek() == UInt8(ascii: "#") { while let c = peek(), c != 0x0A { position += 1 } }
        if peek() == 0x0D { position += 1 }
        guard let b = peek() else { return }
        guard b == 0x0A else { throw fail("unexpected text after a value (one key = value per line)") }
    }

    private func fail(_ message: String) -> TOMLError { TOMLError(line: line, message: message) }
}
