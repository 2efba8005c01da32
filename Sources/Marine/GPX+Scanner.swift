/// The scanner under the reader: elements, attributes, text, comments, CDATA, entities, with their line numbers.
extension GPX {
    struct Token {
        enum Kind {
            case open(String, [String: String], selfClosing: Bool)
            case close(String)
            case text(String)
        }

        var kind: Kind
        var line: Int
    }

    struct Scanner {
        let bytes: [UInt8]
        var index = 0
        var line = 1

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
            // A UTF-8 byte-order mark.
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        }

        mutating func next() throws(ParseError) -> Token? {
            guard index < bytes.count else { return nil }
            let startLine = line
            if bytes[index] != UInt8(ascii: "<") {
                var text: [UInt8] = []
                while index < bytes.count && bytes[index] != UInt8(ascii: "<") {
                    text.append(advance())
                }
                return Token(kind: .text(try decodeEntities(text, line: startLine)), line: startLine)
            }
            if matches("<!--") {
                guard skip(past: "-->") else { throw ParseError(line: startLine, message: "a comment is never closed") }
                return try next()
            }
            if matches("<![CDATA[") {
                index += 9
                var text: [UInt8] = []
                while index < bytes.count && !matches("]]>") { text.append(advance()) }
                guard matches("]]>") else { throw ParseError(line: startLine, message: "CDATA is never closed") }
                index += 3
                return Token(kind: .text(String(decoding: text, as: UTF8.self)), line: startLine)
            }
            if matches("<?") || matches("<!") {
                guard skip(past: ">") else {
                    throw ParseError(line: startLine, message: "a declaration is never closed")
                }
                return try next()
            }
            _ = advance()  // "<"
            let closing = peek() == UInt8(ascii: "/")
            if closing { _ = advance() }
            let name = readName()
            guard !name.isEmpty else { throw ParseError(line: startLine, message: "a tag without a name") }
            if closing {
                skipSpace()
                guard peek() == UInt8(ascii: ">") else {
                    throw ParseError(line: startLine, message: "</\(name) is not closed with >")
                }
                _ = advance()
                return Token(kind: .close(name), line: startLine)
            }
            var attributes: [String: String] = [:]
            while true {
                skipSpace()
                guard let byte = peek() else {
                    throw ParseError(line: startLine, message: "<\(name) is never closed")
                }
                if byte == UInt8(ascii: "/") {
                    _ = advance()
                    guard peek() == UInt8(ascii: ">") else {
                        throw ParseError(line: line, message: "expected > after / in <\(name)>")
                    }
                    _ = advance()
                    return Token(kind: .open(name, attributes, selfClosing: true), line: startLine)
                }
                if byte == UInt8(ascii: ">") {
                    _ = advance()
                    return Token(kind: .open(name, attributes, selfClosing: false), line: startLine)
                }
                let attribute = readName()
                guard !attribute.isEmpty else {
                    throw ParseError(line: line, message: "unexpected character in <\(name)>")
                }
                skipSpace()
                guard peek() == UInt8(ascii: "=") else {
                    throw ParseError(line: line, message: "attribute \(attribute) of <\(name)> has no value")
                }
                _ = advance()
                skipSpace()
                guard let quote = peek(), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
                    throw ParseError(line: line, message: "attribute \(attribute) of <\(name)> is not quoted")
                }
                _ = advance()
                var value: [UInt8] = []
                while let byte = peek(), byte != quote { value.append(advance()) }
                guard peek() == quote else {
                    throw ParseError(line: line, message: "attribute \(attribute) of <\(name)> is never closed")
                }
                _ = advance()
                attributes[attribute] = try decodeEntities(value, line: line)
            }
        }

        func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func advance() -> UInt8 {
            let byte = bytes[index]
            index += 1
            if byte == 0x0A { line += 1 }
            return byte
        }

        func matches(_ text: StaticString) -> Bool {
            text.withUTF8Buffer { pattern in
                index + pattern.count <= bytes.count && zip(pattern, bytes[index...]).allSatisfy { $0 == $1 }
            }
        }

        mutating func skip(past text: StaticString) -> Bool {
            while index < bytes.count {
                if matches(text) {
                    index += text.utf8CodeUnitCount
                    return true
                }
                _ = advance()
            }
            return false
        }

        mutating func skipSpace() {
            while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { _ = advance() }
        }

        mutating func readName() -> String {
            var name: [UInt8] = []
            while let byte = peek(),
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                    || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: ":")
                    || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            {
                name.append(advance())
            }
            return String(decoding: name, as: UTF8.self)
        }

        func decodeEntities(_ bytes: [UInt8], line: Int) throws(ParseError) -> String {
            guard bytes.contains(UInt8(ascii: "&")) else { return String(decoding: bytes, as: UTF8.self) }
            var out: [UInt8] = []
            var i = 0
            while i < bytes.count {
                guard bytes[i] == UInt8(ascii: "&") else {
                    out.append(bytes[i])
                    i += 1
                    continue
                }
                guard let end = bytes[i...].firstIndex(of: UInt8(ascii: ";")), end - i <= 10 else {
                    throw ParseError(line: line, message: "an & that does not start an entity")
                }
                let entity = String(decoding: bytes[(i + 1)..<end], as: UTF8.self)
                switch entity {
                case "amp": out.append(UInt8(ascii: "&"))
                case "lt": out.append(UInt8(ascii: "<"))
                case "gt": out.append(UInt8(ascii: ">"))
                case "quot": out.append(UInt8(ascii: "\""))
                case "apos": out.append(UInt8(ascii: "'"))
                default:
                    if entity.hasPrefix("#"),
                        let code = UInt32(
                            entity.dropFirst().hasPrefix("x")
                                ? String(entity.dropFirst(2)) : String(entity.dropFirst()),
                            radix: entity.dropFirst().hasPrefix("x") ? 16 : 10), let scalar = Unicode.Scalar(code)
                    {
                        out.append(contentsOf: Array(String(Character(scalar)).utf8))
                    } else {
                        throw ParseError(line: line, message: "unknown entity &\(entity);")
                    }
                }
                i = end + 1
            }
            return String(decoding: out, as: UTF8.self)
        }
    }
}
