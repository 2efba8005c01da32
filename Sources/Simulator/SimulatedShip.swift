import Marine
import NMEA

/// A ship on AIS in a simulated voyage: it holds its course and speed and comes closest to the boat at a chosen
/// moment, at a chosen distance, from a chosen side; a class A position report every 10 s and its name and size
/// (message 5) every 6 minutes, as a transponder sends them.
public struct SimulatedShip: Hashable, Sendable {
    public var mmsi: UInt32
    public var name: String
    /// Seconds after the voyage's start at which it is closest to the boat.
    public var closestAt: Double
    /// Metres apart then (0: a collision course); it passes ahead of the boat.
    public var passing: Double
    /// Knots.
    public var speed: Double
    /// Degrees from the boat's course on which it comes (90: from starboard, crossing to port).
    public var from: Double

    public init(
        mmsi: UInt32 = 235_000_001, name: String = "EVER DIADEM", closestAt: Double, passing: Double = 0,
        speed: Double = 12, from: Double = 90
    ) {
        self.mmsi = mmsi
        self.name = name
        self.closestAt = closestAt
        self.passing = passing
        self.speed = speed
        self.from = from
    }

    /// Its track in the voyage's plane: where it is at the moment it is closest, and its velocity (m/s).
    struct Track {
        var ship: SimulatedShip
        var closest: PlaneVector
        var velocity: PlaneVector

        func position(at t: Double) -> PlaneVector {
            closest + PlaneVector(x: velocity.x * (t - ship.closestAt), y: velocity.y * (t - ship.closestAt))
        }

        /// The class A position report at `point` (under way using engine), as VDM sentences.
        func positionReport(at point: GeoPoint, utcSecond: Int) -> [Sentence] {
            var report = AISReport(messageType: 1, mmsi: ship.mmsi)
            let course = Angle.direction(velocity.angle)
            report.position = AISReport.Position(
                latitude: point.latitude, longitude: point.longitude, speedOverGround: ship.speed,
                courseOverGround: course, heading: course.rounded(), navigationStatus: 0, isAccurate: true,
                second: utcSecond)
            return report.positionBits().sentences()
        }

        /// Its name and size (message 5): a 180 m cargo ship.
        func staticReport(sequence: Int) -> [Sentence] {
            var report = AISReport(messageType: 5, mmsi: ship.mmsi)
            var statics = AISReport.Statics()
            statics.name = ship.name
            statics.shipType = 70
            statics.toBow = 150
            statics.toStern = 30
            statics.toPort = 14
            statics.toStarboard = 14
            statics.draught = 9.5
            report.statics = statics
            return report.staticBits().sentences(sequence: sequence)
        }
    }

    /// Its track, from where the boat is at `closestAt` and how it moves then.
    func track(boat: PlaneVector, course: Double, speedOverGround: Double) -> Track {
        let velocity = PlaneVector(magnitude: speed * Units.metresPerSecondPerKnot, angle: course + from + 180)
        let own = PlaneVector(magnitude: speedOverGround, angle: course)
        let relative = PlaneVector(x: velocity.x - own.x, y: velocity.y - own.y)
        // Closest when the offset is square to the relative motion; of the two sides, the one ahead of the boat.
        var side = PlaneVector(x: -relative.y, y: relative.x)
        let length = side.magnitude
        side = length > 1e-9 ? PlaneVector(x: side.x / length, y: side.y / length) : PlaneVector(x: 0, y: 0)
        if side.x * own.x + side.y * own.y < 0 { side = PlaneVector(x: -side.x, y: -side.y) }
        return Track(
            ship: self, closest: boat + PlaneVector(x: side.x * passing, y: side.y * passing), velocity: velocity)
    }
}
