/// RMC, recommended minimum GNSS data.
///
/// `$--RMC,hhmmss.ss,A,llll.llll,a,yyyyy.yyyy,a,x.x,x.x,ddmmyy,x.x,a,m,s*hh`
/// time · status · latitude · N/S · longitude · E/W · SOG knots · COG true · date · variation · E/W ·
/// FAA mode (2.3+) · navigational status (4.1+)
public struct RMC: Hashable, Sendable, DecodableSentence, EncodableSentence {
    public static let formatter = Formatter(0x52, 0x4D, 0x43)  // "RMC"
    /// Decimals of a minute written for the position (4 by default; 5, 2 cm, for a position from NMEA 2000).
    public var minuteDecimals = 4

    public var time: UTCTime?
    public var isValid: Bool?
    /// Degrees, north positive.
    public var latitude: Double?
    /// Degrees, east positive.
    public var longitude: Double?
    /// Knots.
    public var speedOverGround: Double?
    /// Degrees true.
    public var courseOverGround: Double?
    public var date: UTCDate?
    /// Degrees, east positive.
    public var magneticVariation: Double?
    public var mode: FAAMode?
    public var navigationalStatus: UInt8?

    public init(
        time: UTCTime? = nil, isValid: Bool? = nil, latitude: Double? = nil, longitude: Double? = nil,
        speedOverGround: Double? = nil, courseOverGround: Double? = nil, date: UTCDate? = nil,
        magneticVariation: Double? = nil, mode: FAAMode? = nil, navigationalStatus: UInt8? = nil
    ) {
        self.time = time
        self.isValid = isValid
        self.latitude = latitude
        self.longitude = longitude
        self.speedOverGround = speedOverGround
        self.courseOverGround = courseOverGround
        self.date = date
        self.magneticVariation = magneticVariation
        self.mode = mode
        self.navigationalStatus = navigationalStatus
    }

    public init(fields r: inout FieldReader) throws(DecodeError) {
        time = try r.time()
        isValid = try r.status()
        latitude = try r.latitude()
        longitude = try r.longitude()
        speedOverGround = try r.double()
        courseOverGround = try r.double()
        date = try r.date()
        magneticVariation = try r.eastWest()
        mode = try r.faaMode()
        navigationalStatus = try r.character()
    }

    public func write(to w: inout SentenceWriter, shortening: Int) {
        w.time(time)
        w.status(isValid)
        w.latitude(latitude, minuteDecimals: minuteDecimals)
        w.longitude(longitude, minuteDecimals: minuteDecimals)
        w.number(speedOverGround, decimals: 2)
        w.number(courseOverGround, decimals: 1)
        w.date(date)
        w.eastWest(magneticVariation, decimals: 1)
        if mode != nil || navigationalStatus != nil { w.faaMode(mode) }
        if navigationalStatus != nil { w.character(navigationalStatus) }
    }

    /// Whether the fix can be used: status `A` and, when present, a valid FAA mode.
    public var isUsable: Bool { isValid == true && (mode?.isValid ?? true) }
}
