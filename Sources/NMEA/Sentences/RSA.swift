/// RSA, rudder sensor angle.
///
/// `$--RSA,x.x,A,x.x,A*hh`
/// starboard (or single) rudder angle · status · port rudder angle · status. Negative angles: rudder to port.
public struct RSA: Hashable, Sendable, DecodableSentence, EncodableSentence {
    public static let formatter = Formatter(0x52, 0x53, 0x41)  // "RSA"

    public var starboardAngle: Double?
    public var starboardValid: Bool?
    public var portAngle: Double?
    public var portValid: Bool?

    public init(
        starboardAngle: Double? = nil, starboardValid: Bool? = nil, portAngle: Double? = nil, portValid: Bool? = nil
    ) {
        self.starboardAngle = starboardAngle
        self.starboardValid = starboardValid
        self.portAngle = portAngle
        self.portValid = portValid
    }

    public func write(to w: inout SentenceWriter, shortening: Int) {
        w.number(starboardAngle, decimals: 1)
        w.status(starboardValid)
        w.number(portAngle, decimals: 1)
        w.status(portValid)
    }

    public init(fields r: inout FieldReader) throws(DecodeError) {
        starboardAngle = try r.double()
        starboardValid = try r.status()
        portAngle = try r.double()
        portValid = try r.status()
    }
}
