import Engine
import N2K

/// The autopilot's policy, with no I/O (#41, #49): which pilots there are and which is the default, what a command
/// from the Autopilot API means for the pilot it names (in its own terms: a tack onto the polar's angle, a dodge from
/// the target held when it began, a route's next point), when a tack said aloud is sent, when a pilot put in wind mode
/// is given the polar's angle, which pilot the autopilot alarm watches. The shell (the runtime) tells it what it hears
/// of the pilots (``Heard``) and the engine's values, with the time, and carries out what comes back: it writes the
/// messages to the bus or the lines to pypilot (``Delivery``) and says whether they went, says the words aloud, logs,
/// and hands the list to the Signal K server.
///
/// The rules the docs state (docs/nmea2000.md, "Autopilots"), each held here once:
/// - The default pilot is the one the crew chose while it is there, else a maker's pilot before one known only by
///   127237, the lowest address first; NMEA 0183 pilots (outputs marked `autopilot`) are listed last.
/// - A pilot not heard for ``PilotWatch/offlineAfter`` s is `off-line`: said once when it goes and when it comes back;
///   a command to it is refused (409), nothing sent.
/// - A tack or gybe is said aloud ``Settings/turnWarning`` s before it is sent; any other command to the pilot in
///   those seconds calls it off (said); a pilot gone off-line meanwhile gets nothing.
/// - A pilot put in wind mode close-hauled or running is given the polar's angle once it says it is in wind mode,
///   within ``Settings/windTargetWait`` s.
/// - The autopilot alarm watches the pilot last seen steering, else the default one, with whether the crew asked it
///   for standby in the last ``Settings/standbyGrace`` s.
/// - An NMEA 0183 pilot says nothing back: it can be asked the route's next point, nothing else (409, with why).
/// - Nothing is sent of a command the pilot cannot take whole.
public struct AutopilotDesk: Sendable {
    public struct Settings: Sendable {
        /// The outputs an NMEA 0183 pilot listens on (`autopilot = true`), by name.
        public var sentencePilots: [String] = []
        /// Seconds between a tack or gybe said aloud and its command to the pilot.
        public var turnWarning = 5.0
        /// Seconds a pilot put in wind mode has to say it is before the polar's angle is given up.
        public var windTargetWait = 10.0
        /// Seconds after the crew asked a pilot for standby in which its standby is no alarm.
        public var standbyGrace = 5.0

        public init(sentencePilots: [String] = []) { self.sentencePilots = sentencePilots }
    }

    /// What the shell hears of the pilots now: the bus's (``PilotWatch``), pypilot's link when one is configured.
    public struct Heard: Sendable {
        public var bus: PilotWatch
        public var pypilot: PypilotLink?
        public var pypilotConnected: Bool

        public init(bus: PilotWatch = PilotWatch(), pypilot: PypilotLink? = nil, pypilotConnected: Bool = false) {
            self.bus = bus
            self.pypilot = pypilot
            self.pypilotConnected = pypilotConnected
        }
    }

    /// Messages for one pilot, to be written once: the bus's PGNs, or pypilot's lines. The shell sends them and tells
    /// ``delivered(_:sent:at:)`` whether they went.
    ///
    /// A class, made whole where it is decided and never changed after it is handed on: as a struct inside the
    /// replies and actions (enums of several payloads) Swift 6.3's -Osize miscompiled it in the Pi's Embedded build
    /// (its words read back as garbage and the gateway trapped on the first command to a pilot, #49;
    /// Tests/Pi/EmbeddedDesk replays the commands on the Pi build).
    public final class Delivery: Hashable, @unchecked Sendable {
        public enum Messages: Hashable, Sendable {
            case bus([N2KOutbound.Outgoing])
            case pypilot([String])
        }
        public var device: String
        public var messages: Messages
        /// The command in words, for the log and the answer.
        public var words: String
        /// What follows when it went: the pilot was asked for standby; the polar's angle is due once it says wind.
        var standby = false
        var windTarget = false
        /// Why it was sent: the crew's command (answered), a tack's countdown ended, the polar's angle for wind mode.
        var reason: Reason = .command

        init(device: String, messages: Messages, words: String) {
            self.device = device
            self.messages = messages
            self.words = words
        }

        public static func == (a: Delivery, b: Delivery) -> Bool {
            a.device == b.device && a.messages == b.messages && a.words == b.words && a.standby == b.standby
                && a.windTarget == b.windTarget && a.reason == b.reason
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(device)
            hasher.combine(messages)
            hasher.combine(words)
        }

        enum Reason: Hashable, Sendable {
            case command, turn
            case windTarget(trueWindAngle: Double, apparent: Double)
        }
    }

    /// What the shell does besides a command's answer.
    public enum Action: Hashable, Sendable {
        /// Send these messages, then tell ``delivered(_:sent:at:)``.
        case deliver(Delivery)
        /// Said aloud (with `[voice]`) and in the log.
        case say(String)
        case log(Notice)
        /// The pilots as the Autopilot API lists them now (given when the list changed).
        case listed([AutopilotStatus])
        /// For the autopilot alarm, each second: the pilot watched.
        case watch(PilotReport?)
        /// The default pilot's values under `steering.autopilot.*`, each second (a value not refreshed goes stale).
        case defaultPilot(AutopilotStatus)
    }

    /// How a command from the API is answered.
    public enum Reply: Hashable, Sendable {
        case answer(Int, String)
        /// Send it; ``delivered(_:sent:at:)`` gives the answer.
        case deliver(Delivery)
        /// Move the route on to its next point through the engine first; ``routeAdvanced(_:device:heard:at:)`` goes on.
        case advanceRoute(device: String)
    }

    /// A line for the log.
    public struct Notice: Hashable, Sendable {
        public enum Level: Hashable, Sendable { case info, notice, warning }
        public var level: Level
        public var id: String
        public var text: String
        public var pilot: String
    }

    /// A tack or gybe said aloud, waiting for its countdown to end.
    struct PendingTurn: Hashable, Sendable {
        var delivery: Delivery
        var due: Double
    }

    public let settings: Settings
    /// The pilots as last given to the API.
    public internal(set) var listed: [AutopilotStatus] = []
    /// The pilot the crew made the default (the API's `_providers/_default/<id>`); nil: the first listed.
    public internal(set) var chosenDefault: String?
    /// The target each pilot held when a dodge began, by device id.
    var dodges: [String: Double] = [:]
    /// When the crew last asked each pilot for standby.
    var standbyAsked: [String: Double] = [:]
    var pendingTurn: PendingTurn?
    /// A pilot put in wind mode close-hauled or running, waiting to say it is (until the time given).
    var windTargetDue: (device: String, until: Double)?
    /// The pilot last seen steering: the one the autopilot alarm watches.
    var steeringPilot: String?

    public init(settings: Settings) { self.settings = settings }

    /// Once a second: the pilots listed (changes logged), the watched one for the alarm, the default one's values; a
    /// tack whose countdown has ended sent; the polar's angle (from the engine's `values`) for a pilot that now says
    /// it is in wind mode.
    public mutating func second(_ heard: Heard, values: InstrumentValues?, at now: Double) -> [Action] {
        var out: [Action] = []
        list(heard, at: now, &out)
        sendDueTurn(heard, at: now, &out)
        sendWindTarget(heard, values: values, at: now, &out)
        return out
    }
}
