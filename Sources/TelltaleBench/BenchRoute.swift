import ArgumentParser
import Engine
import Marine

extension Bench {
    /// `telltale-bench route`: one route-follower update on a 500-waypoint route.
    struct RouteTick: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "route",
            abstract: "Time one route-follower update (all the navigation geometry) on a 500-waypoint route.")

        @Option(help: "Updates to run.")
        var updates = 200_000

        @Option(help: "Waypoints in the generated route.")
        var waypoints = 500

        func validate() throws {
            // The update is timed on the middle leg of the route: it needs a leg before it and one after.
            guard waypoints >= 4 else { throw ValidationError("--waypoints must be at least 4") }
            guard updates >= 1 else { throw ValidationError("--updates must be at least 1") }
        }

        func run() throws {
            // A zig-zag coastal route of 2 NM legs.
            var points: [Waypoint] = []
            var position = GeoPoint(latitude: 50.0, longitude: -4.0)
            for index in 0..<waypoints {
                points.append(Waypoint(id: "WP\(index)", position: position))
                let leg = Geodesic.wgs84.direct(
                    from: position, azimuth: index % 2 == 0 ? 60 : 100, distance: 2 * 1852)
                position = leg.point
            }
            let route = Route(name: "bench", waypoints: points)
            var follower = RouteFollower()
            follower.start(route, leg: waypoints / 2)
            // A boat sailing along the active leg, 40 m off it, fix by fix.
            let origin = route.waypoints[waypoints / 2].position
            let azimuth = route.legAzimuths[waypoints / 2]
            var checksum = 0.0
            let count = max(updates, 1)
            var fixes: [GeoPoint] = []
            for index in 0..<1000 {
                let along = Geodesic.wgs84.direct(from: origin, azimuth: azimuth, distance: Double(index))
                fixes.append(Geodesic.wgs84.direct(from: along.point, azimuth: azimuth + 90, distance: 40).point)
            }
            let start = monotonicSeconds()
            for index in 0..<count {
                if let solution = follower.update(
                    position: fixes[index % fixes.count], speedOverGround: 3, courseOverGround: azimuth,
                    fixTime: Double(index))
                {
                    checksum += solution.crossTrack
                }
            }
            let nanoseconds = (monotonicSeconds() - start) / Double(count) * 1e9
            Console.out(
                "\(count) updates on a \(waypoints)-waypoint route: \(format(nanoseconds, decimals: 0)) ns each "
                    + "(mean XTE \(format(checksum / Double(count), decimals: 1)) m)\n")
        }
    }
}
