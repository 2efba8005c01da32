import Marine

/// What the engine holds after a tick, as the router hands it out: the derived values, the alarm list when it has
/// changed, the race timer. The Signal K model, the panel and the status line read this, never the engine.
public struct EngineReport: Sendable {
    /// Engine seconds of the tick, and the UTC instant it stands for (UNIX seconds).
    public var time: Double
    public var unixTime: Double
    public var values: InstrumentValues
    /// The listed alarms, when the list changed since the last report (raised, cleared, acknowledged, listed,
    /// reworded); nil when it is as before.
    public var alarms: [AlarmStatus]?
    /// Seconds to the start gun, negative after it; nil when the timer is idle.
    public var timeToStart: Double?
    /// The AIS stations, when the table changed since the last report (a message taken, the approaches judged
    /// once a second, a station forgotten); nil when it is as before.
    public var traffic: [AISTarget]?
    /// The track, when it changed since the last report (a point kept, thinned or cleared); nil when as before.
    public var track: TrackLog?
    /// The route followed (its waypoints, in the order sailed), nil when none.
    public var route: Route?
    /// The weather page's report, when a new one was made since the last report; nil when as before.
    public var weather: WeatherReport?
    /// The sources the wind, the heading and the attitude come from now (a bus's values are not sent back to it).
    public var windSource: SourceID?
    public var headingSource: SourceID?
    public var attitudeSource: SourceID?

    public init(
        time: Double, unixTime: Double, values: InstrumentValues, alarms: [AlarmStatus]?, timeToStart: Double?
    ) {
        self.time = time
        self.unixTime = unixTime
        self.values = values
        self.alarms = alarms
        self.timeToStart = timeToStart
    }
}

extension Engine {
    /// The report of the tick at `time`; `alarmsSince`, `trafficSince` and `trackSince` are the alarm, AIS and
    /// track revisions the consumer last saw (each is included when it has changed since).
    public func report(
        at time: Double, alarmsSince revision: Int?, trafficSince traffic: Int? = nil, trackSince track: Int? = nil,
        weatherSince weather: Int? = nil
    ) -> EngineReport {
        var report = EngineReport(
            time: time, unixTime: unixTime(at: time) ?? time, values: values,
            alarms: revision == alarmMonitor.revision ? nil : alarmMonitor.statuses,
            timeToStart: raceTimer.timeToStart(at: time))
        if traffic != ais.revision { report.traffic = ais.targets }
        if track != self.track.revision { report.track = self.track }
        report.route = self.route.route
        if weather != self.weather.reportRevision { report.weather = self.weather.report }
        report.windSource = chosenSource(.wind)
        report.headingSource = chosenSource(.heading)
        report.attitudeSource = chosenSource(.attitude)
        return report
    }

    /// Counts every change of the alarm list (``AlarmMonitor/revision``).
    public var alarmRevision: Int { alarmMonitor.revision }
}
