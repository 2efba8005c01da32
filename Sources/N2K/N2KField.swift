/// One field of a PGN: where its bits are, how they scale, and the raw codes that are not a value (canboat's
/// database gives them: all ones is "not available", one less "out of range", one less again "reserved").
public struct N2KField: Sendable {
    public let offset: Int
    public let length: Int
    public let resolution: Double
    public let signed: Bool
    public let unknown: Int64?
    public let outOfRange: Int64?
    public let reserved: Int64?

    public init(
        offset: Int, length: Int, resolution: Double, signed: Bool, unknown: Int64?, outOfRange: Int64?,
        reserved: Int64?
    ) {
        self.offset = offset
        self.length = length
        self.resolution = resolution
        self.signed = signed
        self.unknown = unknown
        self.outOfRange = outOfRange
        self.reserved = reserved
    }

    /// What a field holds.
    public enum Reading: Equatable, Sendable {
        case value(Double)
        /// The sender says it has no value (all ones), or the message ended before the field.
        case unavailable
        /// The code for "out of range" or a reserved code: the sender has a value it cannot give.
        case outOfRange
    }

    /// The field's raw number in `payload` (sign-extended when signed); nil past the end.
    public func raw(_ payload: N2KPayload, at base: Int = 0) -> Int64? {
        guard let bits = payload.bits(base + offset, length) else { return nil }
        guard signed, length < 64, bits & (1 << UInt64(length - 1)) != 0 else { return Int64(bitPattern: bits) }
        return Int64(bitPattern: bits | (UInt64.max << UInt64(length)))
    }

    /// The field in `payload`, scaled; `base` shifts it (a repeated set's fields).
    public func read(_ payload: N2KPayload, at base: Int = 0) -> Reading {
        guard let raw = raw(payload, at: base) else { return .unavailable }
        if raw == unknown { return .unavailable }
        if raw == outOfRange || raw == reserved { return .outOfRange }
        return .value(Double(raw) * resolution)
    }

    /// The field's value, nil for "not available" and "out of range" alike.
    public func value(_ payload: N2KPayload, at base: Int = 0) -> Double? {
        if case .value(let value) = read(payload, at: base) { return value }
        return nil
    }

    /// The raw number as a whole number (a lookup, an id, an MMSI), nil for the codes that are not a value.
    public func integer(_ payload: N2KPayload, at base: Int = 0) -> Int? {
        guard let raw = raw(payload, at: base), raw != unknown, raw != outOfRange, raw != reserved else { return nil }
        // A 32-bit field past 2^31 (an MMSI of 0x90000000 from a broken node) does not fit a 32-bit Pi's `Int`.
        return Int(exactly: raw)
    }

    /// The largest raw number that is a value.
    var largest: Int64 {
        let top: Int64 =
            signed
            ? (length >= 64 ? Int64.max : (1 << Int64(length - 1)) - 1)
            : (length >= 63 ? Int64.max : (1 << Int64(length)) - 1)
        guard let code = reserved ?? outOfRange ?? unknown else { return top }
        return min(top, code &- 1)
    }

    var smallest: Int64 { signed ? (length >= 64 ? Int64.min : -(1 << Int64(length - 1))) : 0 }

    /// Writes `value` (scaled and rounded; nil as "not available"; a value outside what the field holds as "out of
    /// range", never wrapped).
    public func write(_ value: Double?, into writer: inout N2KWriter, at base: Int = 0) {
        guard let value, value.isFinite else { return writeRaw(unknown ?? -1, into: &writer, at: base) }
        let scaled = (value / resolution).rounded()
        guard scaled >= Double(smallest), scaled <= Double(largest) else {
            return writeRaw(outOfRange ?? unknown ?? -1, into: &writer, at: base)
        }
        writeRaw(Int64(scaled), into: &writer, at: base)
    }

    /// Writes a raw number as it is (a lookup's code, an id).
    public func writeRaw(_ raw: Int64, into writer: inout N2KWriter, at base: Int = 0) {
        let mask: UInt64 = length >= 64 ? .max : (1 << UInt64(length)) - 1
        writer.put(UInt64(bitPattern: raw) & mask, at: base + offset, length: length)
    }
}
extension N2KField {
    /// The same field at another bit offset (a field after a string, or in a repeated set).
    public func moved(to offset: Int) -> N2KField {
        N2KField(
            offset: offset, length: length, resolution: resolution, signed: signed, unknown: unknown,
            outOfRange: outOfRange, reserved: reserved)
    }
}
