import Testing

@testable import Marine

/// The weather router (#52) in weather of known shape: the times it gives against what a boat on that polar takes
/// by hand, tacks where the wind is ahead, land sailed round, the limits kept, and failures said.
@Suite struct IsochroneRouterTests {
    /// A steady wind from `from` degrees at `knots`, a steady current (m/s east, north), known until `until`.
    struct Steady: SailingWeather {
        var from: Double
        var knots: Double
        var current: (east: Double, north: Double)? = nil
        var until = 1e12

        mutating func wind(at point: GeoPoint, time: Double) -> (east: Double, north: Double, gust: Double?)? {
            guard time <= until else { return nil }
            let speed = Units.metresPerSecond(knots: knots)
            return (-speed * sin(Angle.radians(from)), -speed * cos(Angle.radians(from)), nil)
        }

        mutating func current(at point: GeoPoint, time: Double) -> (east: Double, north: Double)? { current }
    }

    /// A polar whose speed is 6 kn from 40° to 180° at every wind from 4 kn (nothing closer than 40°): its beat is
    /// 40°, and a reach is at 6 kn.
    static let polar = Polar(
        curves: [4.0, 30.0].map { wind in
            Polar.Curve(windSpeed: wind, points: stride(from: 40.0, through: 180, by: 10).map { ($0, 6.0) })
        })

    static let start = GeoPoint(latitude: 50, longitude: -3)

    static func water() -> LandMask { LandMask(south: 49, west: -4, north: 51.5, east: -1, cell: 1.0 / 256)! }

    static func router(_ weather: Steady, land: LandMask = water(), settings: RouteSettings = RouteSettings())
        -> IsochroneRouter<Steady>
    {
        var tuned = settings
        tuned.step = 900
        return IsochroneRouter(polar: polar, settings: tuned, land: land, weather: weather)
    }

    @Test("a beam reach: one straight leg, the time of the distance at the polar's 6 kn")
    func reach() throws {
        var router = Self.router(Steady(from: 0, knots: 12))
        let destination = IsochroneRouter<Steady>.moved(Self.start, bearing: 90, metres: 20 * 1852)
        let plan = try router.plan(from: Self.start, to: destination, departure: 0)
        #expect(plan.waypoints.count == 2 && plan.tacks == 0 && plan.gybes == 0)
        #expect(abs(plan.duration - 20 / 6.0 * 3600) < 20)
        #expect(abs(plan.distance - 20 * 1852) < 20)
        #expect(abs(plan.waypoints[0].windAngle + 90) < 1 && abs(plan.reaching - plan.duration) < 1)
    }

    @Test("dead to windward: tacks close-hauled, the time of the distance at the polar's VMG, the tacks' cost in it")
    func beat() throws {
        var settings = RouteSettings()
        settings.tackPenalty = 120
        var router = Self.router(Steady(from: 0, knots: 12), settings: settings)
        let destination = IsochroneRouter<Steady>.moved(Self.start, bearing: 0, metres: 10 * 1852)
        let plan = try router.plan(from: Self.start, to: destination, departure: 0)
        let vmg = 6 * cos(Angle.radians(40))
        let ideal = 10 / vmg * 3600 + Double(plan.tacks) * 120
        // In a steady wind one tack is as good as any number, and costs least.
        #expect(plan.tacks == 1 && plan.gybes == 0)
        #expect(plan.duration >= ideal - 60 && plan.duration <= ideal * 1.003, "\(plan.duration) against \(ideal)")
        // Every leg sailable (never closer than the polar's 40°) and close-hauled (the last one onto the mark may be
        // freer than the beat).
        for leg in plan.waypoints.dropLast() {
            #expect(
                abs(leg.windAngle) >= 39.5 && abs(leg.windAngle) < 55,
                "\(plan.waypoints.map { ($0.windAngle, $0.time, $0.speed) })")
        }
        #expect(abs(plan.upwind - (plan.duration - Double(plan.tacks) * 120)) < 1)
    }

    @Test("a current across the leg: the heading crabs into it, the time is the distance at the speed made good")
    func current() throws {
        var router = Self.router(Steady(from: 0, knots: 12, current: (0, Units.metresPerSecond(knots: -2))))
        let destination = IsochroneRouter<Steady>.moved(Self.start, bearing: 90, metres: 12 * 1852)
        let plan = try router.plan(from: Self.start, to: destination, departure: 0)
        // 6 kn through the water, 2 kn of it against the current from the south: (36 − 4)^½ knots made good.
        let made = (36.0 - 4).squareRoot()
        #expect(abs(plan.duration - 12 / made * 3600) < 30, "\(plan.duration)")
        #expect(abs(plan.waypoints[0].heading - (90 - Angle.degrees(asin(2.0 / 6)))) < 0.5)
    }

    @Test("an island on the way: sailed round, no leg touches it, longer than the straight line")
    func island() throws {
        var land = Self.water()
        // A square island 4' on a side astride a 20 NM leg east, 8 NM on.
        land.paintSquare(south: 49.97, west: -2.77, side: 4.0 / 60)
        #expect(land.isLand(GeoPoint(latitude: 50, longitude: -2.74)))
        var router = Self.router(Steady(from: 0, knots: 12), land: land)
        let destination = IsochroneRouter<Steady>.moved(Self.start, bearing: 90, metres: 20 * 1852)
        let plan = try router.plan(from: Self.start, to: destination, departure: 0)
        for (a, b) in zip(plan.waypoints, plan.waypoints.dropFirst()) { #expect(!land.crossesLand(a.point, b.point)) }
        #expect(plan.waypoints.count >= 3 && plan.duration > 20 / 6.0 * 3600 + 30)
    }

    @Test("failures said: a destination on land, a forecast that ends, a limit under the wind, out of reach")
    func failures() throws {
        var land = Self.water()
        land.paintSquare(south: 50.2, west: -2.5, side: 0.1)
        var router = Self.router(Steady(from: 0, knots: 12), land: land)
        #expect(throws: RouteFailure.destinationOnLand) {
            try router.plan(from: Self.start, to: GeoPoint(latitude: 50.25, longitude: -2.45), departure: 0)
        }
        let far = IsochroneRouter<Steady>.moved(Self.start, bearing: 90, metres: 60 * 1852)
        var ending = Self.router(Steady(from: 0, knots: 12, until: 3600))
        #expect(throws: RouteFailure.self) { try ending.plan(from: Self.start, to: far, departure: 0) }
        do {
            _ = try ending.plan(from: Self.start, to: far, departure: 0)
        } catch {
            guard case .noForecast(_, let time) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(time > 3600 && time <= 3600 + 900)
        }
        var settings = RouteSettings()
        settings.maximumWind = 5
        var limited = Self.router(Steady(from: 0, knots: 12), settings: settings)
        #expect(throws: RouteFailure.unreachable(at: 0)) { try limited.plan(from: Self.start, to: far, departure: 0) }
        settings = RouteSettings()
        settings.longest = 3600
        var short = Self.router(Steady(from: 0, knots: 12), settings: settings)
        #expect(throws: RouteFailure.tooLong) { try short.plan(from: Self.start, to: far, departure: 0) }
    }
}

extension LandMask {
    /// A square of land for the tests, painted cell by cell.
    mutating func paintSquare(south: Double, west: Double, side: Double) {
        for row in 0..<rows {
            for column in 0..<columns {
                let latitude = self.south + (Double(row) + 0.5) * cell
                let longitude = self.west + (Double(column) + 0.5) * cell
                if latitude >= south, latitude < south + side, longitude >= west, longitude < west + side {
                    set(row, column, true)
                }
            }
        }
    }
}
