/// DPT, depth.
///
/// `$--DPT,x.x,x.x,x.x*hh`
/// depth below transducer in metres · offset in metres (positive: to the waterline, negative: to the keel) ·
/// maximum range (3.0+)
public struct DPT: Hashable, Sendable, DecodableSentence, EncodableSentence {
    public static let formatter = Formatter(0x44, 0x50, 0x54)  // "DPT"

    public var depth: Double?
    public var offset: Double?
    public var maximumRange: Double?

    public init(depth: Double? = nil, offset: Double? = nil, maximumRange: Double? = nil) {
        self.depth = depth
        self.offset = offset
        self.maximumRange = maximumRange
    }

    public init(fields r: inout FieldReader) throws(DecodeError) {
        depth = try r.double()
        offset = try r.double()
        maximumRange = try r.double()
    }

    public func write(to w: inout SentenceWriter, shortening: Int) {
        w.number(depth, decimals: 1)
        w.number(offset, decimals: 1)
        if maximumRange != nil { w.number(maximumRange, decimals: 0) }
    }
}
