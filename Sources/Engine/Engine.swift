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

    /// Things a person should know, each said once (a fallback taken, a value clamped); the shell logs them.
    public private(set) var notices: [String] = []
    private var noticesGiven: Set<String> = []

    private var sourceNames: [String] = []
    private var follower: RouteFollower
    /// The route is the boat's own (configured or loaded), not one followed from upstream.
    private var hasLocalRoute = false
    private var upstreamKey: UpstreamDestination?
    /// UTC (UNIX seconds) minus engine time, when the shell has told the engine.
    private var utcOffset: Double?
    private var attitudeFilter: AttitudeFilter
    private var stillness: StillnessDetector
    private var startupBiasSettled = false
    private var lastIMUHeadingTime = -Double.infinity
    private var lastIMUTime: Double?
    private var imuRateOfTurn: (value: Double, time: Double)?
    private var imuAttitude: Observation<Attitude>?
    private var lastTickTime: Double?
    /// The date of the last fix that came with one (gpsd), for RMC.
    private var fixDate: UTCDate?
    private var overHeel = AlarmLatch()
    private var underHeel = AlarmLatch()
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
        follower = RouteFollower(settings: configuration.route)
        attitudeFilter = AttitudeFilter(settings: configuration.attitude)
        if let bias = configuration.initialGyroBias { attitudeFilter.setGyroBias(bias) }
        stillness = StillnessDetector(window: configuration.startupBiasWindow)
        startupBiasSettled = configuration.startupBiasWindow <= 0
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

    /// Takes one IMU sample (body frame FRD: specific force in m/s², rates in degrees per second, the field in µT),
    /// runs the attitude filter, and records the result as the gateway's own attitude, with its rates; with
    /// ``EngineConfiguration/imuHeading``, the tilt-compensated magnetic heading too.
    ///
    /// Over the first ``EngineConfiguration/startupBiasWindow`` seconds, if the boat is still, the gyro's mean
    /// becomes the filter's bias (which it goes on tracking): the bias about the vertical cannot be learnt from
    /// gravity, and without it the rate of turn would be off by it.
    public mutating func ingest(
        gyroscope: SIMD3<Double>, accelerometer: SIMD3<Double>, magnetometer: SIMD3<Double>? = nil,
        from source: SourceID, at time: Double
    ) {
        let dt = lastIMUTime.map { time - $0 } ?? 0.01
        lastIMUTime = time
        if !startupBiasSettled {
            stillness.add(gyroscope: gyroscope, accelerometer: accelerometer, dt: dt)
            if stillness.isComplete {
                startupBiasSettled = true
                if stillness.isStill {
                    let bias = stillness.meanGyroscope
                    attitudeFilter.setGyroBias(bias)
                    notice(
                        "imu: boat still at start, gyro bias measured "
                            + "(\(FixedDecimal.text(bias.x, decimals: 3)), \(FixedDecimal.text(bias.y, decimals: 3)), "
                            + "\(FixedDecimal.text(bias.z, decimals: 3))) °/s")
                } else {
                    notice("imu: boat moving at start, the attitude filter learns the gyro bias as it goes")
                }
            }
        }
        attitudeFilter.update(gyroscope: gyroscope, accelerometer: accelerometer, dt: dt)
        if configuration.imuHeading, let magnetometer, time - lastIMUHeadingTime >= 0.1,
            let heading = MagneticHeading.heading(
                levelField: attitudeFilter.levelled(magnetometer - configuration.magnetometerOffset))
        {
            lastIMUHeadingTime = time
            inputs.headingMagnetic.record(
                Observation(value: CompassReading(magnetic: heading), time: time, source: source), fallback: true)
        }
        let attitude = Attitude(
            heel: attitudeFilter.heel, pitch: attitudeFilter.pitch, rollRate: attitudeFilter.rollRate,
            pitchRate: attitudeFilter.pitchRate)
        let observation = Observation(value: attitude, time: time, source: source)
        inputs.attitude.record(observation)
        imuAttitude = observation
        imuRateOfTurn = (attitudeFilter.rateOfTurn, time)
    }

    /// Takes a position fix that did not come as NMEA (gpsd): position, speed (m/s) and course over ground, the
    /// fix's UNIX time.
    public mutating func ingest(
        fix point: GeoPoint, speedOverGround: Double?, courseOverGround: Double?, unixTime: Double?,
        from source: SourceID, at time: Double
    ) {
        let utc = unixTime.map { UTCTime(secondsOfDay: $0) }
        if let unixTime { fixDate = UTCDate(daysSinceEpoch: Int((unixTime / 86_400).rounded(.down))) }
        inputs.position.record(
            Observation(value: Fix(point: point, utc: utc, mode: .autonomous), time: time, source: source))
        if let speedOverGround {
            inputs.motionOverGround.record(
                Observation(
                    value: GroundMotion(speed: speedOverGround, course: courseOverGround), time: time, source: source))
        }
        counters.used += 1
    }

    /// Takes an attitude measured by the gateway's own IMU.
    public mutating func ingest(_ attitude: Attitude, from source: SourceID, at time: Double) {
        inputs.attitude.record(Observation(value: attitude, time: time, source: source))
    }

    /// The attitude XDR of the last tick with other transducer names and decimals (an output's own), or nil when
    /// there is no current attitude. The caller remembers it (``remember(_:at:)``) if it sends it.
    public func attitudeSentence(names: (String, String), decimals: Int, talker: Talker) -> Sentence? {
        SentenceBuilder.attitude(values, names: names, decimals: decimals, talker: talker)
    }

    /// Remembers a sentence an output sent in a form the engine did not build (a per-output talker), so that it is
    /// recognised if it comes back. Computed sentences are remembered by ``tick(at:emit:)`` itself. Pass-through
    /// must not be remembered: an instrument repeating an identical reading would be taken for an echo.
    public mutating func remember(_ sentence: Sentence, at time: Double) {
        echoFilter.remember(sentence, at: time)
    }

    /// Tells the engine which UTC instant (UNIX seconds) its time `engineTime` is: the replay clock in a replay,
    /// the system clock when running live. BWC's time field comes from here.
    public mutating func setClock(unixTime: Double, at engineTime: Double) {
        utcOffset = unixTime - engineTime
    }

    /// Follows a local route (a configured or loaded GPX), from `leg`.
    public mutating func follow(_ route: Route, leg: Int = 0) {
        follower.start(route, leg: leg)
        hasLocalRoute = true
        upstreamKey = nil
    }

    /// Replaces the local route (a reloaded file), keeping the active leg when it still exists.
    public mutating func replaceRoute(with route: Route) {
        if hasLocalRoute { follower.replace(with: route) } else { follow(route) }
        hasLocalRoute = true
    }

    public mutating func pauseRoute() { follower.pause() }
    public mutating func resumeRoute() { follower.resume() }

    public mutating func stopRoute() {
        follower.stop()
        hasLocalRoute = false
        upstreamKey = nil
    }

    /// The route being followed and its phase.
    public var route: (route: Route?, phase: RouteFollower.Phase, leg: Int) {
        (follower.route, follower.phase, follower.legIndex)
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

    /// Derives the current values and emits the computed sentences that are due, in ``ComputedKind`` order.
    public mutating func tick(at now: Double, emit: (ComputedKind, Sentence) -> Void) {
        defer { lastTickTime = now }
        values = derivation.update(&inputs, configuration: configuration, at: now)
        if let observation = imuAttitude, observation.isFresh(at: now, timeout: configuration.timeouts.attitude) {
            values.imuAttitude = observation.value
            values.rateOfTurn = imuRateOfTurn?.value
        }
        let alarmChanged = updateAlarms(at: now)
        if alarmChanged {
            nextDue[ComputedKind.heelAlarm.rawValue] = now
            nextDue[ComputedKind.heelAlarmText.rawValue] = now
        }
        if values.speedIsOverGround && values.trueWind != nil {
            notice("true wind from speed over ground: no speed through water (configured fallback); it is ground wind")
        }
        navigate(at: now)
        // By raw value, not `allCases`: the synthesized `allCases` builds an array on every call.
        for rawValue in 0..<enabled.count {
            guard enabled[rawValue], now >= nextDue[rawValue], let kind = ComputedKind(rawValue: rawValue) else {
                continue
            }
            let interval = intervals[kind.rawValue]
            // Keep the phase: a late tick does not shift later sentences, a long pause does not burst.
            let due = nextDue[kind.rawValue] + interval
            nextDue[kind.rawValue] = due > now ? due : now + interval
            if kind == .heelAlarm || kind == .heelAlarmText {
                // Alarms go out when they change and, while one is active, every interval.
                if kind == .heelAlarmText && !alarmChanged { continue }
                for sentence in alarmSentences(kind, changedOnly: kind == .heelAlarmText) {
                    echoFilter.remember(sentence, at: now)
                    counters.computed += 1
                    emit(kind, sentence)
                }
                continue
            }
            if kind == .autopilotMagnetic && values.variation == nil && values.navigationLeg != nil {
                notice("APB magnetic: no variation known (HDG, RMC or configuration); sending APB true instead")
            }
            if kind == .navigation, let navigation = values.navigation,
                navigation.crossTrack.magnitude > 9.99 * 1852 || navigation.distanceToWaypoint > 999.9 * 1852
            {
                notice("RMB: cross-track error or range beyond the field limits (9.99, 999.9 NM): clamped")
            }
            if kind == .positionRMC || kind == .positionGGA || kind == .positionVTG {
                guard let sentence = positionSentence(kind) else { continue }
                echoFilter.remember(sentence, at: now)
                counters.computed += 1
                emit(kind, sentence)
                continue
            }
            guard let sentence = SentenceBuilder.sentence(kind, values, configuration: configuration) else {
                continue
            }
            echoFilter.remember(sentence, at: now)
            counters.computed += 1
            emit(kind, sentence)
        }
    }

    /// RMC, GGA or VTG of the current fix; nothing while the position is stale.
    private func positionSentence(_ kind: ComputedKind) -> Sentence? {
        guard let fix = values.position else { return nil }
        let talker = configuration.talker
        let knots = values.speedOverGround.map { Units.knots(metresPerSecond: $0) }
        switch kind {
        case .positionRMC:
            return try? RMC(
                time: fix.utc ?? values.utc, isValid: true, latitude: fix.point.latitude,
                longitude: fix.point.longitude, speedOverGround: knots, courseOverGround: values.courseOverGround,
                date: fixDate, magneticVariation: values.variation, mode: fix.mode ?? .autonomous
            ).encode(talker: talker)
        case .positionGGA:
            return try? GGA(
                time: fix.utc ?? values.utc, latitude: fix.point.latitude, longitude: fix.point.longitude,
                quality: fix.mode == .differential ? 2 : 1
            ).encode(talker: talker)
        default:
            return try? VTG(
                courseTrue: values.courseOverGround,
                courseMagnetic: values.courseOverGround.flatMap { c in
                    values.variation.map { Heading.magnetic(true: c, variation: $0) }
                },
                speedKnots: knots, speedKilometresPerHour: knots.map { $0 * 1.852 }, mode: fix.mode ?? .autonomous
            ).encode(talker: talker)
        }
    }

    /// Advances the heel alarms on the mean heel; true when one of them changed.
    private mutating func updateAlarms(at now: Double) -> Bool {
        let settings = configuration.heelAlarms
        guard let mean = values.meanHeel.map(abs) else { return false }
        var changed = false
        if let threshold = settings.overHeel {
            changed =
                overHeel.update(
                    raise: mean > threshold, clear: mean < threshold - settings.hysteresis, hold: settings.hold, at: now
                )
                || changed
        }
        if let threshold = settings.underHeel {
            let sailing = (values.speedThroughWater ?? 0) > Units.metresPerSecond(knots: settings.minimumSpeed)
            changed =
                underHeel.update(
                    raise: sailing && mean < threshold, clear: !sailing || mean > threshold + settings.hysteresis,
                    hold: settings.hold, at: now) || changed
        }
        return changed
    }

    /// ALR for each configured alarm (active ones only on the periodic repeat), or TXT for the ones that changed.
    private func alarmSentences(_ kind: ComputedKind, changedOnly: Bool) -> [Sentence] {
        let settings = configuration.heelAlarms
        var sentences: [Sentence] = []
        appendAlarm(kind, overHeel, settings.overHeelNumber, "Heel over", settings.overHeel, to: &sentences)
        appendAlarm(kind, underHeel, settings.underHeelNumber, "Heel under", settings.underHeel, to: &sentences)
        return sentences
    }

    /// One alarm's sentences; an empty array costs nothing when there is nothing to say (no allocation per tick).
    private func appendAlarm(
        _ kind: ComputedKind, _ latch: AlarmLatch, _ number: Int, _ label: String, _ threshold: Double?,
        to sentences: inout [Sentence]
    ) {
        guard let threshold else { return }
        let changedNow = latch.changedAt.map { $0 >= (lastTickTime ?? -.infinity) } ?? false
        if kind == .heelAlarmText {
            guard changedNow else { return }
            let notice = (latch.isActive ? "ALARM: " : "Cleared: ") + "\(label) \(Int(threshold)) deg"
            sentences += TXT.messages(notice, identifier: 2).compactMap { try? $0.encode(talker: configuration.talker) }
            return
        }
        guard latch.isActive || changedNow else { return }
        let changedAt = latch.changedAt.flatMap { time in utcOffset.map { UTCTime(secondsOfDay: time + $0) } }
        let alarm = ALR(
            time: changedAt ?? values.utc, alarmNumber: number, isActive: latch.isActive, isAcknowledged: false,
            text: "\(label) \(Int(threshold)) deg")
        if let sentence = try? alarm.encode(talker: configuration.talker) { sentences.append(sentence) }
    }

    /// Route following for this tick: upstream follow, the follower, the UTC of the engine clock.
    private mutating func navigate(at now: Double) {
        let fix = inputs.position.select(at: now)
        values.position = fix?.value
        if let utcOffset {
            let seconds = now + utcOffset
            let ofDay = seconds - (seconds / 86_400).rounded(.down) * 86_400
            values.utc = UTCTime(millisecondsOfDay: Int((ofDay * 1000).rounded()) % 86_400_000)
        } else if let fix, let utc = fix.value.utc {
            let ms = utc.millisecondsOfDay + Int(((now - fix.time) * 1000).rounded())
            values.utc = UTCTime(millisecondsOfDay: (ms % 86_400_000 + 86_400_000) % 86_400_000)
        }

        if configuration.followUpstream && !hasLocalRoute, let announced = inputs.upstreamDestination,
            announced.isFresh(at: now, timeout: configuration.timeouts.position * 6)
        {
            let destination = announced.value
            if upstreamKey?.id != destination.id || upstreamKey?.position != destination.position {
                // A new destination upstream: its origin is the announced origin waypoint when we know where that
                // is, else where the boat is now.
                let originPoint = destination.originID.flatMap { inputs.knownWaypoints[$0] } ?? fix?.value.point
                if let originPoint {
                    let origin = Waypoint(id: destination.originID ?? "", position: originPoint)
                    let target = Waypoint(id: destination.id, position: destination.position)
                    follower.start(Route(waypoints: [origin, target]))
                    upstreamKey = destination
                }
            }
        }

        // Paused or stopped: no guidance at all (a paused route is not a stale one).
        guard follower.phase == .active, let route = follower.route, follower.legIndex < route.legCount else {
            values.navigationLeg = nil
            values.navigation = nil
            return
        }
        let leg = follower.legIndex
        let fixTime = fix.map { $0.value.utc.map { Double($0.millisecondsOfDay) / 1000 } ?? $0.time }
        if let fix, let fixTime {
            values.navigation = follower.update(
                position: fix.value.point, speedOverGround: values.speedOverGround,
                courseOverGround: values.courseOverGround, fixTime: fixTime)
        } else {
            values.navigation = nil
        }
        // After an advance the solution already describes the new leg; the leg reported follows it.
        if let solution = values.navigation {
            values.navigationLeg = NavigationLeg(
                origin: solution.origin, destination: solution.destination, isUpstream: !hasLocalRoute)
        } else {
            values.navigationLeg = NavigationLeg(
                origin: route.waypoints[leg], destination: route.waypoints[leg + 1], isUpstream: !hasLocalRoute)
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
