/// RMB, recommended minimum navigation information.
///
/// `$--RMB,A,x.x,a,c--c,c--c,llll.llll,a,yyyyy.yyyy,a,x.x,x.x,x.x,A,m*hh`
/// status · XTE NM · steer `L`/`R` · origin ID · destination ID · destination latitude · N/S · longitude · E/W ·
/// range NM · bearing true · closing velocity knots · arrival `A`/`V` · FAA mode
public struct RMB: Hashable, Sendable, DecodableSentence, EncodableSentence {
    public static let formatter = Formatter(0x52, 0x4D, 0x42)  // "RMB"

    public var isValid: Bool?
    public var crossTrackError: Double?
    public var steer: Side?
    public var originID: String?
    public var destinationID: String?
    public var destinationLatitude: Double?
    public var destinationLongitude: Double?
    public var range: Double?
    public var bearingTrue: Double?
    public var closingVelocity: Double?
    public var arrived: Bool?
    public var mode: FAAMode?

    public init(
        isValid: Bool? = nil, crossTrackError: Double? = nil, steer: Side? = nil, originID: String? = nil,
        destinationID: String? = nil, destinationLatitude: Double? = nil, destinationLongitude: Double? = nil,
        range: Double? = nil, bearingTrue: Double? = nil, closingVelocity: Double? = nil, arrived: Bool? = nil,
        mode: FAAMode? = nil
    ) {
        self.isValid = isValid
        self.crossTrackError = crossTrackError
        self.steer = steer
        self.originID = originID
        self.destinationID = destinationID
        self.destinationLatitude = destinationLatitude
        self.destinationLongitude = destinationLongitude
        self.range = range
        self.bearingTrue = bearingTrue
        self.closingVelocity = closingVelocity
        self.arrived = arrived
        self.mode = mode
    }

    public init(fields r: inout FieldReader) throws(DecodeError) {
        isValid = try r.status()
        crossTrackError = try r.double()
        steer = try r.side()
        originID = r.text()
        destinationID = r.text()
        destinationLatitude = try r.latitude()
        destinationLongitude = try r.longitude()
        range = try r.double()
        bearingTrue = try r.double()
        closingVelocity = try r.double()
        arrived = try r.status()
        mode = try r.faaMode()
    }

    public var shorteningSteps: Int {
        IdentifierShortening.steps(longest: max(originID?.utf8.count ?? 0, destinationID?.utf8.count ?? 0))
    }

    public func write(to w: inout SentenceWriter, shortening: Int) {
        let limit = IdentifierShortening.limit(
            step: shortening, longest: max(originID?.utf8.count ?? 0, destinationID?.utf8.count ?? 0))
        w.status(isValid)
        w.number(crossTrackError, decimals: 2)
        w.character(steer?.rawValue)
        w.text(originID, limit: limit)
        w.text(destinationID, limit: limit)
        w.latitude(destinationLatitude)
        w.longitude(destinationLongitude)
        w.number(range, decimals: 2)
        w.number(bearingTrue.map { WireAngle.fullCircle($0, decimals: 1) }, decimals: 1)
        w.number(closingVelocity, decimals: 1)
        w.status(arrived)
        if mode != nil { w.faaMode(mode) }
    }
}
