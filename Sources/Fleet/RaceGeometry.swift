import Marine

/// A race's course on the plane of its area, worked out once: the lines, the marks, the metres from each point of the
/// course to the finish.
public struct RaceGeometry: Sendable {
    public let course: RaceCourse
    let plane: LocalPlane
    let line: (RaceStandings.XY, RaceStandings.XY)
    let finish: (RaceStandings.XY, RaceStandings.XY)
    let waypoints: [RaceStandings.XY]
    /// Metres from waypoint i round the rest of the course to the finish's middle.
    let legs: [Double]
    let courseSide: Int

    public init(_ course: RaceCourse) {
        self.course = course
        let points = course.waypoints
        var legs = Array(repeating: 0.0, count: points.count)
        var rest = 0.0
        for i in stride(from: points.count - 2, through: 0, by: -1) {
            rest += Geodesic.wgs84.inverse(points[i], points[i + 1]).distance
            legs[i] = rest
        }
        self.legs = legs
        let plane = LocalPlane(points[0])
        self.plane = plane
        line = (plane.xy(course.line.0), plane.xy(course.line.1))
        finish = (plane.xy(course.finish.0), plane.xy(course.finish.1))
        waypoints = points.map { plane.xy($0) }
        courseSide = RaceStandings.side(line, waypoints[1])
    }

    /// Metres round the course.
    public var length: Double { legs[0] }
}
