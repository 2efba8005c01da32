/// Reads a message's fields by their layouts, counting the values a sender marked out of range (they come out as nil,
/// like those it marked "not available", and the count says how many there were).
public struct N2KReader: Sendable {
    public let payload: N2KPayload
    /// Fields whose code said "out of range" or "reserved".
    public private(set) var outOfRange = 0

    public init(_ payload: N2KPayload) { self.payload = payload }

    /// A field's value, scaled; nil when not available or out of range (counted).
    public mutating func value(_ field: N2KField, at base: Int = 0) -> Double? {
        switch field.read(payload, at: base) {
        case .value(let value): return value
        case .unavailable: return nil
        case .outOfRange:
            outOfRange += 1
            return nil
        }
    }

    /// A field as a whole number (a lookup's code, an id), nil when not available.
    public func integer(_ field: N2KField, at base: Int = 0) -> Int? { field.integer(payload, at: base) }

    /// The text of a fixed-length string field (`bytes` long at byte `offset`): ASCII, padding (0, 0xFF, `@`) and
    /// trailing spaces left off.
    public func fixedString(at offset: Int, bytes: Int) -> String? {
        guard offset + bytes <= payload.count else { return nil }
        var text: [UInt8] = []
        for index in offset..<(offset + bytes) {
            let byte = payload[index]
            if byte == 0 || byte == 0xFF || byte == UInt8(ascii: "@") { break }
            text.append(byte >= 32 && byte < 127 ? byte : UInt8(ascii: "?"))
        }
        while text.last == UInt8(ascii: " ") { text.removeLast() }
        return String(decoding: text, as: UTF8.self)
    }

    /// A length-and-encoding string (STRING_LAU) at byte `offset`: its text and the byte after it; nil when it runs
    /// past the message or says an impossible length.
    public func lauString(at offset: Int) -> (text: String, next: Int)? {
        guard offset + 2 <= payload.count else { return nil }
        let length = Int(payload[offset])
        guard length >= 2, offset + length <= payload.count else { return nil }
        let encoding = payload[offset + 1]
        var text: [UInt8] = []
        if encoding == 0 {
            // UTF-16 little endian: the ASCII of it kept.
            var index = offset + 2
            while index + 1 < offset + length {
                let unit = UInt16(payload[index]) | UInt16(payload[index + 1]) << 8
                if unit == 0 { break }
                text.append(unit < 127 && unit >= 32 ? UInt8(unit) : UInt8(ascii: "?"))
                index += 2
            }
        } else {
            for index in (offset + 2)..<(offset + length) {
                let byte = payload[index]
                if byte == 0 || byte == 0xFF { break }
                text.append(byte >= 32 && byte < 127 ? byte : UInt8(ascii: "?"))
            }
        }
        return (String(decoding: text, as: UTF8.self), offset + length)
    }
}

extension N2KWriter {
    /// A fixed-length string field: ASCII, padded with `@` as the AIS fields and most senders pad.
    public mutating func putFixed(_ text: String, at offset: Int, bytes count: Int, pad: UInt8 = UInt8(ascii: "@")) {
        var out = Array(text.utf8.prefix(count)).map { $0 >= 32 && $0 < 127 ? $0 : UInt8(ascii: "?") }
        while out.count < count { out.append(pad) }
        put(bytes: out, at: offset)
    }

    /// A length-and-encoding string (STRING_LAU), ASCII, at byte `offset`; the byte after it.
    @discardableResult
    public mutating func putLAU(_ text: String, at offset: Int) -> Int {
        let body = Array(text.utf8.prefix(70)).map { $0 >= 32 && $0 < 127 ? $0 : UInt8(ascii: "?") }
        put(bytes: [UInt8(body.count + 2), 1] + body, at: offset)
        return offset + body.count + 2
    }
}
