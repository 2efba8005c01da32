/// A parsed JSON value: what clients send (subscribe and unsubscribe messages, PUT bodies), read with limits so that
/// nothing a client sends can make the gateway use unbounded memory or stack.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(value)
        case .number(let value): hasher.combine(value)
        case .string(let value): hasher.combine(value)
        case .array(let values): hasher.combine(values)
        case .object(let members):
            for (key, value) in members {
                hasher.combine(key)
                hasher.combine(value)
            }
        }
    }

    /// The member `key` of an object; nil for anything else or a missing key.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The number as a whole number (toward zero); nil when it is not a number or does not fit `Int` (1e300 from a
    /// hostile sender, or past 2^31 on a 32-bit Pi), where `Int(_:)` would trap.
    public var integer: Int? {
        guard case .number(let value) = self else { return nil }
        return Int(exactly: value.rounded(.towardZero))
    }

    public var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var array: [JSONValue]? {
        if case .array(let values) = self { return values }
        return nil
    }

    /// Parses one JSON text. Nil when it is not JSON, nests deeper than `maximumDepth`, or is longer than
    /// `maximumLength` bytes.
    public static func parse(_ bytes: some Collection<UInt8>, maximumDepth: Int = 16, maximumLength: Int = 65_536)
        -> JSONValue?
    {
        guard bytes.count <= maximumLength else { return nil }
        var parser = JSONParser(bytes: Array(bytes), maximumDepth: maximumDepth)
        guard let value = parser.value(depth: 0) else { return nil }
        parser.skipSpace()
        return parser.position == parser.bytes.count ? value : nil
    }

    public static func parse(_ text: String) -> JSONValue? { parse(Array(text.utf8)) }
}

/// A recursive-descent reader over bytes; every failure is nil.
private struct JSONParser {
    let bytes: [UInt8]
    let maximumDepth: Int
    var position = 0

    init(bytes: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    mutating func skipSpace() {
        while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
    }

    mutating func value(depth: Int) -> JSONValue? {
        guard depth <= maximumDepth else { return nil }
        skipSpace()
        guard position < bytes.count else { return nil }
        switch bytes[position] {
        case UInt8(ascii: "{"): return object(depth: depth)
        case UInt8(ascii: "["): return array(depth: depth)
        case UInt8(ascii: "\""): return string().map(JSONValue.string)
        case UInt8(ascii: "t"): return literal("true", .bool(true))
        case UInt8(ascii: "f"): return literal("false", .bool(false))
        case UInt8(ascii: "n"): return literal("null", .null)
        default: return number()
        }
    }

    private mutating func literal(_ text: StaticString, _ value: JSONValue) -> JSONValue? {
        let count = text.utf8CodeUnitCount
        guard position + count <= bytes.count else { return nil }
        for offset in 0..<count where bytes[position + offset] != text.utf8Start[offset] { return nil }
        position += count
        return value
    }

    private mutating func object(depth: Int) -> JSONValue? {
        position += 1
        var members: [(String, JSONValue)] = []
        skipSpace()
        if position < bytes.count && bytes[position] == UInt8(ascii: "}") {
            position += 1
            return .object(members)
        }
        while true {
            skipSpace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\""), let key = string() else { return nil }
            skipSpace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { return nil }
            position += 1
            guard let member = value(depth: depth + 1) else { return nil }
            members.append((key, member))
            skipSpace()
            guard position < bytes.count else { return nil }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
                continue
            }
            guard bytes[position] == UInt8(ascii: "}") else { return nil }
            position += 1
            return .object(members)
        }
    }

    private mutating func array(depth: Int) -> JSONValue? {
        position += 1
        var values: [JSONValue] = []
        skipSpace()
        if position < bytes.count && bytes[position] == UInt8(ascii: "]") {
            position += 1
            return .array(values)
        }
        while true {
            guard let element = value(depth: depth + 1) else { return nil }
            values.append(element)
            skipSpace()
            guard position < bytes.count else { return nil }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
                continue
            }
            guard bytes[position] == UInt8(ascii: "]") else { return nil }
            position += 1
            return .array(values)
        }
    }

    private mutating func hexDigit() -> UInt32? {
        guard position < bytes.count else { return nil }
        let byte = bytes[position]
        position += 1
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    mutating func string() -> String? {
        position += 1
        var scalars = String.UnicodeScalarView()
        var raw: [UInt8] = []
        func flush() {
            guard !raw.isEmpty else { return }
            scalars.append(contentsOf: String(decoding: raw, as: UTF8.self).unicodeScalars)
            raw.removeAll()
        }
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                flush()
                return String(scalars)
            case UInt8(ascii: "\\"):
                flush()
                guard position < bytes.count else { return nil }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var code: UInt32 = 0
                    for _ in 0..<4 {
                        guard let digit = hexDigit() else { return nil }
                        code = code << 4 | digit
                    }
                    // A lone or paired surrogate is not worth its complexity here: it becomes U+FFFD.
                    scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                default: return nil
                }
            default:
                guard byte >= 0x20 else { return nil }
                raw.append(byte)
            }
        }
        return nil
    }

    private mutating func number() -> JSONValue? {
        let start = position
        if position < bytes.count && bytes[position] == UInt8(ascii: "-") { position += 1 }
        var mantissa: Double = 0
        var digits = 0
        while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 {
            mantissa = mantissa * 10 + Double(bytes[position] - 0x30)
            digits += 1
            position += 1
        }
        guard digits > 0 else { return nil }
        var scale = 0
        if position < bytes.count && bytes[position] == UInt8(ascii: ".") {
            position += 1
            var fraction = 0
            while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 {
                if fraction < 17 {
                    mantissa = mantissa * 10 + Double(bytes[position] - 0x30)
                    scale -= 1
                }
                fraction += 1
                position += 1
            }
            guard fraction > 0 else { return nil }
        }
        if position < bytes.count && (bytes[position] | 0x20) == UInt8(ascii: "e") {
            position += 1
            var negative = false
            if position < bytes.count && (bytes[position] == UInt8(ascii: "-") || bytes[position] == UInt8(ascii: "+"))
            {
                negative = bytes[position] == UInt8(ascii: "-")
                position += 1
            }
            var exponent = 0
            var expDigits = 0
            while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 {
                exponent = min(exponent * 10 + Int(bytes[position] - 0x30), 1000)
                expDigits += 1
                position += 1
            }
            guard expDigits > 0 else { return nil }
            scale += negative ? -exponent : exponent
        }
        // The text read by the standard library when it can: correctly rounded, so a coordinate written back is the one
        // sent (the digit loop below can be an ulp off: 50.77 came back as 50.769999999999996).
        if position - start <= 64, let exact = Double(String(decoding: bytes[start..<position], as: UTF8.self)) {
            return .number(exact)
        }
        var value = mantissa
        if scale > 0 {
            for _ in 0..<min(scale, 400) { value *= 10 }
        } else if scale < 0 {
            for _ in 0..<min(-scale, 400) { value /= 10 }
        }
        if bytes[start] == UInt8(ascii: "-") { value = -value }
        return .number(value)
    }
}
