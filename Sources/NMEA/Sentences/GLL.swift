/// GLL, geographic position.
///
/// `$--GLL,llll.llll,a,yyyyy.yyyy,a,hhmmss.ss,A,m*hh`
/// latitude · N/S · longitude · E/W · time · status · FAA mode (2.3+)
public struct GLL: Hashable, Sendable, DecodableSentence {
    public static let formatter = Formatter(0x47, 0x4C, 0x4C)  // "GLL"

    public var latitude: Double?
    public var longitude: Double?
    public var time: UTCTime?
    public var isValid: Bool?
    public var mode: FAAMode?

    public init(
        latitude: Double? = nil, longitude: Double? = nil, time: UTCTime? = nil, isValid: Bool? = nil,
        mode: FAAMode? = nil
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.time = time
        self.isValid = isValid
        self.mode = mode
    }

    public init(fields r: inout FieldReader) throws(DecodeError) {
        latitude = try r.latitude()
        longitude = try r.longitude()
        time = try r.time()
        isValid = try r.status()
        mode = try r.faaMode()
    }

    public var isUsable: Bool { isValid == true && (mode?.isValid ?? true) }
}
