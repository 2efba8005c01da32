/// A two-character talker identifier (`GP`, `II`, `WI`, or a numeric `02` from an NMEA 2000 converter).
public struct Talker: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let first: UInt8
    public let second: UInt8

    public init(_ first: UInt8, _ second: UInt8) {
        self.first = first
        self.second = second
    }

    /// Creates a talker from two printable characters; nil for anything else.
    public init?(_ text: String) {
        // Walks the UTF-8 view directly: a literal talker must not cost an allocation on a tick path.
        var iterator = text.utf8.makeIterator()
        guard let first = iterator.next(), let second = iterator.next(), iterator.next() == nil,
            Address.isAddressByte(first), Address.isAddressByte(second)
        else { return nil }
        self.init(first, second)
    }

    public init(stringLiteral value: String) {
        guard let talker = Talker(value) else { preconditionFailure("invalid talker literal \(value)") }
        self = talker
    }

    public var description: String { String(decoding: [first, second], as: UTF8.self) }
}

/// The three-character sentence formatter (`RMC`, `MWV`, ...), packed into an integer for fast comparison.
public struct Formatter: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: UInt32

    public init(_ a: UInt8, _ b: UInt8, _ c: UInt8) {
        rawValue = UInt32(a) << 16 | UInt32(b) << 8 | UInt32(c)
    }

    public init(stringLiteral value: String) {
        var iterator = value.utf8.makeIterator()
        guard let a = iterator.next(), let b = iterator.next(), let c = iterator.next(), iterator.next() == nil else {
            preconditionFailure("a formatter has three characters")
        }
        self.init(a, b, c)
    }

    public var description: String {
        String(
            decoding: [
                UInt8(truncatingIfNeeded: rawValue >> 16), UInt8(truncatingIfNeeded: rawValue >> 8),
                UInt8(truncatingIfNeeded: rawValue),
            ], as: UTF8.self)
    }
}

/// The address field of a sentence: the characters between the start character and the first comma.
///
/// Standard addresses are a talker and a formatter (`GPRMC`, `02MWV`); query sentences have `Q` as the fifth
/// character (`CCGPQ`); proprietary addresses are `P` followed by a maker mnemonic and any type (`PGRME`,
/// `PSKPDPT`). Stored inline, at most ``maximumLength`` characters.
public struct Address: Hashable, Sendable, CustomStringConvertible {
    /// The longest address accepted (proprietary addresses are often longer than five characters).
    public static let maximumLength = 16

    public enum Kind: Hashable, Sendable {
        case standard
        case query
        case proprietary
    }

    let high: UInt64
    let low: UInt64
    public let count: Int

    /// Parses an address from bytes; nil when it is not a valid address.
    public init?(bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>) {
        let length = range.count
        guard length >= 2, length <= Address.maximumLength else { return nil }
        guard length == 5 || bytes[range.lowerBound] == UInt8(ascii: "P") else { return nil }
        if length == 5 {
            // Nearly every sentence: talker and formatter, five bytes packed without the loop.
            let start = range.lowerBound
            let a = bytes[start]
            let b = bytes[start &+ 1]
            let c = bytes[start &+ 2]
            let d = bytes[start &+ 3]
            let e = bytes[start &+ 4]
            guard Address.isAddressByte(a), Address.isAddressByte(b), Address.isAddressByte(c),
                Address.isAddressByte(d), Address.isAddressByte(e)
            else { return nil }
            high = UInt64(a) << 56 | UInt64(b) << 48 | UInt64(c) << 40 | UInt64(d) << 32 | UInt64(e) << 24
            low = 0
            count = 5
            return
        }
        var high: UInt64 = 0
        var low: UInt64 = 0
        var offset = 0
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = bytes[index]
            guard Address.isAddressByte(byte) else { return nil }
            if offset < 8 {
                high |= UInt64(byte) &<< (56 &- 8 &* UInt64(offset))
            } else {
                low |= UInt64(byte) &<< (56 &- 8 &* UInt64(offset &- 8))
            }
            offset &+= 1
            index &+= 1
        }
        self.high = high
        self.low = low
        self.count = length
    }

    /// Creates a standard address from a talker and a formatter.
    public init(talker: Talker, formatter: Formatter) {
        let packed =
            UInt64(talker.first) << 56 | UInt64(talker.second) << 48 | UInt64(formatter.rawValue) << 24
        self.high = packed
        self.low = 0
        self.count = 5
    }

    /// Parses an address from text, for tests and configuration.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard
            let address = bytes.withUnsafeBufferPointer({ buffer in
                Address(bytes: buffer, range: 0..<buffer.count)
            })
        else { return nil }
        self = address
    }

    public subscript(offset: Int) -> UInt8 {
        offset < 8
            ? UInt8(truncatingIfNeeded: high >> (56 - 8 * UInt64(offset)))
            : UInt8(truncatingIfNeeded: low >> (56 - 8 * UInt64(offset - 8)))
    }

    public var kind: Kind {
        if self[0] == UInt8(ascii: "P") { return .proprietary }
        if count == 5 && self[4] == UInt8(ascii: "Q") { return .query }
        return .standard
    }

    /// The talker: for a query, the requesting talker; nil for proprietary sentences.
    public var talker: Talker? { kind == .proprietary ? nil : Talker(self[0], self[1]) }

    /// The formatter of a standard sentence; nil for queries and proprietary sentences.
    public var formatter: Formatter? { kind == .standard ? Formatter(self[2], self[3], self[4]) : nil }

    /// For a query sentence, the talker that is asked.
    public var queriedTalker: Talker? { kind == .query ? Talker(self[2], self[3]) : nil }

    public var description: String { String(decoding: (0..<count).map { self[$0] }, as: UTF8.self) }

    /// Upper-case letters and digits: everything an address may contain.
    public static func isAddressByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }
}
