/// BOD, bearing from origin to destination waypoint.
///
/// `$--BOD,x.x,T,x.x,M,c--c,c--c*hh`
/// bearing true · T · bearing magnetic · M · destination ID · origin ID
public struct BOD: Hashable, Sendable, DecodableSentence {
    public static let formatter = Formatter(0x42, 0x4F, 0x44)  // "BOD"

    public var bearingTrue: Double?
    public var bearingMagnetic: Double?
    public var destinationID: String?
    public var originID: String?

    public init(
        bearingTrue: Double? = nil, bearingMagnetic: Double? = nil, destinationID: String? = nil,
        originID: String? = nil
    ) {
        self.bearingTrue = bearingTrue
        self.bearingMagnetic = bearingMagnetic
        self.destinationID = destinationID
        self.originID = originID
    }

    public init(fields r: inout FieldReader) throws(DecodeError) {
        bearingTrue = try r.double()
        try r.unit("T")
        bearingMagnetic = try r.double()
        try r.unit("M")
        destinationID = r.text()
        originID = r.text()
    }
}
