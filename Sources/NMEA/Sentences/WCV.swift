/// WCV, waypoint closure velocity: the component of velocity over ground towards the waypoint.
///
/// `$--WCV,x.x,N,c--c,m*hh`
/// knots · N · waypoint ID · FAA mode
public struct WCV: Hashable, Sendable, DecodableSentence, EncodableSentence {
    public static let formatter = Formatter(0x57, 0x43, 0x56)  // "WCV"

    public var velocity: Double?
    public var waypointID: String?
    public var mode: FAAMode?

    public init(velocity: Double? = nil, waypointID: String? = nil, mode: FAAMode? = nil) {
        self.velocity = velocity
        self.waypointID = waypointID
        self.mode = mode
    }

    public init(fields r: inout FieldReader) throws(DecodeError) {
        velocity = try r.double()
        try r.unit("N")
        waypointID = r.text()
        mode = try r.faaMode()
    }

    public var shorteningSteps: Int { IdentifierShortening.steps(longest: waypointID?.utf8.count ?? 0) }

    public func write(to w: inout SentenceWriter, shortening: Int) {
        w.number(velocity, decimals: 2)
        w.character(UInt8(ascii: "N"))
        w.text(
            waypointID,
            limit: IdentifierShortening.limit(step: shortening, longest: waypointID?.utf8.count ?? 0))
        if mode != nil { w.faaMode(mode) }
    }
}
