/// HDG, heading, deviation and variation.
///
/// `$--HDG,x.x,x.x,a,x.x,a*hh`
/// magnetic sensor heading · deviation · E/W · variation · E/W
public struct HDG: Hashable, Sendable, DecodableSentence, EncodableSentence {
    public static let formatter = Formatter(0x48, 0x44, 0x47)  // "HDG"

    /// Degrees, as the magnetic sensor reads it (before deviation).
    public var sensorHeading: Double?
    /// Degrees, east positive.
    public var deviation: Double?
    /// Degrees, east positive.
    public var variation: Double?

    public init(sensorHeading: Double? = nil, deviation: Double? = nil, variation: Double? = nil) {
        self.sensorHeading = sensorHeading
        self.deviation = deviation
        self.variation = variation
    }

    public init(fields r: inout FieldReader) throws(DecodeError) {
        sensorHeading = try r.double()
        deviation = try r.eastWest()
        variation = try r.eastWest()
    }

    public func write(to w: inout SentenceWriter, shortening: Int) {
        w.number(sensorHeading, decimals: 1)
        w.eastWest(deviation, decimals: 1)
        w.eastWest(variation, decimals: 1)
    }
}
