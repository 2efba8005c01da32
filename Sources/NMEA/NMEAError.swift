/// Why a line was not accepted as a sentence. Every case carries the data a person needs to see what was wrong.
public enum FramingError: Error, Hashable, Sendable {
    /// Bytes that end a line without a `$` or `!` start character (a line without `$`, line noise, a comment).
    case noStartCharacter(length: Int)
    /// A sentence cut short: a new start character arrived before its line ended (a device unplugged mid-line).
    case truncated(length: Int)
    /// Longer than the configured maximum, counted with `$` and CR LF.
    case tooLong(length: Int)
    /// A byte that may not appear in a sentence: NUL, another control character, or an 8-bit byte.
    case invalidByte(UInt8, offset: Int)
    /// No `*hh` checksum, and the input requires one.
    case missingChecksum
    /// Something after `*` that is not one or two hexadecimal digits.
    case malformedChecksum
    /// The checksum does not match the bytes.
    case checksumMismatch(expected: UInt8, found: UInt8)
    /// The address field is not a talker and formatter, a query, or a proprietary address.
    case badAddress
    /// A tag block with a wrong or missing checksum, or one that cannot be read.
    case badTagBlock

    /// The counter this error is counted under.
    public var reason: RejectReason {
        switch self {
        case .noStartCharacter: .noStart
        case .truncated: .truncated
        case .tooLong: .tooLong
        case .invalidByte: .invalidByte
        case .missingChecksum: .missingChecksum
        case .malformedChecksum: .malformedChecksum
        case .checksumMismatch: .checksum
        case .badAddress: .badAddress
        case .badTagBlock: .tagBlock
        }
    }
}

/// Why a framed sentence could not be decoded into a typed value.
public enum DecodeError: Error, Hashable, Sendable {
    /// The sentence type has no typed decoder; it can still be passed through.
    case unsupported(Address)
    /// A field holds something that is not a value of its kind (`-1.-3` where a number belongs).
    case invalidField(index: Int)
    /// A field that the sentence cannot do without is empty or absent.
    case missingField(index: Int)
    /// A value that cannot be physically true (a wind of 99999 kn, a heading of 400°, a negative depth, `nan`),
    /// however valid the checksum.
    case implausible(Quantity)

    public var reason: RejectReason {
        switch self {
        case .unsupported: .unsupported
        case .invalidField: .invalidField
        case .missingField: .missingField
        case .implausible: .implausible
        }
    }
}

/// Why a sentence could not be encoded within the rules of the wire.
public enum EncodeError: Error, Hashable, Sendable {
    /// Even after shortening identifiers and dropping optional parts it would be longer than 82 bytes.
    case tooLong(length: Int)
}

/// The reasons rejects are counted under; `name` is the key in logs and in `telltale inspect --json`.
public enum RejectReason: Int, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    case checksum
    case missingChecksum
    case malformedChecksum
    case noStart
    case truncated
    case tooLong
    case invalidByte
    case badAddress
    case tagBlock
    case invalidField
    case missingField
    case unsupported
    case implausible

    public var name: String {
        switch self {
        case .checksum: "checksum"
        case .missingChecksum: "missing_checksum"
        case .malformedChecksum: "malformed_checksum"
        case .noStart: "no_start"
        case .truncated: "truncated"
        case .tooLong: "too_long"
        case .invalidByte: "invalid_byte"
        case .badAddress: "bad_address"
        case .tagBlock: "tag_block"
        case .invalidField: "invalid_field"
        case .missingField: "missing_field"
        case .unsupported: "unsupported"
        case .implausible: "implausible"
        }
    }

    public var description: String { name }
}

/// Counts per ``RejectReason``, without allocation.
public struct RejectCounts: Hashable, Sendable {
    private var counts = InlineArray<13, Int>(repeating: 0)

    public init() {}

    public subscript(reason: RejectReason) -> Int {
        get { counts[reason.rawValue] }
        set { counts[reason.rawValue] = newValue }
    }

    public mutating func record(_ reason: RejectReason) {
        counts[reason.rawValue] &+= 1
    }

    /// The sum over every reason.
    public var total: Int {
        var sum = 0
        for index in counts.indices { sum &+= counts[index] }
        return sum
    }

    public static func == (lhs: RejectCounts, rhs: RejectCounts) -> Bool {
        RejectReason.allCases.allSatisfy { lhs[$0] == rhs[$0] }
    }

    public func hash(into hasher: inout Hasher) {
        for reason in RejectReason.allCases { hasher.combine(self[reason]) }
    }
}
