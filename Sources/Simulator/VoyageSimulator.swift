import Marine
import NMEA

/// A deterministic voyage: a boat sailing a route under a wind field with shifts and gusts, in a current and
/// waves, with the instruments a cruising boat has. See ``VoyageSettings``.
public struct VoyageSimulator {
    public let settings: VoyageSettings
    public let route: Route
    let plane: LocalPlane
    let legs: [(from: PlaneVector, to: PlaneVector)]

    public init(route: Route, settings: VoyageSettings = VoyageSettings()) {
        self.route = route
        self.settings = settings
        plane = LocalPlane(origin: route.waypoints[0].position)
        var legs: [(PlaneVector, PlaneVector)] = []
        for index in 0..<(route.waypoints.count - 1) {
            legs.append(
                (plane.plane(route.waypoints[index].position), plane.plane(route.waypoints[index + 1].position)))
        }
        self.legs = legs
    }

    /// The start line when the voyage has a start sequence: across the first leg at the first waypoint, its port end
    /// on the left facing along the leg.
    public var startLine: (port: GeoPoint, starboard: GeoPoint)? {
        guard settings.startSequence != nil, let first = legs.first else { return nil }
        let leg = PlaneVector(x: first.to.x - first.from.x, y: first.to.y - first.from.y)
        let unit = PlaneVector(x: leg.x / leg.magnitude, y: leg.y / leg.magnitude)
        let half = settings.startLineHalfLength
        // Right of the leg is (−unit.y, unit.x) in (north, east); left is its opposite.
        let port = PlaneVector(x: first.from.x + unit.y * half, y: first.from.y - unit.x * half)
        let starboard = PlaneVector(x: first.from.x - unit.y * half, y: first.from.y + unit.x * half)
        return (plane.point(port), plane.point(starboard))
    }

    /// Runs the voyage. Sentences come in time order with their UNIX time; IMU samples at 100 Hz; truth at 2 Hz.
    public func run(
        sentence: (Double, Sentence) -> Void, imu: (IMUSample) -> Void, truth: (TruthRow) -> Void
    ) {
        let ships = shipTracks()
        var v = start()
        let dt = 0.01
        let steps = Int((settings.duration / dt).rounded())
        let talker = Talker(settings.gpsTalker) ?? Talker(UInt8(ascii: "G"), UInt8(ascii: "P"))
        for step in 0...steps {
            let t = Double(step) * dt
            let air = wind(at: t, dt: dt, &v)
            let motion = sail(at: t, dt: dt, air, &v)
            let waves = self.waves(at: t, v)
            let track = steer(dt: dt, air, motion, &v)
            if step % 50 == 0 { truth(truthRow(at: t, air, motion, waves, track, v)) }
            // Instruments, each at its own rate, then the IMU at 100 Hz.
            let moment = Moment(
                t: t, now: settings.startTime + t, position: v.position, groundVelocity: motion.ground,
                waterVelocity: motion.water, windFromWater: air.fromWater, heading: v.heading,
                speedThroughWater: v.stw, heel: waves.heel, pitch: waves.pitch, rollRate: waves.rollRate,
                pitchRate: waves.pitchRate)
            instruments(
                moment, ships: ships, talker: talker, random: &v.random, gpsError: &v.gpsError, sentence: sentence)
            imu(
                imuSample(
                    moment, previous: &v.previousAttitude, wave: waves.frequency, phases: v.phases,
                    heave: waves.heave, random: &v.random))
            guard advance(at: t, dt: dt, air, motion, track, &v) else { break }
        }
    }

    /// The depth under the keel the echo sounder reads, metres, `t` seconds into the voyage (before its noise).
    static func depth(at t: Double) -> Double { 12 + 3 * sin(t / 200) }

    /// The ships' tracks: a first run of the voyage without them finds where the boat is, and how it moves, at
    /// the moment each is to be closest.
    private func shipTracks() -> [SimulatedShip.Track] {
        guard !settings.ships.isEmpty else { return [] }
        var quiet = settings
        quiet.ships = []
        var rows: [TruthRow] = []
        VoyageSimulator(route: route, settings: quiet).run(
            sentence: { _, _ in }, imu: { _ in }, truth: { rows.append($0) })
        return settings.ships.compactMap { ship in
            let at = settings.startTime + ship.closestAt
            guard let row = rows.min(by: { abs($0.time - at) < abs($1.time - at) }) else { return nil }
            return ship.track(
                boat: plane.plane(row.position), course: row.courseOverGround, speedOverGround: row.speedOverGround)
        }
    }

    func emit(
        _ value: some EncodableSentence, _ talker: Talker, _ time: Double, _ sentence: (Double, Sentence) -> Void
    ) {
        if let encoded = try? value.encode(talker: talker) { sentence(time, encoded) }
    }
}

/// Fixed-decimal formatting for the CSV files (no Foundation).
enum Format {
    static func fixed(_ value: Double, decimals: Int) -> String { FixedDecimal.text(value, decimals: decimals) }
}
