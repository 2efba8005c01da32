/// DBT, depth below transducer.
///
/// `$--DBT,x.x,f,x.x,M,x.x,F*hh`
/// feet · f · metres · M · fathoms · F
public struct DBT: Hashable, Sendable, DecodableSentence {
    public static let formatter = Formatter(0x44, 0x42, 0x54)  // "DBT"

    public var feet: Double?
    public var metres: Double?
    public var fathoms: Double?

    public init(feet: Double? = nil, metres: Double? = nil, fathoms: Double? = nil) {
        self.feet = feet
        self.metres = metres
        self.fathoms = fathoms
    }

    public init(fields r: inout FieldReader) throws(DecodeError) {
        feet = try r.double()
        try r.unit("fF")
        metres = try r.double()
        try r.unit("M")
        fathoms = try r.double()
        try r.unit("F")
    }

    /// Depth in metres from whichever unit is present.
    public var depth: Double? { metres ?? feet.map { $0 * 0.3048 } ?? fathoms.map { $0 * 1.8288 } }
}
