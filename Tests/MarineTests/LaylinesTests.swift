import Marine
import Testing

/// Laylines on hand-worked geometry: wind from the north, beat angle 45°, the mark 1000 m north and 200 m west of
/// the boat.
@Suite struct LaylinesTests {
    // From the boat (200 m east, 1000 m south of the mark): bearing 348.69°, range 1019.80 m.
    static let bearing = 348.690_067_525_979_8
    static let range = 1019.803_902_718_556_8

    /// The laylines on starboard tack at 3 m/s through the water, beat angle 45°, wind from the north.
    static func beating(course: Double, speed: Double, current: PlaneVector?) throws -> Laylines {
        try #require(
            Laylines.to(
                bearing: bearing, range: range, windDirection: 0, targetAngle: 45, targetSpeed: 3, starboard: true,
                course: course, speed: speed, current: current))
    }

    @Test("on starboard tack (heading 315): 848.5 m to the port-tack layline; 565.7 m across to its own")
    func starboardTack() throws {
        let laylines = try Self.beating(course: 315, speed: 3, current: nil)
        #expect(laylines.upwind)
        // 200 - 0.7071 t = 0.7071 s and -1000 + 0.7071 t = 0.7071 s give t = 1200 / 1.4142 = 848.53 m.
        #expect(abs(laylines.distance! - 848.528) < 0.01)
        #expect(abs(laylines.time! - 848.528 / 3) < 0.01)
        // The starboard-tack layline runs through the mark along 315°: the boat is |0.7071·1000 - 0.7071·200| off it,
        // reached after tacking onto 045° in 565.69 m.
        #expect(abs(laylines.oppositeDistance - 565.685) < 0.01)
        #expect(abs(laylines.oppositeTime! - 565.685 / 3) < 0.01)
    }

    @Test("a current setting east moves the laylines: the starboard tack (going west) needs longer to the port layline")
    func current() throws {
        let still = try Self.beating(course: 315, speed: 3, current: nil)
        let east = PlaneVector(magnitude: 0.5, angle: 90)
        // Over the ground the boat's track is its water track plus the current.
        let ground = PlaneVector(magnitude: 3, angle: 315) + east
        let drifting = try Self.beating(
            course: Angle.direction(ground.angle), speed: ground.magnitude, current: east)
        #expect(drifting.time! > still.time!)
    }

    @Test("a mark off the wind, fetched straight, has no laylines; downwind marks use the gybe angle")
    func fetched() throws {
        #expect(
            Laylines.to(
                bearing: 90, range: 1000, windDirection: 0, targetAngle: 45, targetSpeed: 3, starboard: true,
                course: 90, speed: 3, current: nil) == nil)
        // Running to a mark dead downwind with a gybe angle of 150°: on starboard gybe, heading 210.
        let run = try #require(
            Laylines.to(
                bearing: 180, range: 1000, windDirection: 0, targetAngle: 150, targetSpeed: 3, starboard: true,
                course: 210, speed: 3, current: nil))
        #expect(!run.upwind)
        // The mark 1000 m south: the boat meets the port-gybe layline (through the mark along 150°) at the apex of an
        // isosceles triangle with 30° at the boat and at the mark: 1000 / (2 cos 30°) = 577.35 m.
        #expect(abs(run.distance! - 577.350) < 0.01)
    }
}
