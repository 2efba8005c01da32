import Marine
import NMEA

/// The start line: its ends pinged from the bow (or set from waypoints), the bow's distance and time to it at each
/// tick, and the over-early alarm at the gun.
extension Engine {
    /// Where the bow is: the fix moved forward along the heading (or, without one, the course over ground) by the
    /// configured distance from the GPS antenna to the bow. Nil without a current fix.
    public var bowPosition: GeoPoint? {
        guard let fix = values.position?.point else { return nil }
        let offset = configuration.bowOffset
        guard offset > 0, let direction = values.headingTrue ?? values.courseOverGround else { return fix }
        return Geodesic.wgs84.direct(from: fix, azimuth: direction, distance: offset).point
    }

    /// Sets one end of the line where the bow is now; false without a current fix.
    @discardableResult
    public mutating func pingStartLine(_ end: StartLine.End) -> Bool {
        guard let bow = bowPosition else { return false }
        switch end {
        case .port: startLine.port = bow
        case .starboard: startLine.starboard = bow
        }
        return true
    }

    /// The line's status at this tick, and the over-early alarm: raised at the gun when the bow is over the line,
    /// cleared when it has come back to the pre-start side (to start again), 2 minutes after the gun, or on a reset.
    mutating func updateStartLine(at now: Double) -> Bool {
        let timeToStart = raceTimer.timeToStart(at: now)
        defer { lastTimeToStart = timeToStart }
        values.startLine = bowPosition.flatMap {
            startLine.status(
                bow: $0, speed: values.speedOverGround, course: values.courseOverGround,
                windDirection: values.trueWindDirection, timeToStart: timeToStart, polar: configuration.polar,
                windSpeed: values.trueWind.map { Units.knots(metresPerSecond: $0.speed) })
        }
        let gun = (lastTimeToStart ?? 0) > 0 && (timeToStart ?? 1) <= 0
        let over = values.startLine?.isOver ?? false
        let back = values.startLine.map { !$0.isOver } ?? false
        let clear = back || timeToStart == nil || (timeToStart ?? 0) < -120
        return alarmMonitor.judgeOverEarly(lineSet: startLine.isComplete, raise: gun && over, clear: clear, at: now)
    }
}

extension SentenceBuilder {
    /// XDR `D,<m>,M,LINEDIST,G,<s>,,LINETIME,G,<s>,,LINEBURN,A,<deg>,D,LINEBIAS`: the bow's distance to the start line
    /// (negative over it), time to it, time to burn, and the line's bias (positive: starboard end favoured).
    static func startLine(_ v: InstrumentValues, talker: Talker) -> Sentence? {
        guard let line = v.startLine else { return nil }
        var xdr = InlineXDR(metres(line.distance, "LINEDIST"), seconds(line.timeToLine, "LINETIME"))
        xdr.append(seconds(line.timeToBurn, "LINEBURN"))
        xdr.append(.angle(line.bias, name: "LINEBIAS"))
        return try? xdr.encode(talker: talker)
    }
}
