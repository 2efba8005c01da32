import Engine
import Marine
import NMEA

/// The gateway's routing policy as one pure state machine, in the style of swift-nio's sans-I/O handlers: events in
/// (a sentence from an input, an IMU sample, a fix, a tick, a client connected or gone), actions out (a sentence for
/// output i, a refused input, a notice).
///
/// Pass-through with its 82-byte rule, echo recognition, per-output address filters, rate limits per sentence kind,
/// talker and attitude variants, and every counter live here. `telltale run` and `telltale replay` drive the same
/// router, on the wall clock and on the log's clock: time is always an argument, so a replay gives the same bytes
/// every time. The router owns the engine; nothing here calls back into the shell.
public struct Router {
    /// What the shell must do.
    public enum Action {
        /// Write `sentence` to output `output` (an index into ``outputs``).
        case send(output: Int, sentence: Sentence, computed: Bool)
        /// An input sentence was refused by the engine (unreadable or implausible), for the shell's counts and log.
        case refused(sentence: Sentence, source: SourceID, error: DecodeError)
        /// Something the log should say about output `output` (a client connected or gone, with the count now);
        /// `id` names the kind of message, so that one kind held back does not hide another.
        case notice(output: Int, id: String, text: String)
        /// The engine took an input sentence as good (neither refused nor an echo): for the Signal K model. Only
        /// when ``observes`` is on.
        case observed(sentence: Sentence, source: SourceID)
    }

    public struct Counters: Hashable, Sendable {
        public var sentencesIn = 0
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
    }

    public private(set) var engine: Engine
    public let outputs: [OutputPolicy]
    public private(set) var counters = Counters()
    private var limiters: [RateLimiter]
    /// Pass-through recently sent, with the input it came from: the same bytes arriving on another input within
    /// `passThroughEchoWindow` are a peer echoing them back.
    private var sentPassThrough: [(hash: UInt64, source: SourceID, time: Double)]
    private var nextPassThrough = 0
    private let passThroughEchoWindow: Double
    private var due: [(ComputedKind, Sentence)] = []
    private let anyPassThrough: Bool
    /// Clients connected to each output that serves them.
    public private(set) var clients: [Int]
    /// Say each sentence the engine accepted (``Action/observed(sentence:source:)``): on when a Signal K server
    /// or a Signal K replay listens.
    public var observes = false

    /// - Parameter echoWindow: seconds a pass-through sentence is remembered; 0 turns pass-through echo
    ///   recognition off (a replay, where nothing sent can come back).
    public init(engine: Engine, outputs: [OutputPolicy], echoWindow: Double = 2) {
        self.engine = engine
        self.outputs = outputs
        limiters = outputs.map { RateLimiter(limits: $0.rateLimits) }
        anyPassThrough = outputs.contains { $0.passThrough }
        passThroughEchoWindow = echoWindow
        clients = Array(repeating: 0, count: outputs.count)
        sentPassThrough = Array(repeating: (0, SourceID(0), -.infinity), count: echoWindow > 0 ? 256 : 0)
        due.reserveCapacity(ComputedKind.allCases.count)
    }

    /// A client connected to output `output`.
    public mutating func clientConnected(output: Int, _ act: (Action) -> Void) {
        clients[output] += 1
        act(.notice(output: output, id: "output.client-connected", text: "a client connected (\(clientText(output)))"))
    }

    /// A client of output `output` went away (closed, failed, or dropped for not reading).
    public mutating func clientGone(output: Int, _ act: (Action) -> Void) {
        clients[output] = max(0, clients[output] - 1)
        act(.notice(output: output, id: "output.client-gone", text: "a client went away (\(clientText(output)))"))
    }

    private func clientText(_ output: Int) -> String {
        "\(clients[output]) client" + (clients[output] == 1 ? "" : "s")
    }

    /// Whether output `index` has anyone to send to: an output that serves clients needs one connected.
    private mutating func hasAudience(_ index: Int) -> Bool {
        guard outputs[index].servesClients && clients[index] == 0 else { return true }
        counters.noClient += 1
        return false
    }

    /// Per output, the sentences its rate limits held back.
    public var rateLimitedPerOutput: [Int] { limiters.map { $0.limited } }

    /// Changes to the engine that are not events: the route, the clock.
    public mutating func withEngine<R>(_ body: (inout Engine) -> R) -> R { body(&engine) }

    /// One sentence from input `source` at `time`: to the engine, then (when it may) to the outputs.
    public mutating func ingest(_ sentence: Sentence, from source: SourceID, at time: Double, _ act: (Action) -> Void) {
        counters.sentencesIn += 1
        if isPassThroughEcho(sentence, from: source, at: time) {
            counters.echoes += 1
            return
        }
        switch engine.ingest(sentence, from: source, at: time) {
        case .invalid(let error):
            counters.invalid += 1
            if case .implausible = error { counters.implausible += 1 }
            act(.refused(sentence: sentence, source: source, error: error))
            return
        case .echo:
            counters.echoes += 1
            return
        case .used, .ignored:
            if observes { act(.observed(sentence: sentence, source: source)) }
        case .unsupported:
            break
        }
        guard anyPassThrough else { return }
        let prepared: Sentence
        var shortened = false
        switch PassThrough.prepare(sentence) {
        case .unchanged(let s):
            prepared = s
        case .shortened(let s):
            prepared = s
            shortened = true
        case .dropped:
            counters.tooLong += 1
            return
        }
        var sent = false
        for index in outputs.indices {
            let output = outputs[index]
            guard output.passThrough, !output.excludedSources.contains(source), output.filter.admits(prepared.address)
            else { continue }
            guard hasAudience(index) else {
                sent = true  // would have gone: passed through, remembered for echoes
                continue
            }
            guard limiters[index].admits(prepared, now: time) else {
                counters.rateLimited += 1
                continue
            }
            act(.send(output: index, sentence: prepared, computed: false))
            counters.sentencesOut += 1
            sent = true
        }
        guard sent else { return }
        counters.passedThrough += 1
        if shortened { counters.shortened += 1 }
        rememberPassThrough(prepared, from: source, at: time)
    }

    /// One IMU sample (body frame FRD: m/s², degrees per second, µT).
    public mutating func ingest(
        gyroscope: SIMD3<Double>, accelerometer: SIMD3<Double>, magnetometer: SIMD3<Double>?, from source: SourceID,
        at time: Double
    ) {
        engine.ingest(
            gyroscope: gyroscope, accelerometer: accelerometer, magnetometer: magnetometer, from: source, at: time)
    }

    /// A fix that did not come as NMEA (gpsd), with the motion over ground.
    public mutating func ingest(_ fix: Fix, motion: GroundMotion?, from source: SourceID, at time: Double) {
        counters.sentencesIn += 1
        engine.ingest(fix, motion: motion, from: source, at: time)
    }

    /// An engine tick at `time`: the computed sentences that are due, to each output that carries their kind, in
    /// the output's own talker and attitude names.
    public mutating func tick(at time: Double, _ act: (Action) -> Void) {
        due.removeAll(keepingCapacity: true)
        engine.tick(at: time) { kind, sentence in due.append((kind, sentence)) }
        counters.computed += due.count
        for (kind, sentence) in due {
            for index in outputs.indices {
                let output = outputs[index]
                guard output.computed, output.kinds.contains(kind), output.filter.admits(sentence.address),
                    hasAudience(index)
                else { continue }
                guard let variant = variant(of: sentence, kind: kind, for: output, at: time),
                    output.filter.admits(variant.address)
                else { continue }
                guard limiters[index].admits(sentence, now: time) else {
                    counters.rateLimited += 1
                    continue
                }
                act(.send(output: index, sentence: variant, computed: true))
                counters.sentencesOut += 1
            }
        }
    }

    /// The sentence as `output` wants it: its own attitude names and decimals, its own talker, its dialect. A
    /// variant is remembered by the engine, so that it is recognised if it comes back.
    private mutating func variant(
        of sentence: Sentence, kind: ComputedKind, for output: OutputPolicy, at time: Double
    ) -> Sentence? {
        guard let variant = namedVariant(of: sentence, kind: kind, for: output, at: time) else { return nil }
        let adapted = output.dialect.adapt(variant)
        if adapted != variant { engine.remember(adapted, at: time) }
        return adapted
    }

    private mutating func namedVariant(
        of sentence: Sentence, kind: ComputedKind, for output: OutputPolicy, at time: Double
    ) -> Sentence? {
        let configuration = engine.configuration
        if kind == .attitude || kind == .attitudeHeelTrim, output.attitudeNames != nil || output.attitudeDecimals != nil
        {
            let names = output.attitudeNames ?? (kind == .attitude ? ("ROLL", "PTCH") : ("HEEL", "TRIM"))
            guard
                let variant = engine.attitudeSentence(
                    names: names, decimals: output.attitudeDecimals ?? configuration.attitudeDecimals,
                    talker: output.talker ?? configuration.talker)
            else { return nil }
            engine.remember(variant, at: time)
            return variant
        }
        if let talker = output.talker, talker != configuration.talker {
            let variant = Self.retalked(sentence, talker)
            engine.remember(variant, at: time)
            return variant
        }
        return sentence
    }

    /// The same sentence from another talker, checksum recomputed.
    public static func retalked(_ sentence: Sentence, _ talker: Talker) -> Sentence {
        var bytes = sentence.bytes
        guard bytes.count > 3, sentence.address.talker != nil else { return sentence }
        bytes[1] = talker.first
        bytes[2] = talker.second
        let star = bytes.lastIndex(of: UInt8(ascii: "*")) ?? bytes.count
        return (try? Sentence(parsing: Array(bytes[0..<star]), requiresChecksum: false)) ?? sentence
    }

    // MARK: pass-through echoes

    /// An honest instrument repeats identical readings (HDT 90.0 every second) on its own input; a peer that
    /// echoes sends our pass-through back on another. Only the second is an echo.
    private func isPassThroughEcho(_ sentence: Sentence, from source: SourceID, at time: Double) -> Bool {
        guard !sentPassThrough.isEmpty else { return false }
        let hash = EchoFilter.hash(sentence)
        for entry in sentPassThrough
        where entry.hash == hash && entry.source != source && time - entry.time <= passThroughEchoWindow {
            return true
        }
        return false
    }

    private mutating func rememberPassThrough(_ sentence: Sentence, from source: SourceID, at time: Double) {
        guard !sentPassThrough.isEmpty else { return }
        sentPassThrough[nextPassThrough] = (EchoFilter.hash(sentence), source, time)
        nextPassThrough = (nextPassThrough + 1) % sentPassThrough.count
    }
}
