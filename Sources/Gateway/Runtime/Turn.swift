import Engine
import Marine
import NMEA
import Platform
import SignalK

/// What a service has for the runtime: its only way to be heard. Every event goes to the runtime's one dispatcher
/// (``Runtime/dispatch(_:)``), which routes it: into the router, to the settings, the charts, the uploads, the
/// access registry, back to the service that asked.
enum ServiceEvent {
    /// An input's sentence, fix, IMU sample, button press or lap.
    case input(InputEvent, from: InputService.Input)
    /// A sentence made from a message of the NMEA 2000 bus, and the device that sent it (`n2k:<NAME>`).
    case bus(Sentence, device: String)
    /// A client of output `output` came or went.
    case client(output: Int, ClientChange)
    /// The engine's tick is due.
    case tick
    /// Once a second: the summary, the route file, the status line, the weather's judgement.
    case housekeeping
    /// A web request only the shell can answer (a command, the settings, a chart's tile, an upload, the access
    /// registry to keep): answered through ``WebService/answer(_:_:now:unixTime:)``.
    case request(SignalKServer.ShellRequest)
    /// The forecasts on board, when they change.
    case forecast(Forecast)
    /// The tide and current stations near the boat, found when the engine asked.
    case tides(TideStations)
    /// The weather router's child process ended: its plan (or why not) is in ``RoutingService/state``.
    case routed
    /// A command from shore, signed and checked by the uplink: answered through ``UplinkService/commandDone(_:at:)``.
    case shoreCommand(EngineCommand)
    /// A calibration learnt from sailing applied (by the crew, or by itself): the engine corrects by it from now on.
    case calibrated(SailingCalibration)
}

/// One turn of the loop as the services see it: the time, what `poll` said, how much work they may do before the
/// inputs must be read again, and the events they emit. The runtime keeps one and reuses it, turn after turn.
struct Turn {
    /// The monotonic time of the turn, and the UTC it stands for (the router's clock).
    var now = 0.0
    var unixTime = 0.0
    var polled = PollSet()
    var budget = TurnBudget()
    /// What the service being serviced said, for the dispatcher (emptied after each service).
    var events: [ServiceEvent] = []

    init() { events.reserveCapacity(64) }

    mutating func emit(_ event: ServiceEvent) { events.append(event) }
}

/// How long a service's work may go on: until an input has a sentence waiting, or (asked with `includingDue`) an
/// input or the tick comes due. The web server asks between one client and the next, so a crowd of phones never holds
/// a sentence back for more than one client's work. Unbounded where nothing waits (`telltale fleet`).
package struct TurnBudget {
    /// This turn's input descriptors, polled again (without waiting) when asked.
    var inputs = PollSet(capacity: 16)
    /// The earliest an input or the tick is due.
    var due = Double.infinity
    var unbounded = false

    package static var always: TurnBudget {
        var budget = TurnBudget()
        budget.unbounded = true
        return budget
    }

    /// Whether the work should stop for the inputs now.
    mutating func isSpent(includingDue: Bool = false) -> Bool {
        guard !unbounded else { return false }
        if includingDue && POSIX.monotonic() >= due { return true }
        return inputs.anyReady()
    }
}

/// The boat's values in Signal K form, one model for the whole gateway: fed by the runtime's dispatcher from the
/// router's actions, read by the services that serve it (the web server, the uplink). The runtime owns it; a
/// service holds it only to read it.
final class BoatState {
    var feed: SignalKFeed

    init(feed: SignalKFeed) { self.feed = feed }

    var model: SignalKModel { feed.model }
}
