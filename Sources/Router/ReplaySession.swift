import Engine
import NMEA

/// Drives the engine over a merged timeline on a replay clock: pass-through at each sentence's time, engine ticks
/// at a fixed rate in between, everything in time order. Pure and deterministic; the caller paces and writes.
public struct ReplaySession {
    /// Log seconds with nothing in them (no sentence, no IMU sample) after which the rest of a gap is skipped: its
    /// first ten minutes are ticked as a live gateway would tick them (each value stale, the data-lost alarms), the
    /// hours or days after (a logger paused overnight, a clock set between two lines) are not.
    public static let gapLimit = 600.0

    public struct Options: Sendable {
        /// Engine ticks per second.
        public var tickRate = 10.0
        /// Leave out the input passed through.
        public var computedOnly = false
        /// The crew's commands, each given at its time (seconds after the replay's first sentence or sample), at the
        /// first tick from then: a replay's anchor dropped as a sailor would drop it.
        public var commands: [ScheduledCommand] = []

        public init() {}
    }

    /// A command given at a moment of the replay.
    public struct ScheduledCommand: Hashable, Sendable {
        /// Seconds after the replay's first sentence or sample.
        public var time: Double
        public var command: EngineCommand

        public init(at time: Double, _ command: EngineCommand) {
            self.time = time
            self.command = command
        }
    }

    /// One line of output.
    public struct Output: Sendable {
        /// UNIX seconds on the replay clock.
        public var time: Double
        public var sentence: Sentence
        /// Computed by the engine (else passed through).
        public var isComputed: Bool
        /// `time` less the gaps skipped before it (``gapLimit``): what a paced replay waits for.
        public var playTime: Double
    }

    /// What went in and out.
    public struct Summary: Hashable, Sendable {
        public var sentencesIn = 0
        public var passedThrough = 0
        public var computed = 0
        /// Sentences refused by the engine (unreadable fields): counted, not passed on.
        public var invalid = 0
        /// Of those, values that cannot be physically true (`implausible`).
        public var implausible = 0
        /// The gateway's own sentences found in the input.
        public var echoes = 0
        /// Inputs over 82 bytes re-encoded to fit before being passed on.
        public var shortened = 0
        /// Inputs over 82 bytes that could not be shortened and were not passed on.
        public var tooLong = 0
        public var duration = 0.0
        /// Seconds the calibration was applied only in part (``Router/calibrationLimitedSeconds``).
        public var calibrationLimited = 0.0
        /// What each scheduled command did (or why not), with its time on the replay clock, in order.
        public var commands: [CommandReport] = []
        /// Gaps over ``ReplaySession/gapLimit`` skipped, and the log seconds left out of them.
        public var gaps = 0
        public var skipped = 0.0
    }

    /// What became of a scheduled command.
    public struct CommandReport: Hashable, Sendable {
        /// Seconds after the replay's first sentence or sample.
        public var time: Double
        public var outcome: CommandOutcome
    }

    let engine: Engine
    public private(set) var summary = Summary()
    let options: Options

    public init(engine: Engine, options: Options = Options()) {
        self.engine = engine
        self.options = options
    }

    /// An IMU sample on the replay clock (UNIX seconds; FRD, m/s², degrees per second).
    public struct IMUEvent: Sendable {
        public var time: Double
        public var accelerometer: SIMD3<Double>
        public var gyroscope: SIMD3<Double>
        /// µT, body frame, when the IMU has a magnetometer.
        public var magnetometer: SIMD3<Double>?

        public init(
            time: Double, accelerometer: SIMD3<Double>, gyroscope: SIMD3<Double>, magnetometer: SIMD3<Double>? = nil
        ) {
            self.time = time
            self.accelerometer = accelerometer
            self.gyroscope = gyroscope
            self.magnetometer = magnetometer
        }
    }

    /// Replays `timeline` (UNIX seconds, in order) and IMU samples (in order) on one clock; `sources[log]` is the
    /// engine source of each log, `imuSource` that of the IMU. The same ``Router`` as `telltale run` decides what
    /// goes out, with one output that carries every kind the engine builds (and the input, unless computed-only).
    public mutating func run(
        _ timeline: [TimedSentence], sources: [SourceID], imu: [IMUEvent] = [], imuSource: SourceID? = nil,
        output: (Output) -> Void
    ) {
        var sentenceIndex = 0
        var imuIndex = 0
        run(
            next: {
                defer { sentenceIndex += 1 }
                return sentenceIndex < timeline.count ? timeline[sentenceIndex] : nil
            },
            sources: sources,
            nextIMU: {
                defer { imuIndex += 1 }
                return imuIndex < imu.count ? imu[imuIndex] : nil
            }, imuSource: imuSource, output: output)
    }

    /// Replays a timeline handed over one sentence at a time (in time order), and IMU samples likewise: a log of any
    /// length replays in the memory of one sentence. `observe` hears the router's other actions (what the engine
    /// took and holds: a Signal K model's food), in the order a live gateway has them.
    public mutating func run(
        next: () -> TimedSentence?, sources: [SourceID], nextIMU: () -> IMUEvent? = { nil },
        imuSource: SourceID? = nil, observe: ((Router.Action) -> Void)? = nil, output: (Output) -> Void
    ) {
        var pendingSentence = next()
        var pendingIMU = nextIMU()
        // An IMU trace alone has its own clock: the replay runs on it.
        guard let origin = [pendingSentence?.time, pendingIMU?.time].compactMap({ $0 }).min() else { return }
        var lastTime = origin
        let imuID = imuSource ?? SourceID(sources.count)
        var policy = OutputPolicy(name: "replay")
        policy.kinds = engine.configuration.kinds
        policy.passThrough = !options.computedOnly
        // Nothing a replay prints can come back into it.
        var router = Router(engine: engine, outputs: [policy], echoWindow: 0)
        router.setClock(unixTime: origin, at: 0)
        router.observes = observe != nil
        let tickInterval = 1 / max(options.tickRate, 0.001)
        var tickIndex = 0
        var nextTick = origin
        var skipped = 0.0
        let engineTime = { (time: Double) in time - origin }
        // Stable: two commands at one moment are given in the order they were listed.
        var commands = options.commands.enumerated().sorted {
            ($0.element.time, $0.offset) < ($1.element.time, $1.offset)
        }
        .map { $0.element }[...]

        func feedIMU(until limit: Double) {
            while let sample = pendingIMU, sample.time <= limit {
                router.ingest(
                    gyroscope: sample.gyroscope, accelerometer: sample.accelerometer,
                    magnetometer: sample.magnetometer, from: imuID, at: engineTime(sample.time))
                lastTime = max(lastTime, sample.time)
                pendingIMU = nextIMU()
            }
        }

        func tick(until limit: Double) {
            while nextTick <= limit {
                feedIMU(until: nextTick)
                let time = nextTick
                while let due = commands.first, due.time <= engineTime(time) {
                    commands.removeFirst()
                    let outcome = router.command(due.command, at: engineTime(time))
                    summary.commands.append(CommandReport(time: engineTime(time), outcome: outcome))
                }
                router.tick(at: engineTime(time)) { action in
                    if case .send(_, let sentence, _) = action {
                        output(Output(time: time, sentence: sentence, isComputed: true, playTime: time - skipped))
                    } else {
                        observe?(action)
                    }
                }
                tickIndex += 1
                nextTick = origin + Double(tickIndex) * tickInterval
            }
        }

        var lastSentence: Double?
        while let item = pendingSentence {
            let quiet = max(lastSentence ?? origin, lastTime)
            if item.time - quiet > Self.gapLimit, pendingIMU.map({ $0.time >= item.time }) ?? true {
                tick(until: quiet + Self.gapLimit)
                let resume = Int(((item.time - origin) / tickInterval).rounded(.down))
                if resume > tickIndex {
                    skipped += Double(resume - tickIndex) * tickInterval
                    summary.gaps += 1
                    tickIndex = resume
                    nextTick = origin + Double(tickIndex) * tickInterval
                }
            }
            // Ticks strictly before this sentence's time come first.
            tick(until: item.time - tickInterval * 1e-9)
            feedIMU(until: item.time)
            let source = item.log < sources.count ? sources[item.log] : SourceID(0)
            router.ingest(item.sentence, from: source, at: engineTime(item.time)) { action in
                if case .send(_, let sentence, _) = action {
                    output(
                        Output(time: item.time, sentence: sentence, isComputed: false, playTime: item.time - skipped))
                } else {
                    observe?(action)
                }
            }
            lastSentence = item.time
            pendingSentence = next()
        }
        // The replay ends with its last sentence; an IMU trace alone, with its last sample (each sample taken after
        // the ticks before it, as the ticks would have taken it).
        if lastSentence == nil {
            while let sample = pendingIMU {
                tick(until: sample.time - tickInterval * 1e-9)
                feedIMU(until: sample.time)
            }
        }
        let end = lastSentence ?? lastTime
        tick(until: end)
        let counters = router.counters
        summary.sentencesIn = counters.sentencesIn
        summary.passedThrough = counters.passedThrough
        summary.computed = counters.computed
        summary.invalid = counters.invalid
        summary.implausible = counters.implausible
        summary.echoes = counters.echoes
        summary.shortened = counters.shortened
        summary.tooLong = counters.tooLong
        summary.duration = end - origin
        summary.skipped = skipped
        summary.calibrationLimited = router.calibrationLimitedSeconds
    }
}
