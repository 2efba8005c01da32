import Engine
import Marine

/// `[route_following]`: arriving, advancing, looking ahead and what is said on the way.
extension ConfigurationFile.Reader {
    func routeFollowing(_ table: TOMLTable, _ engine: inout EngineConfiguration) throws(ConfigurationFile.Error) {
        let s = "route_following"
        try check(
            table, s,
            allowed: [
                "arrival_radius", "confirmations", "auto_advance", "look_ahead", "max_intercept_angle",
                "follow_upstream", "announce",
            ])
        if let value = try number(table, "arrival_radius", s, range: 0.001...10) {
            engine.route.arrivalRadius = value * Units.metresPerNauticalMile
        }
        if let value = try number(table, "confirmations", s, range: 1...60) {
            engine.route.arrivalConfirmations = Int(value)
        }
        if let value = try bool(table, "auto_advance", s) { engine.route.autoAdvance = value }
        if let value = try number(table, "look_ahead", s, range: 0.001...10) {
            engine.route.lookAhead = value * Units.metresPerNauticalMile
        }
        if let value = try number(table, "max_intercept_angle", s, range: 0...90) {
            engine.route.maximumInterceptAngle = value
        }
        if let value = try bool(table, "follow_upstream", s) { engine.followUpstream = value }
        if let miles = try numbers(table, "announce", s, range: 0.01...20) {
            guard miles.count <= 8 else { throw fail(s + ".announce", "at most 8 distances") }
            engine.route.announceDistances = miles.map { $0 * Units.metresPerNauticalMile }
        }
    }
}
