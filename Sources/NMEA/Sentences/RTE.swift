/// RTE, route: the waypoint identifiers of a route, split over several sentences.
///
/// `$--RTE,x,x,a,c--c,c--c,...*hh`
/// total sentences · sentence number · `c` complete route / `w` working route (first listed is the origin) ·
/// route ID · waypoint IDs
public struct RTE: Hashable, Sendable, DecodableSentence {
    public static let formatter = Formatter(0x52, 0x54, 0x45)  // "RTE"

    public var totalSentences: Int?
    public var sentenceNumber: Int?
    /// `c` complete route, `w` working route.
    public var type: UInt8?
    public var routeID: String?
    public var waypointIDs: [String]

    public init(
        totalSentences: Int? = nil, sentenceNumber: Int? = nil, type: UInt8? = nil, routeID: String? = nil,
        waypointIDs: [String] = []
    ) {
        self.totalSentences = totalSentences
        self.sentenceNumber = sentenceNumber
        self.type = type
        self.routeID = routeID
        self.waypointIDs = waypointIDs
    }

    public init(fields r: inout FieldReader) throws(DecodeError) {
        totalSentences = try r.integer()
        sentenceNumber = try r.integer()
        type = try r.character()
        routeID = r.text()
        waypointIDs = []
        while !r.isAtEnd {
            if let id = r.text() { waypointIDs.append(id) }
        }
    }
}
