/// VDM (and VDO, the own vessel's): one fragment of an AIS radio message, as a receiver or transponder hands it on.
///
/// `!--VDM,x,x,x,a,s--s,x*hh`
/// fragments (1–9) · this fragment's number · sequential message id (0–9, empty for a message of one fragment) ·
/// radio channel (`A`, `B`, or `1`, `2`) · payload, six bits a character (ITU-R M.1371 armouring) · fill bits (0–5)
///
/// The payload is checked character by character here; a message of several fragments is put together by
/// ``AISAssembler`` and read by ``AISReport``.
public struct VDM: Hashable, Sendable, DecodableSentence {
    public static let formatter = Formatter(0x56, 0x44, 0x4D)  // "VDM"
    /// The own vessel's transponder: the same layout.
    public static let ownFormatter = Formatter(0x56, 0x44, 0x4F)  // "VDO"

    public var fragmentCount: Int
    public var fragmentNumber: Int
    public var sequenceID: Int?
    /// `A`, `B`, `1` or `2`; nil when empty.
    public var channel: UInt8?
    /// The payload's six-bit values, one a character.
    public var payload: [UInt8]
    /// Bits of padding at the end of the payload (of the last fragment).
    public var fillBits: Int
    /// Sent as VDO: the own vessel's transponder's report of itself.
    public var isOwnVessel = false

    public init(
        fragmentCount: Int = 1, fragmentNumber: Int = 1, sequenceID: Int? = nil, channel: UInt8? = nil,
        payload: [UInt8], fillBits: Int = 0
    ) {
        self.fragmentCount = fragmentCount
        self.fragmentNumber = fragmentNumber
        self.sequenceID = sequenceID
        self.channel = channel
        self.payload = payload
        self.fillBits = fillBits
    }

    public init(fields r: inout FieldReader) throws(DecodeError) {
        guard let count = try r.integer(), (1...9).contains(count) else { throw .invalidField(index: r.index) }
        guard let number = try r.integer(), (1...count).contains(number) else { throw .invalidField(index: r.index) }
        let sequence = try r.integer()
        if let sequence, !(0...9).contains(sequence) { throw .invalidField(index: r.index) }
        if count > 1 && sequence == nil { throw .invalidField(index: r.index) }
        let channel = try r.character(oneOf: "AB12")
        guard let range = r.nextRange(), !range.isEmpty, range.count <= 82 else { throw .invalidField(index: r.index) }
        var payload: [UInt8] = []
        payload.reserveCapacity(range.count)
        for index in range {
            guard let value = Self.sixBits(r.bytes[index]) else { throw .invalidField(index: r.index) }
            payload.append(value)
        }
        let fill = try r.integer() ?? 0
        guard (0...5).contains(fill), fill < payload.count * 6 else { throw .invalidField(index: r.index) }
        fragmentCount = count
        fragmentNumber = number
        sequenceID = sequence
        self.channel = channel
        self.payload = payload
        fillBits = fill
    }

    /// A payload character's six bits: `0`–`W` are 0–39, `` ` ``–`w` 40–63; nil for any other byte.
    @inline(__always)
    public static func sixBits(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 48...87: byte - 48
        case 96...119: byte - 56
        default: nil
        }
    }
}

extension VDM: PlausibilityJudged {}
