import Engine
import Marine
import NMEA

/// The engine's tick: the computed sentences that are due, to each output in its own form; what the engine then
/// holds; what it has to say.
extension Router {
    /// An engine tick at `time`: the computed sentences that are due, to each output that carries their kind, in
    /// the output's own talker and attitude names; then the engine's report, its notices and its announcements.
    public mutating func tick(at time: Double, _ act: (Action) -> Void) {
        due.removeAll(keepingCapacity: true)
        engine.tick(at: time) { kind, sentence in due.append((kind, sentence)) }
        counters.computed += due.count
        let forecastWind = engine.values.windIsForecast
        for (kind, sentence) in due {
            let isForecast = forecastWind && kind.isWindDerived
            for index in outputs.indices {
                let output = outputs[index]
                guard output.computed, output.kinds.contains(kind), output.filter.admits(sentence.address),
                    !isForecast || output.forecastWind, hasAudience(index)
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
        // The track at most every 5 s: a report that holds it makes the engine's next point copy the whole log
        // (copy on write), so it is handed out seldom, not at each point kept.
        let trackDue = time - trackReportedAt >= 5 || time < trackReportedAt
        let report = engine.report(
            at: time, alarmsSince: reportedAlarms, trafficSince: reportedTraffic,
            trackSince: trackDue ? reportedTrack : engine.track.revision, weatherSince: reportedWeather)
        reportedAlarms = engine.alarmRevision
        reportedTraffic = engine.ais.revision
        reportedWeather = engine.weatherRevision
        if report.track != nil {
            trackReportedAt = time
            reportedTrack = engine.track.revision
        }
        act(.report(report))
        for text in engine.takeNotices() { act(.notice(output: nil, id: "engine.notice", text: text)) }
        for announcement in engine.takeAnnouncements() { act(.announce(announcement)) }
        if let point = engine.takeTideRequest() { act(.tides(near: point)) }
    }

    /// The tide and current stations near the boat, found by the shell when asked (``Action/tides(near:)``).
    public mutating func setTides(_ stations: TideStations) { engine.setTides(stations) }

    /// The stations near the boat as last handed over.
    public var tideStations: TideStations? { engine.tideStations }

    /// The calibration learnt from sailing applied from the next tick on (the crew's "apply", or by itself).
    public mutating func setCalibration(_ calibration: SailingCalibration) { engine.setCalibration(calibration) }

    /// The calibration the engine applies.
    public var calibration: SailingCalibration { engine.calibration }

    /// Seconds the calibration was applied only in part since it was set: all of it would have turned the true wind
    /// angle or the heading more than 12° (the log changed since it was learnt, or a drift in a light air).
    public var calibrationLimitedSeconds: Double { engine.calibrationLimitedSeconds }

    /// The polar the engine takes its targets and performance from (the crew choosing the learnt one), from the next
    /// tick on.
    public mutating func setPolar(_ polar: Polar?) { engine.setPolar(polar) }

    /// Whether output `index` has anyone to send to: an output that serves clients needs one connected.
    mutating func hasAudience(_ index: Int) -> Bool {
        guard outputs[index].servesClients && clients[index] == 0 else { return true }
        counters.noClient += 1
        return false
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
        // Wind made from the forecast keeps the forecast's talker: an output's own would hide where it came from.
        if let talker = output.talker, talker != configuration.talker,
            !(engine.values.windIsForecast && kind.isWindDerived)
        {
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
}
