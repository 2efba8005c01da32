import Marine
import NMEA

/// AIS: fragments from any input put together, each message taken into the table of stations, and once a second
/// every station's closest approach judged against the own vessel for the collision and distress alarms.
extension Engine {
    /// A VDM fragment; the own vessel's VDO is not a target. Used when it completed a message.
    mutating func takeAIS(_ fragment: VDM, from source: SourceID, at time: Double) -> IngestOutcome {
        guard !fragment.isOwnVessel else { return .ignored }
        guard let bits = aisAssembler.add(fragment, source: source.index, at: time) else { return .ignored }
        guard let report = AISReport(bits) else { return .ignored }
        ais.take(report, at: time)
        return .used
    }

    /// Once a second: each station's approach, then the AIS alarms. True when one was raised or cleared.
    mutating func judgeTraffic(at now: Double) -> Bool {
        guard !ais.targets.isEmpty, now - lastAISJudgement >= 1 || now < lastAISJudgement else { return false }
        lastAISJudgement = now
        ais.judge(
            own: values.position?.point, course: values.courseOverGround, speed: values.speedOverGround, at: now)
        return alarmMonitor.judgeTraffic(
            ais, bow: values.headingTrue ?? values.courseOverGround, placed: values.position != nil, at: now)
    }

    /// The AIS assembler's and table's counts, for the status line and the log.
    public var aisStatistics: (assembler: AISAssembler.Statistics, messages: Int, implausible: Int, evicted: Int) {
        (aisAssembler.statistics, ais.messages, ais.implausibleFields, ais.evicted)
    }
}
