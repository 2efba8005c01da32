/// An AIS message's bits, put together from its fragments' six-bit payload characters (ITU-R M.1371 §8.2).
///
/// Fields are read by their first bit and width; a field past the end of the message reads as nil, so a short
/// message (class B units and old transponders send fewer bits than the table says) never traps and never reads
/// bytes that were not sent.
public struct AISBits: Hashable, Sendable {
    /// The six-bit values in order.
    public private(set) var sixBits: [UInt8]
    /// How many bits carry the message (six a character, less the fill bits of the last fragment).
    public private(set) var count: Int

    public init(sixBits: [UInt8], fillBits: Int) {
        self.sixBits = sixBits
        count = max(0, sixBits.count * 6 - fillBits)
    }

    /// Bits `start ..< start + width` as an unsigned number (`width` at most 32); nil past the end.
    public func unsigned(_ start: Int, _ width: Int) -> UInt32? {
        guard width > 0, width <= 32, start >= 0, start + width <= count else { return nil }
        var value: UInt32 = 0
        for bit in start..<(start + width) {
            let six = sixBits[bit / 6]
            value = value << 1 | UInt32((six >> (5 - UInt8(bit % 6))) & 1)
        }
        return value
    }

    public func int(_ start: Int, _ width: Int) -> Int? { unsigned(start, width).map { Int($0) } }

    /// Two's complement.
    public func signed(_ start: Int, _ width: Int) -> Int? {
        guard let raw = unsigned(start, width) else { return nil }
        let value = Int(raw)
        return value >= 1 << (width - 1) ? value - (1 << width) : value
    }

    /// `characters` six-bit characters of text (`@` is padding: the text ends there; the spaces around it dropped); nil
    /// when none of it was sent. As much as was sent when the message ends inside the field.
    public func text(_ start: Int, characters: Int) -> String? {
        var bytes: [UInt8] = []
        var bit = start
        for _ in 0..<characters {
            guard let value = unsigned(bit, 6) else { break }
            if value == 0 { break }
            bytes.append(UInt8(value < 32 ? value + 64 : value))
            bit += 6
        }
        while bytes.last == UInt8(ascii: " ") { bytes.removeLast() }
        let start = bytes.firstIndex { $0 != UInt8(ascii: " ") } ?? bytes.endIndex
        return start == bytes.endIndex ? nil : String(decoding: bytes[start...], as: UTF8.self)
    }
}
