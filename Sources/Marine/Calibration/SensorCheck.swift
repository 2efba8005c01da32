/// Sensors that cannot be learnt from: a wind angle or a log stuck at one value while the boat sails, a compass that
/// jumps. Each is said in words; the learner then learns nothing.
public enum SensorCheck {
    public static func faults(_ samples: [SailingSample]) -> [String] {
        // Only the seconds she is moving over the ground, or (with no fixes) through the water, count.
        let moving = samples.filter { ($0.sog ?? $0.stw) >= 2 }
        guard moving.count >= 300 else { return [] }
        var faults: [String] = []
        if let value = stuck(moving.map { $0.awa }) {
            faults.append("the wind angle is stuck at \(FixedDecimal.text(value, decimals: 0))°")
        }
        if moving.contains(where: { $0.sog != nil }), let value = stuck(moving.map { $0.stw }) {
            faults.append("the log is stuck at \(value) kn while the boat moves over the ground")
        }
        var jumps = 0
        for i in moving.indices.dropFirst().dropLast()
        where moving[i + 1].time - moving[i - 1].time <= 3 {
            let off = abs(Angle.difference(from: moving[i - 1].heading, to: moving[i].heading))
            let back = abs(Angle.difference(from: moving[i - 1].heading, to: moving[i + 1].heading))
            if off > 45 && back < 15 { jumps += 1 }
        }
        if jumps * 100 > moving.count {
            faults.append("the compass jumps (\(jumps) headings off by more than 45° for a second)")
        }
        return faults
    }

    /// The value that nine in ten of `values` have, if one does.
    static func stuck(_ values: [Double]) -> Double? {
        var counts: [Double: Int] = [:]
        for value in values { counts[value, default: 0] += 1 }
        guard let (value, count) = counts.max(by: { $0.value < $1.value }), count * 10 >= values.count * 9 else {
            return nil
        }
        return value
    }
}
