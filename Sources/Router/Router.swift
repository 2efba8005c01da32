import Engine
import Marine
import NMEA

/// The gateway's routing policy as one pure state machine, in the style of swift-nio's sans-I/O handlers, and the
/// one door to the engine: events in (a sentence from an input, an IMU sample, a fix, a tick, a client connected or
/// gone, a crew's command, the clock, a route), actions out (a sentence for output i, a refused input, what the
/// engine now holds, something to say aloud, a notice).
///
/// Pass-through with its 82-byte rule, echo recognition, per-output address filters, rate limits per sentence kind,
/// talker and attitude variants, and every counter live here. `telltale run` and `telltale replay` drive the same
/// router, on the wall clock and on the log's clock: time is always an argument, so a replay gives the same bytes
/// every time. The router owns the engine, privately: the shell reaches it through these events alone, and nothing
/// here calls back into the shell.
public struct Router {
    /// What the shell must do.
    public enum Action {
        /// Write `sentence` to output `output` (an index into ``outputs``).
        case send(output: Int, sentence: Sentence, computed: Bool)
        /// An input sentence was refused by the engine (unreadable or implausible), for the shell's log, with the
        /// input's name (the shell cannot ask the router while it acts).
        case refused(sentence: Sentence, source: SourceID, error: DecodeError, input: String)
        /// Something the log should say: about output `output` (a client connected or gone, with the count now), or
        /// the engine's (a fallback taken, a value clamped) when `output` is nil. `id` names the kind of message, so
        /// that one kind held back does not hide another.
        case notice(output: Int?, id: String, text: String)
        /// The engine took an input sentence as good (neither refused nor an echo), decoded once: for the Signal K
        /// model. Only when ``observes`` is on.
        case observed(ObservedSentence)
        /// A fix that did not come as NMEA (gpsd), taken: for the Signal K model. Only when ``observes`` is on.
        case observedFix(fix: Fix, motion: GroundMotion?, source: SourceID, time: Double, unixTime: Double)
        /// A fix that did not come as NMEA (gpsd) refused: no boat could have reached it from the one before.
        case refusedFix(fix: Fix, source: SourceID, input: String)
        /// What the engine holds after a tick.
        case report(EngineReport)
        /// Something to be said aloud, due at its engine time.
        case announce(Announcement)
        /// The engine wants the tide and current stations near this place (``setTides(_:)`` hands them over).
        case tides(near: GeoPoint)
        /// An input's lines could not be read for a while, or can again (``InputHealth``): for the log and Signal K.
        case input(source: SourceID, name: String, change: InputHealth.Change, time: Double, unixTime: Double)
    }

    /// A sentence the engine took, with its message and when it came.
    public struct ObservedSentence: Sendable {
        public var sentence: Sentence
        public var message: Message
        public var source: SourceID
        /// Engine seconds, and the UTC instant they stand for.
        public var time: Double
        public var unixTime: Double
    }

    public struct Counters: Hashable, Sendable {
        public var sentencesIn = 0
        /// Lines the inputs' framers refused (bad checksum, too long, not NMEA).
        public var rejected = 0
        /// Input sentences that went out to at least one output (or would have: those with no output counted too).
        public var passedThrough = 0
        /// Inputs over 82 bytes re-encoded to fit before going out.
        public var shortened = 0
        /// Inputs over 82 bytes that could not be shortened and went nowhere.
        public var tooLong = 0
        public var computed = 0
        /// Sentences handed to outputs, over all outputs.
        public var sentencesOut = 0
        public var invalid = 0
        /// Of the invalid: values that cannot be physically true.
        public var implausible = 0
        /// The gateway's own sentences, and pass-through coming back on another input.
        public var echoes = 0
        public var rateLimited = 0
        /// Sentences not prepared for an output that serves clients while none was connected.
        public var noClient = 0
        /// Times the route file was read again because it changed.
        public var routeReloads = 0
        /// Commands carried out and refused.
        public var commands = 0
        public var commandsRefused = 0
    }

    /// Per input: what it delivered (sentences, samples, fixes) and what of it was implausible.
    public struct SourceCounts: Hashable, Sendable {
        public var received = 0
        public var implausible = 0

        public init() {}
    }

    var engine: Engine
    public let outputs: [OutputPolicy]
    public internal(set) var counters = Counters()
    /// Per input, by ``SourceID/index``.
    public internal(set) var sources: [SourceCounts] = []
    var limiters: [RateLimiter]
    /// Per output, the sources never passed on to it (``OutputPolicy/excludedSources``, and the sources of its
    /// ``OutputPolicy/excludedInputs`` as they register).
    var excluded: [Set<SourceID>]
    /// Pass-through recently sent, with the input it came from: the same bytes arriving on another input within
    /// `passThroughEchoWindow` are a peer echoing them back.
    var sentPassThrough: [(hash: UInt64, source: SourceID, time: Double)]
    var nextPassThrough = 0
    let passThroughEchoWindow: Double
    var due: [(ComputedKind, Sentence)] = []
    let anyPassThrough: Bool
    /// Clients connected to each output that serves them.
    public internal(set) var clients: [Int]
    /// The alarm revision of the last report: the list goes out again only when it has changed.
    var reportedAlarms: Int?
    var reportedTraffic: Int?
    var reportedTrack: Int?
    var reportedWeather: Int?
    var trackReportedAt = -Double.infinity
    /// Whether each input's lines can be read.
    public internal(set) var health = InputHealth()
    /// Say each sentence and fix the engine took (``Action/observed(_:)``): on when a Signal K model listens.
    public var observes = false

    /// - Parameter echoWindow: seconds a pass-through sentence is remembered; 0 turns pass-through echo
    ///   recognition off (a replay, where nothing sent can come back).
    public init(engine: Engine, outputs: [OutputPolicy], echoWindow: Double = 2) {
        self.engine = engine
        self.outputs = outputs
        limiters = outputs.map { RateLimiter(limits: $0.rateLimits) }
        excluded = outputs.map { $0.excludedSources }
        anyPassThrough = outputs.contains { $0.passThrough }
        passThroughEchoWindow = echoWindow
        clients = Array(repeating: 0, count: outputs.count)
        sentPassThrough = Array(repeating: (0, SourceID(0), -.infinity), count: echoWindow > 0 ? 256 : 0)
        due.reserveCapacity(ComputedKind.allCases.count)
    }

    /// The identifier of the input called `name`, registered on first use.
    public mutating func source(named name: String) -> SourceID {
        let source = engine.source(named: name)
        while sources.count <= source.index { sources.append(SourceCounts()) }
        for index in outputs.indices where Self.names(name, any: outputs[index].excludedInputs) {
            excluded[index].insert(source)
        }
        return source
    }

    /// Whether source `name` is input `input` or one of its devices (`input:...`), for some input of `inputs`.
    static func names(_ name: String, any inputs: [String]) -> Bool {
        let bytes = Array(name.utf8)
        for input in inputs {
            let prefix = Array(input.utf8)
            guard bytes.count >= prefix.count, Array(bytes[0..<prefix.count]) == prefix else { continue }
            if bytes.count == prefix.count || bytes[prefix.count] == UInt8(ascii: ":") { return true }
        }
        return false
    }

    /// The source the engine uses now for `group`, if any.
    public func chosenSource(_ group: QuantityGroup) -> SourceID? { engine.chosenSource(group) }

    /// The name an input was registered under.
    public func name(of source: SourceID) -> String { engine.name(of: source) }

    /// UNIX seconds at engine time `time`: the GNSS clock once a fix with a date has set it, else the clock the
    /// shell gave (``setClock(unixTime:at:)``), else the engine time itself. The one place that decides it.
    public func unixTime(at time: Double) -> Double { engine.unixTime(at: time) ?? time }

    /// Whether that clock is the fixes' own (GNSS time, or a replay's), not the system's.
    public var clockFromFixes: Bool { engine.clockFromFixes }

    /// Which source each group currently uses, for the log's summary.
    public var chosenSources: [String: String] { engine.chosenSources }

    /// Per output, the sentences its rate limits held back.
    public var rateLimitedPerOutput: [Int] { limiters.map { $0.limited } }

    mutating func count(_ source: SourceID, implausible: Bool = false) {
        while sources.count <= source.index { sources.append(SourceCounts()) }
        if implausible { sources[source.index].implausible += 1 } else { sources[source.index].received += 1 }
    }
}
