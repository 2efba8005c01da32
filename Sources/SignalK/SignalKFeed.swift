import Engine
import NMEA
import Router

/// The Signal K model fed from the router's actions, one way for `telltale run` and for `telltale replay --signalk`:
/// each sentence and fix the engine took goes in as it comes; after each tick, the engine's derived values go in at
/// the configured rate, and at once when the alarm list changed; values past their timeout are withdrawn. What the
/// model then owes its clients is taken with ``takeUpdates()``. Pure: the times come with the actions.
public struct SignalKFeed: Sendable {
    public private(set) var model: SignalKModel
    /// Updates a second of the derived values.
    public let updateRate: Double
    private var nextUpdate = -Double.infinity
    /// The alarm list as last reported (a report carries it only when it has changed).
    private var alarms: [AlarmStatus] = []
    /// Input names by source index, for the `$source` of passed-through values.
    private var names: [String] = []

    public init(model: SignalKModel, updateRate: Double, heelAlarms: (over: Double?, under: Double?) = (nil, nil)) {
        self.model = model
        self.updateRate = max(updateRate, 0.001)
        self.model.setHeelAlarm(over: heelAlarms.over, under: heelAlarms.under)
    }

    /// The name input `source` has in `$source` (`instruments` becomes `instruments.WI`).
    public mutating func name(_ source: SourceID, _ name: String) {
        while names.count <= source.index { names.append("?") }
        names[source.index] = name
    }

    private func name(of source: SourceID) -> String { source.index < names.count ? names[source.index] : "?" }

    /// Takes one of the router's actions; those that carry nothing for Signal K are passed over.
    public mutating func take(_ action: Router.Action) {
        switch action {
        case .observed(let observed):
            let talker = observed.sentence.address.talker.map { $0.description } ?? "P"
            model.observe(
                observed.message, talker: talker, input: name(of: observed.source), at: observed.time,
                unixTime: observed.unixTime)
        case .observedFix(let fix, let motion, let source, let time, let unixTime):
            model.observe(fix: fix, motion: motion, input: name(of: source), at: time, unixTime: unixTime)
        case .report(let report):
            take(report)
        case .input(_, let name, let change, let time, let unixTime):
            model.input(name, change, at: time, unixTime: unixTime)
        case .send, .refused, .refusedFix, .notice, .announce, .tides:
            break
        }
    }

    /// What the engine holds after a tick: in at the update rate, or at once when an alarm changed.
    private mutating func take(_ report: EngineReport) {
        if let targets = report.traffic { model.take(traffic: targets, at: report.time, unixTime: report.unixTime) }
        if let track = report.track {
            model.track = track
            model.trackClockOffset = report.unixTime - report.time
        }
        model.swingFrom = report.values.anchor?.trackFrom
        model.route = report.route
        if let weather = report.weather { model.weather = weather }
        var alarmsChanged = false
        if let changed = report.alarms {
            alarms = changed
            alarmsChanged = true
        }
        guard report.time >= nextUpdate || alarmsChanged else { return }
        model.update(
            report.values, alarms: alarms, timeToStart: report.timeToStart, at: report.time,
            unixTime: report.unixTime)
        model.take(forecast: report.values.forecast, at: report.values.position?.point, unixTime: report.unixTime)
        model.expire(at: report.time, unixTime: report.unixTime)
        if report.time >= nextUpdate { nextUpdate = max(nextUpdate + 1 / updateRate, report.time) }
    }

    /// The updates made since the last call, in order.
    public mutating func takeUpdates() -> [SignalKModel.Update] { model.takeUpdates() }

    /// The AIS stations' deltas made since the last call.
    public mutating func takeTrafficDeltas() -> [SignalKTraffic.Delta] { model.takeTrafficDeltas() }

    /// The default autopilot's status, under `steering.autopilot.*` (#41).
    public mutating func take(autopilot status: AutopilotStatus, at time: Double, unixTime: Double) {
        model.take(autopilot: status, at: time, unixTime: unixTime)
    }
}
