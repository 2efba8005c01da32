/// ROT, rate of turn.
///
/// `$--ROT,x.x,A*hh`
/// degrees per minute (negative: bow turns to port) · status
public struct ROT: Hashable, Sendable, DecodableSentence, EncodableSentence {
    public static let formatter = Formatter(0x52, 0x4F, 0x54)  // "ROT"

    /// Degrees per minute, negative when the bow turns to port.
    public var rate: Double?
    public var isValid: Bool?

    public init(rate: Double? = nil, isValid: Bool? = nil) {
        self.rate = rate
        self.isValid = isValid
    }

    public init(fields r: inout FieldReader) throws(DecodeError) {
        rate = try r.double()
        isValid = try r.status()
    }

    public func write(to w: inout SentenceWriter, shortening: Int) {
        w.number(rate, decimals: 1)
        w.status(isValid)
    }
}
