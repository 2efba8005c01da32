import Marine
import Testing

@Suite struct WindTriangleTests {
    let knot = Units.metresPerSecondPerKnot

    @Test("REFERENCE example: AWA 30°, AWS 15 kn, STW 6 kn gives TWA 47.01°, TWS 10.253 kn")
    func referenceExample() {
        let apparent = RelativeWind(angle: 30, speed: 15 * knot)
        let wind = WindTriangle.trueWind(apparent: apparent, speedThroughWater: 6 * knot)
        #expect(abs(wind.angle - 47.01) < 0.005)
        #expect(abs(wind.speed / knot - 10.253) < 0.0005)
        // Worked independently: u = 15·cos30 - 6 = 6.99038, v = 7.5.
        #expect(abs(wind.speed / knot - (6.990381 * 6.990381 + 56.25).squareRoot()) < 1e-6)
    }

    @Test("port wind gives a negative TWA and TWD is heading plus TWA")
    func portWind() {
        let wind = WindTriangle.trueWind(
            apparent: RelativeWind(angle: -30, speed: 15 * knot), speedThroughWater: 6 * knot)
        #expect(abs(wind.angle + 47.01) < 0.005)
        #expect(abs(WindTriangle.direction(of: wind, heading: 20) - 332.99) < 0.005)
    }

    struct GridCase: Sendable {
        let angle: Double
        let speed: Double
        let boatSpeed: Double
        let leeway: Double
    }

    static let grid: [GridCase] = stride(from: -175.0, through: 180, by: 25).flatMap { angle in
        [0.5, 4, 12, 30].flatMap { speed in
            [0, 3, 8].flatMap { boat in
                [0.0, 6].map { GridCase(angle: angle, speed: speed, boatSpeed: boat, leeway: $0) }
            }
        }
    }

    @Test("true -> apparent -> true returns where it started, over a grid of angles and speeds", arguments: grid)
    func roundTrip(_ c: GridCase) {
        let start = RelativeWind(angle: c.angle, speed: c.speed * knot)
        let apparent = WindTriangle.apparentWind(true: start, speedThroughWater: c.boatSpeed * knot, leeway: c.leeway)
        let back = WindTriangle.trueWind(apparent: apparent, speedThroughWater: c.boatSpeed * knot, leeway: c.leeway)
        #expect(abs(back.speed - start.speed) < 1e-9)
        #expect(abs(Angle.difference(from: start.angle, to: back.angle)) < 1e-7)
        #expect(back.angle > -180 && back.angle <= 180)
    }

    @Test("head to wind at the boat's speed the apparent wind is the sum; running at wind speed it is calm")
    func extremes() {
        let ahead = WindTriangle.apparentWind(true: RelativeWind(angle: 0, speed: 5), speedThroughWater: 3)
        #expect(abs(ahead.speed - 8) < 1e-12 && abs(ahead.angle) < 1e-9)
        let running = WindTriangle.apparentWind(true: RelativeWind(angle: 180, speed: 5), speedThroughWater: 5)
        #expect(running.speed < 1e-12)
    }

    @Test("leeway turns the boat's own wind: drifting away from a port wind puts the true wind further aft")
    func leewayInTriangle() {
        let apparent = RelativeWind(angle: -35, speed: 14 * knot)
        let plain = WindTriangle.trueWind(apparent: apparent, speedThroughWater: 6 * knot)
        let drifting = WindTriangle.trueWind(apparent: apparent, speedThroughWater: 6 * knot, leeway: 5)
        #expect(drifting.angle < plain.angle)
        // Worked by hand: u = 14cos35 - 6cos5, v = -14sin35 - 6sin5.
        let u = 14 * 0.819152 - 6 * 0.996195
        let v = -14 * 0.573576 - 6 * 0.087156
        #expect(abs(drifting.angle - Angle.degrees(atan2(v, u))) < 1e-3)
    }

    @Test("VMG to windward is positive upwind, negative downwind")
    func vmg() {
        #expect(
            abs(
                WindTriangle.velocityMadeGood(trueWind: RelativeWind(angle: 45, speed: 5), speedThroughWater: 3)
                    - 3 * 0.7071068) < 1e-6)
        #expect(WindTriangle.velocityMadeGood(trueWind: RelativeWind(angle: 150, speed: 5), speedThroughWater: 3) < 0)
    }

    @Test("ground wind differs from water wind by the current")
    func groundWind() {
        // Boat heads 000 at 6 kn through water, a 2 kn current sets east so COG/SOG differ.
        let heading = 0.0
        let trueWind = RelativeWind(angle: 90, speed: 10 * knot)
        let apparent = WindTriangle.apparentWind(true: trueWind, speedThroughWater: 6 * knot)
        let overGround = PlaneVector(x: 6, y: 2)
        let ground = WindTriangle.groundWind(
            apparent: apparent, speedOverGround: overGround.magnitude * knot,
            courseOverGround: Angle.direction(overGround.angle), heading: heading)
        // Over ground, the boat's eastward drift adds a westward wind component.
        #expect(abs(ground.speed / knot - 8) < 1e-9)
        #expect(abs(ground.angle - 90) < 1e-9)
    }
}

#if canImport(Glibc)
    import Glibc
#endif
