/// The shared layout of BWC (great circle) and BWR (rhumb line): bearing and distance to a waypoint.
///
/// `$--BWC,hhmmss.ss,llll.llll,a,yyyyy.yyyy,a,x.x,T,x.x,M,x.x,N,c--c,m*hh`
/// UTC · waypoint latitude · N/S · longitude · E/W · bearing true · T · bearing magnetic · M · distance NM · N ·
/// waypoint ID · FAA mode
public struct WaypointBearing: Hashable, Sendable {
    public var time: UTCTime?
    public var latitude: Double?
    public var longitude: Double?
    public var bearingTrue: Double?
    public var bearingMagnetic: Double?
    /// Nautical miles.
    public var distance: Double?
    public var waypointID: String?
    public var mode: FAAMode?

    public init(
        time: UTCTime? = nil, latitude: Double? = nil, longitude: Double? = nil, bearingTrue: Double? = nil,
        bearingMagnetic: Double? = nil, distance: Double? = nil, waypointID: String? = nil, mode: FAAMode? = nil
    ) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.bearingTrue = bearingTrue
        self.bearingMagnetic = bearingMagnetic
        self.distance = distance
        self.waypointID = waypointID
        self.mode = mode
    }

    init(fields r: inout FieldReader) throws(DecodeError) {
        time = try r.time()
        latitude = try r.latitude()
        longitude = try r.longitude()
        bearingTrue = try r.double()
        try r.unit("T")
        bearingMagnetic = try r.double()
        try r.unit("M")
        distance = try r.double()
        try r.unit("N")
        waypointID = r.text()
        mode = try r.faaMode()
    }

    var shorteningSteps: Int { IdentifierShortening.steps(longest: waypointID?.utf8.count ?? 0) }

    func write(to w: inout SentenceWriter, shortening: Int) {
        w.time(time)
        w.latitude(latitude)
        w.longitude(longitude)
        w.number(bearingTrue.map { WireAngle.fullCircle($0, decimals: 1) }, decimals: 1)
        w.character(UInt8(ascii: "T"))
        w.number(bearingMagnetic.map { WireAngle.fullCircle($0, decimals: 1) }, decimals: 1)
        w.character(UInt8(ascii: "M"))
        w.number(distance, decimals: 2)
        w.character(UInt8(ascii: "N"))
        w.text(
            waypointID,
            limit: IdentifierShortening.limit(step: shortening, longest: waypointID?.utf8.count ?? 0))
        if mode != nil { w.faaMode(mode) }
    }
}

/// BWC, bearing and distance to waypoint along the great circle. Layout: ``WaypointBearing``.
public struct BWC: Hashable, Sendable, DecodableSentence, EncodableSentence {
    public static let formatter = Formatter(0x42, 0x57, 0x43)  // "BWC"
    public var waypoint: WaypointBearing

    public init(_ waypoint: WaypointBearing) { self.waypoint = waypoint }
    public init(fields r: inout FieldReader) throws(DecodeError) { waypoint = try WaypointBearing(fields: &r) }
    public var shorteningSteps: Int { waypoint.shorteningSteps }
    public func write(to w: inout SentenceWriter, shortening: Int) { waypoint.write(to: &w, shortening: shortening) }
}

/// BWR, bearing and distance to waypoint along the rhumb line. Layout: ``WaypointBearing``.
public struct BWR: Hashable, Sendable, DecodableSentence, EncodableSentence {
    public static let formatter = Formatter(0x42, 0x57, 0x52)  // "BWR"
    public var waypoint: WaypointBearing

    public init(_ waypoint: WaypointBearing) { self.waypoint = waypoint }
    public init(fields r: inout FieldReader) throws(DecodeError) { waypoint = try WaypointBearing(fields: &r) }
    public var shorteningSteps: Int { waypoint.shorteningSteps }
    public func write(to w: inout SentenceWriter, shortening: Int) { waypoint.write(to: &w, shortening: shortening) }
}
