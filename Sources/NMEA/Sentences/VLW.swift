/// VLW, distance travelled through the water (and over ground, NMEA 3.0+).
///
/// `$--VLW,x.x,N,x.x,N,x.x,N,x.x,N*hh`
/// total water distance · N · trip water distance · N · total ground distance · N · trip ground distance · N
public struct VLW: Hashable, Sendable, DecodableSentence, EncodableSentence {
    public static let formatter = Formatter(0x56, 0x4C, 0x57)  // "VLW"

    /// Nautical miles.
    public var totalWater: Double?
    public var tripWater: Double?
    public var totalGround: Double?
    public var tripGround: Double?

    public init(
        totalWater: Double? = nil, tripWater: Double? = nil, totalGround: Double? = nil, tripGround: Double? = nil
    ) {
        self.totalWater = totalWater
        self.tripWater = tripWater
        self.totalGround = totalGround
        self.tripGround = tripGround
    }

    public func write(to w: inout SentenceWriter, shortening: Int) {
        for value in [totalWater, tripWater]
            + (totalGround != nil || tripGround != nil ? [totalGround, tripGround] : [])
        {
            w.number(value, decimals: 2)
            w.character(value == nil ? nil : UInt8(ascii: "N"))
        }
    }

    public init(fields r: inout FieldReader) throws(DecodeError) {
        totalWater = try r.double()
        try r.unit("N")
        tripWater = try r.double()
        try r.unit("N")
        totalGround = try r.double()
        try r.unit("N")
        tripGround = try r.double()
        try r.unit("N")
    }
}
