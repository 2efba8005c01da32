/// GGA, GNSS fix data.
///
/// `$--GGA,hhmmss.ss,llll.llll,a,yyyyy.yyyy,a,x,xx,x.x,x.x,M,x.x,M,x.x,xxxx*hh`
/// time · latitude · N/S · longitude · E/W · quality · satellites · HDOP · altitude · M · geoid separation · M ·
/// age of differential data · differential station
public struct GGA: Hashable, Sendable, DecodableSentence, EncodableSentence {
    public static let formatter = Formatter(0x47, 0x47, 0x41)  // "GGA"
    /// Decimals of a minute written for the position (4 by default; 5, 2 cm, for a position from NMEA 2000).
    public var minuteDecimals = 4

    public var time: UTCTime?
    public var latitude: Double?
    public var longitude: Double?
    /// 0 invalid, 1 GPS, 2 differential, 4 RTK fixed, 5 RTK float, 6 estimated, 8 simulation.
    public var quality: Int?
    public var satellites: Int?
    public var horizontalDilution: Double?
    /// Metres above mean sea level.
    public var altitude: Double?
    /// Metres, geoid above ellipsoid.
    public var geoidSeparation: Double?
    public var differentialAge: Double?
    public var differentialStation: Int?

    public init(
        time: UTCTime? = nil, latitude: Double? = nil, longitude: Double? = nil, quality: Int? = nil,
        satellites: Int? = nil, horizontalDilution: Double? = nil, altitude: Double? = nil,
        geoidSeparation: Double? = nil, differentialAge: Double? = nil, differentialStation: Int? = nil
    ) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.quality = quality
        self.satellites = satellites
        self.horizontalDilution = horizontalDilution
        self.altitude = altitude
        self.geoidSeparation = geoidSeparation
        self.differentialAge = differentialAge
        self.differentialStation = differentialStation
    }

    public init(fields r: inout FieldReader) throws(DecodeError) {
        time = try r.time()
        latitude = try r.latitude()
        longitude = try r.longitude()
        quality = try r.integer()
        satellites = try r.integer()
        horizontalDilution = try r.double()
        altitude = try r.double()
        try r.unit("M")
        geoidSeparation = try r.double()
        try r.unit("M")
        differentialAge = try r.double()
        differentialStation = try r.integer()
    }

    public func write(to w: inout SentenceWriter, shortening: Int) {
        w.time(time)
        w.latitude(latitude, minuteDecimals: minuteDecimals)
        w.longitude(longitude, minuteDecimals: minuteDecimals)
        w.integer(quality)
        w.integer(satellites, width: 2)
        w.number(horizontalDilution, decimals: 1)
        w.number(altitude, decimals: 1)
        w.character(altitude == nil ? nil : UInt8(ascii: "M"))
        w.number(geoidSeparation, decimals: 1)
        w.character(geoidSeparation == nil ? nil : UInt8(ascii: "M"))
        w.number(differentialAge, decimals: 1)
        w.integer(differentialStation, width: 4)
    }

    /// Whether the fix can be used.
    public var isUsable: Bool { (quality ?? 0) > 0 && quality != 6 && latitude != nil && longitude != nil }
}
