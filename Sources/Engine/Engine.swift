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

    public internal(set) var configuration: EngineConfiguration
    /// The values of the last tick.
    public internal(set) var values = InstrumentValues()

    /// Things a person should know, each said once (a fallback taken, a value clamped); the shell logs them.
    public internal(set) var notices: [String] = []
    var noticesGiven: Set<String> = []

    var sourceNames: [String] = []
    var follower: RouteFollower
    /// The route is the boat's own (configured or loaded), not one followed from upstream.
    var hasLocalRoute = false
    /// The route followed is a single destination set from here (``go(to:name:)``).
    var isSinglePoint = false
    /// The route is followed backwards (``reverseRoute()``).
    var isReversed = false
    /// The route configured or loaded, kept while a destination is followed or after a stop.
    var plannedRoute: Route?
    var upstreamKey: UpstreamDestination?
    /// UTC (UNIX seconds) minus engine time, when the shell has told the engine.
    var utcOffset: Double?
    var attitudeFilter: AttitudeFilter
    var stillness: StillnessDetector
    var startupBiasSettled = false
    var lastIMUHeadingTime = -Double.infinity
    var lastIMUTime: Double?
    var imuRateOfTurn: (value: Double, time: Double)?
    var imuAttitude: Observation<Attitude>?
    var lastTickTime: Double?
    /// RMC, GGA and VTG of the fix, each fix once; the UTC clock learnt from fixes.
    var positions = PositionReporter()
    /// The position fix chosen at the last tick, with when it arrived.
    var currentFix: Observation<Fix>?
    /// Each input's fixes judged against the one before (``PositionGate``), by input.
    var positionGates: [(source: SourceID, gate: PositionGate)] = []
    /// The race start timer, commanded by the shell (Signal K PUT, the command line).
    public var raceTimer = RaceTimer()
    /// The AIS stations heard, with how close each comes (judged once a second).
    public internal(set) var ais = AISTargets()
    var aisAssembler = AISAssembler()
    var lastAISJudgement = -Double.infinity
    /// The start line, pinged or set by the shell.
    public var startLine = StartLine()
    /// The anchor watch, set by the crew's commands (or restored by the shell after a restart).
    public internal(set) var anchor = AnchorWatch()
    /// The track of the last hours (``EngineConfiguration/trackHours``).
    public internal(set) var track: TrackLog
    /// When the last fix taken into the track and the anchor watch arrived.
    var lastTrackedFix: Double?
    /// The forecasts on board, as the shell last handed them (``setForecast(_:)``), and the weather judged from them
    /// and the barometer once a second.
    public internal(set) var forecast = Forecast()
    var weather = WeatherState()
    /// The tide and current stations near the boat and what they predict (``setTides(_:)``).
    var tides = TideWatch()
    var lastTimeToStart: Double?
    var announcements: [Announcement] = []
    /// The spoken guidance's place: the leg it speaks of, how far from its waypoint the boat was at the last tick,
    /// the distances already spoken.
    var guidance: (leg: Int, destination: String, distance: Double?, said: Int)?
    /// Every alarm's state.
    var alarmMonitor: AlarmMonitor
    /// The default autopilot as the shell last reported it (``pilot(_:)``), judged at each tick.
    var pilotReport: PilotReport?
    var inputs: InstrumentInputs
    var derivation: WindDerivation
    /// The same derivation without the learnt calibration, while one is applied: what the calibrated true wind angle is
    /// held within 12° of (``holdCalibration(_:at:)``).
    var uncalibrated: WindDerivation?
    /// Seconds of ticks the calibration applied only in part since it was set (``holdCalibration(_:at:)``).
    public internal(set) var calibrationLimitedSeconds = 0.0
    var echoFilter: EchoFilter
    var nextDue: [Double]
    /// Per ``ComputedKind`` raw value: built or not, and every how many seconds (no hashing on the tick path).
    let enabled: [Bool]
    let intervals: [Double]

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
        follower = RouteFollower(settings: configuration.route)
        attitudeFilter = AttitudeFilter(settings: configuration.attitude)
        if let bias = configuration.initialGyroBias { attitudeFilter.setGyroBias(bias) }
        stillness = StillnessDetector(window: configuration.startupBiasWindow)
        startupBiasSettled = configuration.startupBiasWindow <= 0
        echoFilter = EchoFilter(window: configuration.echoWindow)
        alarmMonitor = AlarmMonitor(settings: configuration.alarms)
        track = TrackLog(hours: configuration.trackHours, capacity: configuration.trackPoints)
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

    /// The name an input was registered under (`#N` for a source never named: a test's, a caller's mistake).
    public func name(of source: SourceID) -> String {
        source.index >= 0 && source.index < sourceNames.count ? sourceNames[source.index] : "#\(source.index)"
    }

    /// Whether `sentence` is one of the engine's own (or an output's variant of one) coming back on an input.
    public mutating func isEcho(_ sentence: Sentence, at time: Double) -> Bool { echoFilter.isEcho(sentence, at: time) }

    /// Takes one message an input delivered, decoded once by whoever read it (the router).
    @discardableResult
    public mutating func ingest(_ message: Message, from source: SourceID, at time: Double) -> IngestOutcome {
        if let acknowledged = acknowledge(message) { return acknowledged ? .used : .ignored }
        if case .vdm(let fragment) = message { return takeAIS(fragment, from: source, at: time) }
        if let point = message.fixPoint, !admitsFix(at: point, from: source, at: time) {
            return .invalid(.implausible(.position))
        }
        return inputs.record(message, source: source, at: time) ? .used : .ignored
    }

    /// Takes one sentence from an input: an echo of the engine's own, or decoded and taken. The router decodes a
    /// sentence once and hands the message on; this is for callers that hold only the sentence (tests, tools).
    @discardableResult
    public mutating func ingest(_ sentence: Sentence, from source: SourceID, at time: Double) -> IngestOutcome {
        if isEcho(sentence, at: time) { return .echo }
        do {
            return ingest(try Message(sentence), from: source, at: time)
        } catch {
            if case .unsupported = error { return .unsupported }
            return .invalid(error)
        }
    }

    /// Remembers a sentence an output sent in a form the engine did not build (a per-output talker), so that it is
    /// recognised if it comes back. Computed sentences are remembered by ``tick(at:emit:)`` itself. Pass-through
    /// must not be remembered: an instrument repeating an identical reading would be taken for an echo.
    public mutating func remember(_ sentence: Sentence, at time: Double) {
        echoFilter.remember(sentence, at: time)
    }

    /// Tells the engine which UTC instant (UNIX seconds) its time `engineTime` is: the replay clock in a replay,
    /// the system clock when running live. Used for BWC, BWR and ALR times only until a fix with a date (RMC,
    /// gpsd) gives the GNSS clock, which then takes over, so every sentence carries the same UTC.
    public mutating func setClock(unixTime: Double, at engineTime: Double) {
        utcOffset = unixTime - engineTime
    }

    /// What is to be said aloud since the last call, each with the engine time it was due: the race timer's
    /// countdown and the alarms raised. The shell speaks them; a replay can list them.
    public mutating func takeAnnouncements() -> [Announcement] {
        defer { announcements.removeAll() }
        return announcements
    }

    /// Returns and forgets the notices given since the last call.
    public mutating func takeNotices() -> [String] {
        defer { notices.removeAll() }
        return notices
    }

    mutating func notice(_ text: String) {
        guard !noticesGiven.contains(text) else { return }
        noticesGiven.insert(text)
        notices.append(text)
    }
}
