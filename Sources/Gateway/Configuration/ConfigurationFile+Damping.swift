import Engine
import Marine

/// `[damping]`: how much each computed value is smoothed, seconds.
extension ConfigurationFile.Reader {
    func damping(_ table: TOMLTable, _ damping: inout Damping) throws(ConfigurationFile.Error) {
        // Setters rather than key paths: the Pi build (Embedded Swift) has no key paths.
        try numbers(
            table, "damping", range: 0...600, into: &damping,
            [
                ("apparent_wind", { $0.apparentWind = $1 }), ("true_wind", { $0.trueWind = $1 }),
                ("wind_direction", { $0.windDirection = $1 }), ("speed_through_water", { $0.speedThroughWater = $1 }),
                ("heading", { $0.heading = $1 }), ("speed_over_ground", { $0.speedOverGround = $1 }),
                ("course_over_ground", { $0.courseOverGround = $1 }), ("windward_speed", { $0.windwardSpeed = $1 }),
                ("mean_heel", { $0.meanHeel = $1 }),
            ])
    }

    /// A table of numbers, each within `range`, each set on `value` by its setter; no other key allowed.
    func numbers<Value>(
        _ table: TOMLTable, _ section: String, range: ClosedRange<Double>, into value: inout Value,
        _ keys: [(String, (inout Value, Double) -> Void)]
    ) throws(ConfigurationFile.Error) {
        try check(table, section, allowed: Set(keys.map { $0.0 }))
        for (key, set) in keys {
            if let number = try number(table, key, section, range: range) { set(&value, number) }
        }
    }
}
