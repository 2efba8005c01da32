/// APB, heading and track controller (autopilot) sentence B.
///
/// `$--APB,A,A,x.x,a,N,A,A,x.x,a,c--c,x.x,a,x.x,a,m*hh`
/// status · status · XTE magnitude · steer `L`/`R` · `N` · arrival circle entered · perpendicular passed ·
/// bearing origin→destination · `M`/`T` · destination ID · bearing present position→destination · `M`/`T` ·
/// heading to steer · `M`/`T` · FAA mode
///
/// Telltale never mixes `M` and `T` in one APB: ``reference`` applies to all three bearings.
public struct APB: Hashable, Sendable, DecodableSentence, EncodableSentence {
    public static let formatter = Formatter(0x41, 0x50, 0x42)  // "APB"

    public var status1: Bool?
    public var status2: Bool?
    public var crossTrackError: Double?
    public var steer: Side?
    public var arrivalCircleEntered: Bool?
    public var perpendicularPassed: Bool?
    public var bearingOriginToDestination: Double?
    public var destinationID: String?
    public var bearingToDestination: Double?
    public var headingToSteer: Double?
    /// The reference of all three bearings. When decoding a sentence that mixes them, the reference of the
    /// bearing origin→destination; ``mixedReferences`` tells.
    public var reference: BearingReference?
    public var mixedReferences: Bool
    public var mode: FAAMode?

    public init(
        status1: Bool? = nil, status2: Bool? = nil, crossTrackError: Double? = nil, steer: Side? = nil,
        arrivalCircleEntered: Bool? = nil, perpendicularPassed: Bool? = nil, bearingOriginToDestination: Double? = nil,
        destinationID: String? = nil, bearingToDestination: Double? = nil, headingToSteer: Double? = nil,
        reference: BearingReference? = .true, mode: FAAMode? = nil
    ) {
        self.status1 = status1
        self.status2 = status2
        self.crossTrackError = crossTrackError
        self.steer = steer
        self.arrivalCircleEntered = arrivalCircleEntered
        self.perpendicularPassed = perpendicularPassed
        self.bearingOriginToDestination = bearingOriginToDestination
        self.destinationID = destinationID
        self.bearingToDestination = bearingToDestination
        self.headingToSteer = headingToSteer
        self.reference = reference
        self.mixedReferences = false
        self.mode = mode
    }

    public init(fields r: inout FieldReader) throws(DecodeError) {
        status1 = try r.status()
        status2 = try r.status()
        let crossTrack = try r.double()
        steer = try r.side()
        // The cross track error's unit: nautical miles, or kilometres from some receivers (read into miles).
        let kilometres = try r.character(oneOf: "NK") == UInt8(ascii: "K")
        crossTrackError = kilometres ? crossTrack.map { $0 / 1.852 } : crossTrack
        arrivalCircleEntered = try r.status()
        perpendicularPassed = try r.status()
        bearingOriginToDestination = try r.double()
        let reference1 = try r.bearingReference()
        destinationID = r.text()
        bearingToDestination = try r.double()
        let reference2 = try r.bearingReference()
        headingToSteer = try r.double()
        let reference3 = try r.bearingReference()
        mode = try r.faaMode()
        let references = [reference1, reference2, reference3].compactMap { $0 }
        reference = references.first
        mixedReferences = references.contains { $0 != references.first }
    }

    public var shorteningSteps: Int { IdentifierShortening.steps(longest: destinationID?.utf8.count ?? 0) }

    public func write(to w: inout SentenceWriter, shortening: Int) {
        let limit = IdentifierShortening.limit(step: shortening, longest: destinationID?.utf8.count ?? 0)
        func bearing(_ value: Double?) {
            w.number(value.map { WireAngle.fullCircle($0, decimals: 1) }, decimals: 1)
            w.character(value == nil ? nil : reference?.rawValue)
        }
        w.status(status1)
        w.status(status2)
        w.number(crossTrackError, decimals: 3)
        w.character(steer?.rawValue)
        w.character(UInt8(ascii: "N"))
        w.status(arrivalCircleEntered)
        w.status(perpendicularPassed)
        bearing(bearingOriginToDestination)
        w.text(destinationID, limit: limit)
        bearing(bearingToDestination)
        bearing(headingToSteer)
        if mode != nil { w.faaMode(mode) }
    }
}
