import Marine
import NMEA
import TestSupport
import Testing

@testable import Engine

/// Route following through the engine, judged on the sentences a plotter and a pilot would receive.
@Suite struct RouteEngineTests {
    static let route = Route(
        name: "test",
        waypoints: [
            Waypoint(id: "WP1", position: GeoPoint(latitude: 50.00, longitude: -1.00)),
            Waypoint(id: "WP2", position: GeoPoint(latitude: 50.05, longitude: -1.00)),
            Waypoint(id: "WP3", position: GeoPoint(latitude: 50.05, longitude: -0.95)),
        ])

    /// An engine following the test route, every navigation sentence due on every tick.
    static func engine(variation: Double? = nil) -> (Engine, SourceID) {
        var configuration = undampedConfiguration()
        configuration.kinds = [
            .crossTrackError, .waypointGreatCircle, .waypointRhumb, .navigation, .autopilot,
            .autopilotMagnetic, .waypointClosure,
        ]
        for kind in configuration.kinds { configuration.intervals[kind] = 0.1 }
        configuration.variation = variation
        if variation == nil { configuration.variationOrder = [.hdg, .rmc] }
        // The boat placed by hand: 500 m a second on the way to a waypoint.
        configuration.gatesPositions = false
        var engine = Engine(configuration: configuration)
        let gps = engine.source(named: "gps")
        engine.follow(route)
        return (engine, gps)
    }

    /// One second of sailing: a fix at `point` with UTC `second`, then a tick.
    static func sail(
        _ engine: inout Engine, _ gps: SourceID, to point: GeoPoint, second: Int, cog: Double = 0, sog: Double = 5
    ) -> [ComputedKind: Sentence] {
        let rmc = RMC(
            time: UTCTime(millisecondsOfDay: 36_000_000 + second * 1000), isValid: true,
            latitude: point.latitude, longitude: point.longitude, speedOverGround: sog,
            courseOverGround: cog, date: UTCDate(year: 2026, month: 11, day: 22), mode: .autonomous)
        engine.ingest(try! rmc.encode(talker: "GP"), from: gps, at: Double(second))
        return tick(&engine, at: Double(second) + 0.05)
    }

    @Test("weaving across the track: the steer letter always points back to it, in XTE, RMB and APB alike")
    func weaving() throws {
        var (engine, gps) = Self.engine()
        for second in 0..<20 {
            let east = second % 2 == 0
            let point = Geodesic.wgs84.direct(
                from: GeoPoint(latitude: 50.01 + Double(second) * 0.0005, longitude: -1),
                azimuth: east ? 90 : 270, distance: 25
            ).point
            let out = Self.sail(&engine, gps, to: point, second: second)
            let xte = try #require(decoded(XTE.self, out[.crossTrackError]))
            let rmb = try #require(decoded(RMB.self, out[.navigation]))
            let apb = try #require(decoded(APB.self, out[.autopilot]))
            let expected: Side = east ? .left : .right
            #expect(xte.steer == expected && rmb.steer == expected && apb.steer == expected)
            #expect(abs(xte.magnitude! - 25 / 1852) < 0.0006)
            #expect(xte.status1 == true && xte.mode == .autonomous)
            #expect(rmb.destinationID == "WP2" && rmb.originID == "WP1" && rmb.arrived == false)
        }
    }

    @Test("a waypoint switch: from the first sentence after the confirmed arrival, every sentence names the new leg")
    func waypointSwitch() throws {
        var (engine, gps) = Self.engine()
        let wp2 = Self.route.waypoints[1].position
        var second = 0
        // Approach along the leg, then three fixes inside the 0.05 NM arrival circle.
        for distance in [1000.0, 500, 200, 60, 40] {
            let point = Geodesic.wgs84.direct(from: wp2, azimuth: 180, distance: distance).point
            let out = Self.sail(&engine, gps, to: point, second: second)
            #expect(decoded(RMB.self, out[.navigation])?.destinationID == "WP2", "switched too early at \(distance) m")
            second += 1
        }
        let point = Geodesic.wgs84.direct(from: wp2, azimuth: 180, distance: 20).point
        let out = Self.sail(&engine, gps, to: point, second: second)
        let rmb = try #require(decoded(RMB.self, out[.navigation]))
        #expect(rmb.originID == "WP2" && rmb.destinationID == "WP3")
        #expect(decoded(BWC.self, out[.waypointGreatCircle])?.waypoint.waypointID == "WP3")
        #expect(decoded(BWR.self, out[.waypointRhumb])?.waypoint.waypointID == "WP3")
        #expect(decoded(WCV.self, out[.waypointClosure])?.waypointID == "WP3")
        let apb = try #require(decoded(APB.self, out[.autopilot]))
        #expect(apb.destinationID == "WP3")
        // The new leg runs east: its bearing is about 90, and the pilot is sent east, not back north.
        #expect(abs(apb.bearingOriginToDestination! - 90) < 1)
        #expect(abs(Angle.difference(from: 90, to: apb.headingToSteer!)) < 31)
        #expect(engine.route.leg == 1)
    }

    @Test("one GPS jump into the arrival circle does not skip the waypoint")
    func gpsJump() {
        var (engine, gps) = Self.engine()
        let wp2 = Self.route.waypoints[1].position
        let far = Geodesic.wgs84.direct(from: wp2, azimuth: 180, distance: 800).point
        for (second, point) in [far, wp2, far, far, wp2, far].enumerated() {
            _ = Self.sail(&engine, gps, to: point, second: second)
        }
        #expect(engine.route.leg == 0)
    }

    @Test("pause stops the navigation sentences and resume brings them back")
    func pauseAndResume() {
        var (engine, gps) = Self.engine()
        let point = GeoPoint(latitude: 50.01, longitude: -1)
        #expect(Self.sail(&engine, gps, to: point, second: 0)[.navigation] != nil)
        engine.pauseRoute()
        #expect(Self.sail(&engine, gps, to: point, second: 1).isEmpty)
        engine.resumeRoute()
        #expect(Self.sail(&engine, gps, to: point, second: 2)[.navigation] != nil)
    }

    @Test("at the last waypoint the arrival flags stay set and guidance ends: APB and XTE go V")
    func lastWaypoint() throws {
        var (engine, gps) = Self.engine()
        engine.follow(Self.route, leg: 1)
        let wp3 = Self.route.waypoints[2].position
        var last: [ComputedKind: Sentence] = [:]
        for second in 0..<8 {
            last = Self.sail(&engine, gps, to: wp3, second: second, cog: 90)
        }
        let rmb = try #require(decoded(RMB.self, last[.navigation]))
        #expect(rmb.arrived == true && rmb.isValid == true && rmb.destinationID == "WP3")
        let apb = try #require(decoded(APB.self, last[.autopilot]))
        #expect(apb.status1 == false && apb.arrivalCircleEntered == true)
        #expect(decoded(XTE.self, last[.crossTrackError])?.status1 == false)
        #expect(engine.route.leg == 1)
    }

    @Test("APB: all bearings magnetic with a variation, all true with a notice without one")
    func apbReferences() throws {
        var (engine, gps) = Self.engine(variation: -3)
        var out = Self.sail(&engine, gps, to: GeoPoint(latitude: 50.01, longitude: -1.001), second: 0)
        let magnetic = try #require(decoded(APB.self, out[.autopilotMagnetic]))
        let trueAPB = try #require(decoded(APB.self, out[.autopilot]))
        #expect(magnetic.reference == .magnetic && !magnetic.mixedReferences)
        #expect(
            abs(Angle.difference(from: trueAPB.bearingToDestination! + 3, to: magnetic.bearingToDestination!)) < 0.11)
        #expect(trueAPB.reference == .true && !trueAPB.mixedReferences)

        var (plain, source) = Self.engine()
        out = Self.sail(&plain, source, to: GeoPoint(latitude: 50.01, longitude: -1.001), second: 0)
        #expect(decoded(APB.self, out[.autopilotMagnetic])?.reference == .true)
        #expect(plain.takeNotices().contains { $0.hasPrefix("APB magnetic") })
        _ = Self.sail(&plain, source, to: GeoPoint(latitude: 50.01, longitude: -1.001), second: 1)
        #expect(plain.takeNotices().isEmpty)  // said once
    }

    @Test("a stale position: XTE, RMB and APB say V with FAA mode N; BWC's UTC is the GPS clock, not the system's")
    func stalePosition() throws {
        var (engine, gps) = Self.engine()
        // The system clock says midnight; the GPS (RMC of 2026-11-22 10:00:00) is believed over it, so BWC carries
        // the same UTC as RMC and GGA (it carried the system clock's, 00:00:00.05, before).
        engine.setClock(unixTime: 1_795_305_600, at: 0)
        let fresh = Self.sail(&engine, gps, to: GeoPoint(latitude: 50.01, longitude: -1), second: 0)
        #expect(
            decoded(BWC.self, fresh[.waypointGreatCircle])?.waypoint.time
                == UTCTime(hours: 10, minutes: 0, seconds: 0.05))
        let out = tick(&engine, at: 10)
        let xte = try #require(decoded(XTE.self, out[.crossTrackError]))
        #expect(xte.status1 == false && xte.magnitude == nil && xte.mode == .notValid)
        #expect(decoded(RMB.self, out[.navigation])?.isValid == false)
        #expect(decoded(APB.self, out[.autopilot])?.status1 == false)
        #expect(decoded(BWC.self, out[.waypointGreatCircle])?.waypoint.distance == nil)
    }

    @Test("upstream follow: with no local route, Telltale navigates to the destination a plotter's RMB announces")
    func upstreamFollow() throws {
        var configuration = undampedConfiguration()
        configuration.kinds = [.navigation, .crossTrackError]
        var engine = Engine(configuration: configuration)
        let plotter = engine.source(named: "plotter")
        let here = GeoPoint(latitude: 50.0, longitude: -1.0)
        let rmc = RMC(
            time: UTCTime(hours: 10, minutes: 0, seconds: 0), isValid: true, latitude: here.latitude,
            longitude: here.longitude, speedOverGround: 5, courseOverGround: 0, mode: .autonomous)
        engine.ingest(try rmc.encode(talker: "GP"), from: plotter, at: 0)
        let upstream = RMB(
            isValid: true, crossTrackError: 0, steer: .left, originID: "START", destinationID: "MARK",
            destinationLatitude: 50.02, destinationLongitude: -1.0, range: 1.2, bearingTrue: 0,
            closingVelocity: 5, arrived: false, mode: .autonomous)
        engine.ingest(try upstream.encode(talker: "EC"), from: plotter, at: 0.1)
        let out = tick(&engine, at: 0.2)
        let rmb = try #require(decoded(RMB.self, out[.navigation]))
        #expect(rmb.destinationID == "MARK" && rmb.isValid == true)
        #expect(abs(rmb.range! - 1.2) < 0.05)
        #expect(decoded(XTE.self, out[.crossTrackError])?.magnitude == 0)
    }

    @Test("a reloaded route keeps the active leg when it still exists")
    func reload() {
        var (engine, gps) = Self.engine()
        engine.follow(Self.route, leg: 1)
        _ = Self.sail(&engine, gps, to: GeoPoint(latitude: 50.05, longitude: -0.99), second: 0)
        var extended = Self.route.waypoints
        extended.insert(Waypoint(id: "WP0", position: GeoPoint(latitude: 49.95, longitude: -1)), at: 0)
        engine.replaceRoute(with: Route(waypoints: extended))
        #expect(engine.route.leg == 2)
        engine.replaceRoute(with: Route(waypoints: [extended[0], extended[1]]))
        #expect(engine.route.leg == 0)
    }

    @Test("the Course API's moves: back a leg, a point by index, rejoin from here, reversed, and the arrival circle")
    func courseMoves() throws {
        var (engine, gps) = Self.engine()
        // Nothing without a fix: rejoin and reverse need to know where the boat is.
        #expect(engine.apply(.route(.rejoin), at: 0) == .refused("no position: that needs a current GPS fix"))
        #expect(engine.apply(.route(.back), at: 0) == .refused("the active leg is the first"))
        // 200 m east of the first leg, half way along it.
        let beside = GeoPoint(latitude: 50.025, longitude: -1.0 + 200 / (1852 * 60 * cos(50.025 * .pi / 180)))
        var out = Self.sail(&engine, gps, to: beside, second: 0)
        #expect(abs(try #require(decoded(XTE.self, out[.crossTrackError])?.magnitude) - 200 / 1852) < 0.002)
        // Rejoined: the leg starts where the boat is, so the cross-track error is gone and the origin is the boat.
        #expect(engine.apply(.route(.rejoin), at: 0.5).isDone)
        out = Self.sail(&engine, gps, to: beside, second: 1)
        #expect(try #require(decoded(XTE.self, out[.crossTrackError])?.magnitude) < 0.001)
        #expect(engine.values.navigationLeg?.origin.id == Engine.boatOrigin)
        #expect(decoded(RMB.self, out[.navigation])?.destinationID == "WP2")
        // Point 2 (WP3): the second leg, from WP2.
        #expect(engine.apply(.routePoint(2), at: 1.5) == .done("route: to WP3"))
        out = Self.sail(&engine, gps, to: beside, second: 2)
        #expect(
            decoded(RMB.self, out[.navigation]).map { ($0.originID, $0.destinationID) } ?? ("", "") == ("WP2", "WP3"))
        #expect(engine.values.navigationLeg?.destinationIndex == 2)
        #expect(engine.apply(.routePoint(3), at: 2.5) == .refused("the route's points are 0 to 2"))
        // Back a leg: WP1 to WP2 again.
        #expect(engine.apply(.route(.back), at: 2.6).isDone)
        out = Self.sail(&engine, gps, to: beside, second: 3)
        #expect(decoded(RMB.self, out[.navigation])?.destinationID == "WP2")
        // Reversed on the first leg: back to WP1 (the waypoint last passed), from where the boat is, the route's
        // points counted from its far end.
        #expect(engine.apply(.route(.reverse), at: 3.5) == .done("route reversed: to WP1"))
        out = Self.sail(&engine, gps, to: beside, second: 4, cog: 180)
        let reversed = try #require(engine.values.navigationLeg)
        #expect(reversed.destination.id == "WP1" && reversed.origin.id == Engine.boatOrigin && reversed.isReversed)
        #expect(reversed.destinationIndex == 2 && reversed.waypointCount == 3)
        #expect(try #require(decoded(XTE.self, out[.crossTrackError])?.magnitude) < 0.001)
        // Start goes round the reversed route from its first point; reversed again, forward once more.
        #expect(engine.apply(.route(.start), at: 4.5).isDone)
        #expect(engine.route.route?.waypoints.first?.id == "WP3")
        #expect(engine.apply(.route(.reverse), at: 4.6).isDone)
        _ = Self.sail(&engine, gps, to: beside, second: 5)
        #expect(
            engine.values.navigationLeg?.isReversed == false && engine.values.navigationLeg?.destination.id == "WP3")
        // The arrival circle: inside 1000 m of WP3 counts as arrived (the route's last point: the flag stays set).
        #expect(engine.apply(.arrivalCircle(-1), at: 5.5).isDone == false)
        #expect(engine.apply(.arrivalCircle(Engine.maximumArrivalRadius + 1), at: 5.5).isDone == false)
        #expect(engine.apply(.arrivalCircle(1000), at: 5.5) == .done("arrival circle 1000 m"))
        let near = Geodesic.wgs84.direct(from: Self.route.waypoints[2].position, azimuth: 270, distance: 900).point
        for second in 6..<10 { out = Self.sail(&engine, gps, to: near, second: second, cog: 90) }
        #expect(engine.values.navigationLeg?.arrivalRadius == 1000)
        #expect(decoded(RMB.self, out[.navigation])?.arrived == true)
    }

    @Test("spoken guidance: a mile and two cables before the waypoint with the next course, the new leg named after it")
    func spokenGuidance() {
        var (engine, gps) = Self.engine()
        let wp2 = Self.route.waypoints[1].position
        // Northbound on the first leg, from 1.5 miles out to the waypoint, a fix every 10 s.
        var said: [String] = []
        for (index, miles) in [1.5, 1.2, 1.01, 0.95, 0.6, 0.3, 0.18, 0.1, 0.03, 0.02, 0.01, 0.0].enumerated() {
            let point = Geodesic.wgs84.direct(from: wp2, azimuth: 180, distance: miles * 1852).point
            _ = Self.sail(&engine, gps, to: point, second: index * 10)
            said += engine.takeAnnouncements().map(\.text)
        }
        // Leg 2 runs east from WP2 to WP3: course 090.
        #expect(said.contains("Wp2 in 1.0 miles, next course zero nine zero"), "\(said)")
        #expect(said.contains("Wp2 in 2 cables, next course zero nine zero"), "\(said)")
        #expect(said.contains { $0.hasPrefix("Wp3 next, course zero nine zero, ") }, "\(said)")
        #expect(said.filter { $0.contains("next course") }.count == 2, "each distance once: \(said)")
        #expect(AlarmMonitor.distance(0.95 * 1852) == "1.0 miles" && Engine.threeDigits(45) == "zero four five")
    }

    @Test("spoken guidance: a leg begun inside a distance says nothing late; none configured, nothing said")
    func guidanceNotLate() {
        var (engine, gps) = Self.engine()
        let wp2 = Self.route.waypoints[1].position
        for second in 0..<3 {
            let point = Geodesic.wgs84.direct(from: wp2, azimuth: 180, distance: 0.5 * 1852 - Double(second)).point
            _ = Self.sail(&engine, gps, to: point, second: second * 10)
        }
        #expect(engine.takeAnnouncements().isEmpty)
        var configuration = undampedConfiguration()
        configuration.route.announceDistances = []
        configuration.gatesPositions = false
        var quiet = Engine(configuration: configuration)
        let source = quiet.source(named: "gps")
        quiet.follow(Self.route)
        for (index, miles) in [1.5, 0.9, 0.1].enumerated() {
            let point = Geodesic.wgs84.direct(from: wp2, azimuth: 180, distance: miles * 1852).point
            _ = Self.sail(&quiet, source, to: point, second: index * 10)
        }
        #expect(quiet.takeAnnouncements().isEmpty)
    }
}
