import Engine
import Marine
import NMEA

/// What inputs deliver: sentences (decoded once, here), IMU samples, fixes, framing rejects.
extension Router {
    /// One sentence from input `source` at `time`: decoded once, to the engine, then (when it may) to the outputs.
    public mutating func ingest(_ sentence: Sentence, from source: SourceID, at time: Double, _ act: (Action) -> Void) {
        counters.sentencesIn += 1
        count(source)
        health.read(source.index, bytes: sentence.count + 2)
        if isPassThroughEcho(sentence, from: source, at: time) || engine.isEcho(sentence, at: time) {
            counters.echoes += 1
            return
        }
        var message: Message?
        do {
            message = try Message(sentence)
        } catch {
            guard case .unsupported = error else {
                refuse(sentence, from: source, error, act)
                return
            }
        }
        if let message {
            // A fix no boat could have reached from the one before (``PositionGate``): refused as a decoder's
            // implausible value is, not shown under its source nor passed on.
            if case .invalid(let error) = engine.ingest(message, from: source, at: time) {
                refuse(sentence, from: source, error, act)
                return
            }
            if observes {
                act(
                    .observed(
                        ObservedSentence(
                            sentence: sentence, message: message, source: source, time: time,
                            unixTime: unixTime(at: time))))
            }
        }
        guard anyPassThrough else { return }
        passOn(sentence, message: message, from: source, at: time, act)
    }

    private mutating func refuse(
        _ sentence: Sentence, from source: SourceID, _ error: DecodeError, _ act: (Action) -> Void
    ) {
        counters.invalid += 1
        if case .implausible = error {
            counters.implausible += 1
            count(source, implausible: true)
        }
        act(.refused(sentence: sentence, source: source, error: error, input: name(of: source)))
    }

    /// Pass-through: at most 82 bytes (else shortened from its message, or dropped), to each output that carries
    /// it, admits its address, is not where it came from, has an audience and whose rate limit allows it.
    private mutating func passOn(
        _ sentence: Sentence, message: Message?, from source: SourceID, at time: Double, _ act: (Action) -> Void
    ) {
        let prepared: Sentence
        var shortened = false
        switch PassThrough.prepare(sentence, message: message) {
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
            guard output.passThrough, !excluded[index].contains(source), output.filter.admits(prepared.address)
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

    /// A line an input's framer refused (bad checksum, too long, not NMEA), and why (nil: a sample that was not one):
    /// counted, and watched (``InputHealth``).
    public mutating func rejected(from source: SourceID, reason: RejectReason? = nil) {
        counters.rejected += 1
        health.refused(source.index, reason: reason)
    }

    /// Each input's bytes received so far (running totals, from the shell once a second): an input whose bytes have
    /// made no sentences for a while, or make them again, said (``InputHealth``, ``Action/input``).
    public mutating func received(_ totals: [(source: SourceID, bytes: Int)], at time: Double, _ act: (Action) -> Void)
    {
        for (source, bytes) in totals { health.received(source.index, total: bytes) }
        for (index, change) in health.check(at: time) {
            let source = SourceID(index)
            act(
                .input(source: source, name: name(of: source), change: change, time: time, unixTime: unixTime(at: time))
            )
        }
    }

    /// One IMU sample (body frame FRD: m/s², degrees per second, µT).
    public mutating func ingest(
        gyroscope: SIMD3<Double>, accelerometer: SIMD3<Double>, magnetometer: SIMD3<Double>?, from source: SourceID,
        at time: Double
    ) {
        // What no IMU on a boat can read (its sensors saturate long before): counted as implausible, never filtered
        // into the heel and pitch. Found by fuzzing an IMU trace (2026-12-01): one sample of 1e308 m/s² moved the
        // heel by 0.1° for a second.
        guard Self.plausible(accelerometer, limit: 400), Self.plausible(gyroscope, limit: 5_000),
            magnetometer.map({ Self.plausible($0, limit: 10_000) }) ?? true
        else {
            counters.implausible += 1
            count(source, implausible: true)
            return
        }
        count(source)
        engine.ingest(
            gyroscope: gyroscope, accelerometer: accelerometer, magnetometer: magnetometer, from: source, at: time)
    }

    /// Every axis finite and within ±`limit` (m/s²: 40 g; °/s; µT).
    static func plausible(_ vector: SIMD3<Double>, limit: Double) -> Bool {
        abs(vector.x) <= limit && abs(vector.y) <= limit && abs(vector.z) <= limit
    }

    /// A fix that did not come as NMEA (gpsd), with the motion over ground.
    public mutating func ingest(
        _ fix: Fix, motion: GroundMotion?, from source: SourceID, at time: Double, _ act: (Action) -> Void
    ) {
        counters.sentencesIn += 1
        count(source)
        guard engine.ingest(fix, motion: motion, from: source, at: time) else {
            counters.implausible += 1
            count(source, implausible: true)
            act(.refusedFix(fix: fix, source: source, input: name(of: source)))
            return
        }
        if observes {
            act(.observedFix(fix: fix, motion: motion, source: source, time: time, unixTime: unixTime(at: time)))
        }
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
