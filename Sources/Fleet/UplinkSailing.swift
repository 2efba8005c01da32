import Marine
import SignalK

/// A boat's sailing from what she sent ashore (the position and wind groups' ``UplinkSample``s): a ``SailingSample``
/// at each apparent wind angle she sent, with her apparent wind speed, heading, speed through the water, and course
/// and speed over ground, each the nearest of its path within `within` seconds (a sample lacking one is left out), and
/// her heel when she sent her attitude (the learner then allows for the masthead unit's tilt and the leeway, as on
/// board: without it, a beat's true wind angle comes out narrower by the leeway and its speeds some 4 % fast).
/// Signal K's radians and metres a second become degrees and knots. What the class polar ashore reads
/// (``PolarLearner`` over every boat of a class).
public enum UplinkSailing {
    static let paths = [
        "environment.wind.angleApparent", "environment.wind.speedApparent", "navigation.headingTrue",
        "navigation.speedThroughWater", "navigation.courseOverGroundTrue", "navigation.speedOverGround",
        "navigation.attitude",
    ]

    public static func samples(_ uplink: [UplinkSample], within: Double = 15) -> [SailingSample] {
        // Each path's values in time order (numbers only: a value that cannot be true is left out).
        var series = [[(time: Double, value: Double)]](repeating: [], count: paths.count)
        for sample in uplink {
            guard let index = paths.firstIndex(of: sample.path), let time = SignalKTime.unixTime(sample.timestamp),
                time.isFinite
            else { continue }
            switch sample.value {
            case .number(let value) where value.isFinite: series[index].append((time, value))
            case .attitude(let roll?, _, _) where roll.isFinite && abs(roll) < 1.6: series[index].append((time, roll))
            default: continue
            }
        }
        for index in series.indices { series[index].sort { $0.time < $1.time } }
        var cursors = [Int](repeating: 0, count: paths.count)
        func nearest(_ index: Int, _ time: Double) -> Double? {
            let list = series[index]
            while cursors[index] + 1 < list.count && list[cursors[index] + 1].time <= time { cursors[index] += 1 }
            var best: (Double, Double)?
            for candidate in [cursors[index], cursors[index] + 1] where candidate < list.count {
                let gap = abs(list[candidate].time - time)
                if gap <= within && (best.map { gap < $0.0 } ?? true) { best = (gap, list[candidate].value) }
            }
            return best?.1
        }
        var out: [SailingSample] = []
        for (time, angle) in series[0] {
            guard out.last.map({ time > $0.time }) ?? true, abs(angle) <= Double.pi + 1e-9,
                let aws = nearest(1, time), let heading = nearest(2, time), let stw = nearest(3, time),
                aws >= 0, aws < 100, stw >= 0, stw < 40
            else { continue }
            let cog = nearest(4, time)
            let sog = nearest(5, time)
            let heel = nearest(6, time)
            out.append(
                SailingSample(
                    time: time, awa: Angle.relative(Angle.degrees(angle)),
                    aws: Units.knots(metresPerSecond: aws), stw: Units.knots(metresPerSecond: stw),
                    heading: Angle.direction(Angle.degrees(heading)),
                    cog: cog.map { Angle.direction(Angle.degrees($0)) },
                    sog: sog.map { Units.knots(metresPerSecond: $0) },
                    heel: heel.map { Angle.degrees($0) }))
        }
        return out
    }
}
