import Marine
import NMEA

/// The fixed-rate core: observations in, computed sentences out, deterministically.
///
/// The shell feeds every sentence an input delivers with ``ingest(_:from:at:)`` and calls ``tick(at:emit:)`` at the
/// engine rate. Time is a number of seconds on a monotonic clock (the replay clock in a replay); nothing here reads
/// a clock, so the same inputs at the same times give the same bytes.
public struct Engine: Sendable {
    /// What happened to an ingested sentence.
    public enum IngestOutcome: Hashable, Sendable {
        /// Its values were taken.
        case used
        /// Decoded, but it carries nothing the engine derives from (or says its data is invalid).
        case ignored
        /// One of the gateway's own sentences coming back.
        case echo
        /// A type the engine does not decode; outputs may still pass it through.
        case unsupported
        /// A field could not be read; it must not be passed on.
        case invalid(DecodeError)
    }

    /// Counts since start.
    public struct Counters: Hashable, Sendable {
        public var used = 0
        public var ignored = 0
        public var echoes = 0
        public var unsupported = 0
        public var invalid = 0
        public var computed = 0
    }

    public let configuration: EngineConfiguration
    public private(set) var counters = Counters()
    /// The values of the last tick.
    public private(set) var values = InstrumentValues()

    private var sourceNames: [String] = []
    private var inputs: InstrumentInputs
    private var derivation: WindDerivation
    private var echoFilter: EchoFilter
    private var nextDue: [Double]
    /// Per ``ComputedKind`` raw value: built or not, and every how many seconds (no hashing on the tick path).
    private let enabled: [Bool]
    private let intervals: [Double]

    public init(configuration: EngineConfiguration = EngineConfiguration()) {
        self.configuration = configuration
        var names: [String] = []
        for group in QuantityGroup.allCases {
            for name in configuration.priorities[group] ?? [] where !names.contains(name) { names.append(name) }
        }
        sourceNames = names
        let resolved = names
        inputs = InstrumentInputs(configuration: configuration) { group in
            (configuration.priorities[group] ?? []).compactMap { name in
                resolved.firstIndex(of: name).map(SourceID.init)
            }
        }
        derivation = WindDerivation(damping: configuration.damping)
        echoFilter = EchoFilter(window: configuration.echoWindow)
        nextDue = Array(repeating: -.infinity, count: ComputedKind.allCases.count)
        enabled = ComputedKind.allCases.map { configuration.kinds.contains($0) }
        intervals = ComputedKind.allCases.map { max(configuration.interval(of: $0), 0.001) }
    }

    /// The identifier of the input called `name`, created on first use.
    public mutating func source(named name: String) -> SourceID {
        if let index = sourceNames.firstIndex(of: name) { return SourceID(index) }
        sourceNames.append(name)
        return SourceID(sourceNames.count - 1)
    }

    /// The name an input was registered under.
    public func name(of source: SourceID) -> String { sourceNames[source.index] }

    /// Takes one sentence from an input.
    @discardableResult
    public mutating func ingest(_ sentence: Sentence, from source: SourceID, at time: Double) -> IngestOutcome {
        if echoFilter.isEcho(sentence, at: time) {
            counters.echoes += 1
            return .echo
        }
        let message: Message
        do {
            message = try Message(sentence)
        } catch {
            if case .unsupported = error {
                counters.unsupported += 1
                return .unsupported
            }
            counters.invalid += 1
            return .invalid(error)
        }
        if inputs.record(message, source: source, at: time) {
            counters.used += 1
            return .used
        }
        counters.ignored += 1
        return .ignored
    }

    /// Takes an attitude measured by the gateway's own IMU.
    public mutating func ingest(_ attitude: Attitude, from source: SourceID, at time: Double) {
        inputs.attitude.record(Observation(value: attitude, time: time, source: source))
    }

    /// Remembers a sentence an output sent (a pass-through or a per-output variant), so that it is recognised if
    /// it comes back. Computed sentences are remembered by ``tick(at:emit:)`` itself.
    public mutating func remember(_ sentence: Sentence, at time: Double) {
        echoFilter.remember(sentence, at: time)
    }

    /// Derives the current values and emits the computed sentences that are due, in ``ComputedKind`` order.
    public mutating func tick(at now: Double, emit: (ComputedKind, Sentence) -> Void) {
        values = derivation.update(&inputs, configuration: configuration, at: now)
        // By raw value, not `allCases`: the synthesized `allCases` builds an array on every call.
        for rawValue in 0..<enabled.count {
            guard enabled[rawValue], now >= nextDue[rawValue], let kind = ComputedKind(rawValue: rawValue) else {
                continue
            }
            let interval = intervals[kind.rawValue]
            // Keep the phase: a late tick does not shift later sentences, a long pause does not burst.
            let due = nextDue[kind.rawValue] + interval
            nextDue[kind.rawValue] = due > now ? due : now + interval
            guard let sentence = SentenceBuilder.sentence(kind, values, configuration: configuration) else {
                continue
            }
            echoFilter.remember(sentence, at: now)
            counters.computed += 1
            emit(kind, sentence)
        }
    }

    /// Which source each group currently uses, for the status line and the periodic summary.
    public var chosenSources: [String: String] {
        var chosen: [String: String] = [:]
        if let id = inputs.apparentWind.currentSource { chosen["wind"] = name(of: id) }
        if let id = inputs.headingTrue.currentSource ?? inputs.headingMagnetic.currentSource {
            chosen["heading"] = name(of: id)
        }
        if let id = inputs.speedThroughWater.currentSource { chosen["speed"] = name(of: id) }
        if let id = inputs.motionOverGround.currentSource { chosen["position"] = name(of: id) }
        if let id = inputs.attitude.currentSource { chosen["attitude"] = name(of: id) }
        return chosen
    }
}
