/// Values: strings, numbers, booleans, arrays and inline tables.
extension TOMLReader {
    mutating func value() throws(TOMLError) -> TOMLValue {
        guard let byte = peek() else { throw fail("a value is missing") }
        if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") {
            // Each array or inline table within another is a call within a call: a file nesting thousands deep
            // (broken, or sent to the settings page) would run the stack out, so it is refused here.
            guard nesting < Self.maximumNesting else {
                throw fail("arrays and inline tables nest at most \(Self.maximumNesting) deep")
            }
            nesting += 1
        }
        defer { if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") { nesting -= 1 } }
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

    mutating func quotedString() throws(TOMLError) -> String {
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
}
