/// HDT, true heading.
///
/// `$--HDT,x.x,T*hh`
public struct HDT: Hashable, Sendable, DecodableSentence, EncodableSentence {
    public static let formatter = Formatter(0x48, 0x44, 0x54)  // "HDT"

    /// Degrees true.
    public var heading: Double?

    public init(heading: Double? = nil) {
        self.heading = heading
    }

    public init(fields r: inout FieldReader) throws(DecodeError) {
        heading = try r.double()
    }

    public func write(to w: inout SentenceWriter, shortening: Int) {
        w.number(heading, decimals: 1)
        w.character(UInt8(ascii: "T"))
    }
}
