/// A named point of a route.
public struct Waypoint: Hashable, Sendable {
    public var id: String
    public var position: GeoPoint

    public init(id: String, position: GeoPoint) {
        self.id = id
        self.position = position
    }
}

/// A route: waypoints in order, with the geometry of each leg worked out once when it is made.
public struct Route: Hashable, Sendable {
    public var name: String?
    /// The id of the resource it was made from (a route the crew saved), nil for a configured GPX file's.
    public var reference: String?
    public let waypoints: [Waypoint]
    /// Geodesic length of leg i (from waypoint i to i + 1), metres.
    public let legLengths: [Double]
    /// Geodesic azimuth at the start of leg i, degrees.
    public let legAzimuths: [Double]
    /// Metres from the end of leg i to the end of the route (sum of the later legs).
    public let remainingAfterLeg: [Double]

    public init(name: String? = nil, waypoints: [Waypoint], geodesic: Geodesic = .wgs84) {
        self.name = name
        self.waypoints = waypoints
        var lengths: [Double] = []
        var azimuths: [Double] = []
        for index in 0..<max(0, waypoints.count - 1) {
            let leg = geodesic.inverse(waypoints[index].position, waypoints[index + 1].position)
            lengths.append(leg.distance)
            azimuths.append(leg.initialAzimuth)
        }
        legLengths = lengths
        legAzimuths = azimuths
        var remaining = Array(repeating: 0.0, count: lengths.count)
        var sum = 0.0
        for index in lengths.indices.reversed() {
            remaining[index] = sum
            sum += lengths[index]
        }
        remainingAfterLeg = remaining
    }

    /// Number of legs.
    public var legCount: Int { legLengths.count }

    /// The index of the first waypoint with this ID.
    public func index(of id: String) -> Int? { waypoints.firstIndex { $0.id == id } }
}
