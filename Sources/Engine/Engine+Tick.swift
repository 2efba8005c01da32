import Marine
import NMEA

/// The tick: values derived, computed sentences built on their schedule.
extension Engine {
    /// Derives the current values and emits the computed sentences that are due, in ``ComputedKind`` order.
    public mutating func tick(at now: Double, emit: (ComputedKind, Sentence) -> Void) {
        defer { lastTickTime = now }
        let forecastWind = refreshForecast(at: now)
        values = derivation.update(
            &inputs, configuration: configuration, calibration: datedCalibration(at: now), forecastWind: forecastWind,
            at: now)
        holdCalibration(forecastWind, at: now)
        updateWeather(at: now)
        if let observation = imuAttitude, observation.isFresh(at: now, timeout: configuration.timeouts.attitude) {
            values.imuAttitude = observation.value
            values.rateOfTurn = imuRateOfTurn?.value
        }
        values.depth = inputs.depth.select(at: now)?.value
        values.performance = Performance.at(
            values.trueWind, speedThroughWater: values.speedIsOverGround ? nil : values.speedThroughWater,
            polar: configuration.polar)
        if values.speedIsOverGround && values.trueWind != nil {
            notice("true wind from speed over ground: no speed through water (configured fallback); it is ground wind")
        }
        navigate(at: now)
        updateTides(at: now)
        values.laylines = Performance.laylines(values)
        reportWeather(at: now)
        let lineChanged = updateStartLine(at: now)
        let trafficChanged = judgeTraffic(at: now)
        let anchorChanged = updateAnchor(at: now)
        let alarmChanged = updateAlarms(at: now) || lineChanged || trafficChanged || anchorChanged
        if alarmChanged || alarmMonitor.acknowledgedSinceTick {
            nextDue[ComputedKind.alarm.rawValue] = now
            nextDue[ComputedKind.alarmText.rawValue] = now
            alarmMonitor.acknowledgedSinceTick = false
        }
        if alarmChanged { announceAlarms(at: now) }
        announceRace(at: now)
        announceGuidance(at: now)
        // By raw value, not `allCases`: the synthesized `allCases` builds an array on every call.
        for rawValue in 0..<enabled.count {
            guard enabled[rawValue], let kind = ComputedKind(rawValue: rawValue) else { continue }
            if kind == .positionRMC || kind == .positionGGA || kind == .positionVTG {
                // On the fixes' own clock, each fix once (``PositionReporter``), not on the schedule.
                if let sentence = positions.sentence(
                    kind, fix: currentFix, values: values, interval: intervals[rawValue], configuration: configuration,
                    at: now)
                {
                    echoFilter.remember(sentence, at: now)
                    emit(kind, sentence)
                }
                continue
            }
            guard now >= nextDue[rawValue] else { continue }
            let interval = intervals[kind.rawValue]
            // Keep the phase: a late tick does not shift later sentences, a long pause does not burst.
            let due = nextDue[kind.rawValue] + interval
            nextDue[kind.rawValue] = due > now ? due : now + interval
            if kind == .alarm || kind == .alarmText {
                // Alarms go out when they change and, while one is active, every interval.
                if kind == .alarmText && !alarmChanged { continue }
                for sentence in alarmSentences(kind) {
                    echoFilter.remember(sentence, at: now)
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
            let talker =
                values.windIsForecast && kind.isWindDerived ? configuration.weather.talker : configuration.talker
            guard let sentence = SentenceBuilder.sentence(kind, values, configuration: configuration, talker: talker)
            else { continue }
            echoFilter.remember(sentence, at: now)
            emit(kind, sentence)
        }
    }

    /// The calibration as it applies to the readings of `now` (``SailingCalibration/at(_:)``): a log replayed from
    /// before a step in the log's reading (a paddle wheel cleaned since) is read as the log read then. Without steps,
    /// the configured one (the configuration itself is never copied on the tick: it is large).
    func datedCalibration(at now: Double) -> SailingCalibration {
        guard !configuration.wind.calibration.logSteps.isEmpty else { return configuration.wind.calibration }
        return configuration.wind.calibration.at(unixTime(at: now))
    }
}
