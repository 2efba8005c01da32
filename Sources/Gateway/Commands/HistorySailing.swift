import Marine
import Platform
import SignalK

/// Seconds of sailing read from the history on the card (``HistoryStore``'s day files), for the calibration learner
/// on board: the boat's own blocks, a second at a time, with the apparent wind, the log, the heading and the fix all
/// there. The history keeps the model's values, so with a calibration applied they are calibrated: what is learnt from
/// them is what is left to correct, composed with the applied one (``SailingCalibration/then(_:)``).
public enum HistorySailing {
    /// The samples of the day files in `folder` of the last `days` days of the history (counted back from its newest
    /// day, on the history's own clock: the boat's GNSS time, which a replayed log or a Pi's unset clock can put far
    /// from the system's), and none before `since` (UNIX seconds on that clock: when the calibration now applied was
    /// applied, so that what is learnt rests on values it corrected alone, never on a mix of before and after).
    public static func samples(folder: String, days: Double, since: Double? = nil) -> [SailingSample] {
        let names = POSIX.list(folder).filter { $0.hasSuffix(".tth") && $0.count >= 10 }.sorted()
        guard let newest = names.last, let day = SignalKTime.unixTime(String(newest.prefix(10)) + "T00:00:00Z") else {
            return []
        }
        let from = max(day + 86_400 - days * 86_400, since ?? -Double.infinity)
        let catalog = HistoryBlock.series
        func index(_ path: String) -> Int? { catalog.firstIndex { $0.path == path } }
        guard let cog = index("navigation.courseOverGroundTrue"), let sog = index("navigation.speedOverGround"),
            let heading = index("navigation.headingTrue"), let stw = index("navigation.speedThroughWater"),
            let awa = index("environment.wind.angleApparent"), let aws = index("environment.wind.speedApparent")
        else { return [] }
        let roll = index("navigation.attitude.roll")
        let first = String(SignalKTime.text(unixTime: from).prefix(10))
        var out: [SailingSample] = []
        for name in names where String(name.prefix(10)) >= first {
            guard let bytes = try? POSIX.map(folder + "/" + name, limit: 256 << 20) else { continue }
            HistoryBlock.blocks(bytes, catalog: catalog) { block in
                guard block.context == nil, Double(block.minute) * 60 >= from else { return }
                for second in 0..<60 {
                    func value(_ i: Int) -> Double? { i < block.values.count ? block.values[i][second] : nil }
                    guard Double(block.minute * 60 + Int64(second)) >= from, let a = value(awa), let s = value(aws),
                        let w = value(stw), let h = value(heading)
                    else { continue }
                    out.append(
                        SailingSample(
                            time: Double(block.minute * 60) + Double(second), awa: Angle.relative(Angle.degrees(a)),
                            aws: Units.knots(metresPerSecond: s), stw: Units.knots(metresPerSecond: w),
                            heading: Angle.direction(Angle.degrees(h)), cog: value(cog).map { Angle.degrees($0) },
                            sog: value(sog).map { Units.knots(metresPerSecond: $0) },
                            heel: roll.flatMap { value($0) }.map { Angle.degrees($0) }))
                }
            }
            POSIX.unmap(bytes)
        }
        return out.sorted { $0.time < $1.time }
    }
}
