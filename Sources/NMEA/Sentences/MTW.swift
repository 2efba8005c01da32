/// MTW, water temperature.
///
/// `$--MTW,x.x,C*hh`
public struct MTW: Hashable, Sendable, DecodableSentence, EncodableSentence {
    public static let formatter = Formatter(0x4D, 0x54, 0x57)  // "MTW"

    /// Degrees Celsius.
    public var temperature: Double?

    public init(temperature: Double? = nil) {
        self.temperature = temperature
    }

    public func write(to w: inout SentenceWriter, shortening: Int) {
        w.number(temperature, decimals: 1)
        w.character(UInt8(ascii: "C"))
    }

    public init(fields r: inout FieldReader) throws(DecodeError) {
        temperature = try r.double()
        try r.unit("C")
    }
}
