import Engine
import Marine
import NMEA
import Router
import TestSupport
import Testing

@testable import Bridge
@testable import N2K

/// The demo voyage through NMEA 2000 and back: every 0183 sentence converted onto a bus (``N2KOutbound``, all
/// conversions on), cut into frames, reassembled (``N2KReceiver``), read back into 0183 (``N2KInbound``) and given to
/// an engine; the same voyage given as it is to another. The two engines' computed values are the same within what
/// the encodings hold (0.1° and 0.1 kn on 0183, 0.0001 rad and 0.01 m/s on 2000).
@Suite struct RoundTripTests {
    struct Sample {
        var time: Double
        var trueWind: RelativeWind?
        var apparent: RelativeWind?
        var heading: Double?
        var speedOverGround: Double?
        var position: GeoPoint?
        var depth: Double?
    }

    static func voyage(minutes: Double) -> [TimedSentence] {
        guard let bytes = readFile(projectFixtures() + "/demo-voyage/voyage.nmea") else { return [] }
        var framer = SentenceFramer(configuration: FramerConfiguration())
        var sentences: [Sentence] = []
        bytes.withUnsafeBufferPointer { framer.feed($0) { if case .sentence(let s) = $0 { sentences.append(s) } } }
        let times = RecordingTimeline.times(of: sentences, lineRate: 10)
        guard let first = times.first else { return [] }
        return zip(times, sentences).filter { $0.0 - first <= minutes * 60 }.map {
            TimedSentence(time: $0.0 - first, sentence: $0.1, log: 0)
        }
    }

    static func sail(_ timeline: [TimedSentence], throughBus: Bool) -> [Sample] {
        var router = Router(engine: Engine(), outputs: [])
        let source = router.source(named: throughBus ? "n2k:@35" : "instruments")
        var settings = N2KOutbound.Settings()
        settings.convert = Set(N2KOutbound.Conversion.allCases)
        settings.hold = 0
        var outbound = N2KOutbound(settings: settings)
        var receiver = N2KReceiver()
        var inbound = N2KInbound()
        var assembler = AISAssembler()
        var samples: [Sample] = []
        var sequence: UInt8 = 0
        func bus(_ outgoing: N2KOutbound.Outgoing, at time: Double) {
            let message = N2KMessage(
                pgn: outgoing.pgn, priority: outgoing.priority, source: 35, payload: outgoing.payload)
            sequence = (sequence + 1) & 7
            for frame in N2KSender.frames(message, sequence: sequence) {
                receiver.feed(frame, at: time) { whole in
                    inbound.convert(whole, at: time) { router.ingest($0, from: source, at: time) { _ in } }
                }
            }
        }
        var nextTick = 0.0
        for item in timeline {
            while nextTick < item.time {
                if throughBus { outbound.tick(at: nextTick) { bus($0, at: nextTick) } }
                router.tick(at: nextTick) { action in
                    guard case .report(let report) = action else { return }
                    let v = report.values
                    samples.append(
                        Sample(
                            time: nextTick, trueWind: v.trueWind, apparent: v.apparentWind, heading: v.headingTrue,
                            speedOverGround: v.speedOverGround, position: v.position?.point, depth: v.depth))
                }
                nextTick += 0.1
            }
            if !throughBus {
                router.ingest(item.sentence, from: source, at: item.time) { _ in }
            } else if item.sentence.address.formatter == VDM.formatter {
                if case .vdm(let fragment)? = try? Message(item.sentence),
                    let bits = assembler.add(fragment, source: 0, at: item.time), let report = AISReport(bits)
                {
                    outbound.ais(report, at: item.time) { bus($0, at: item.time) }
                }
            } else {
                outbound.sentence(item.sentence, at: item.time) { bus($0, at: item.time) }
            }
        }
        return samples
    }

    @Test("the demo voyage's computed values through 2000 and back are the direct ones within the encodings")
    func demoVoyage() throws {
        let timeline = Self.voyage(minutes: 8)
        try #require(timeline.count > 1000, "the demo voyage is read")
        nonisolated(unsafe) var direct: [Sample] = []
        nonisolated(unsafe) var bus: [Sample] = []
        let thread = TestThread {
            direct = Self.sail(timeline, throughBus: false)
            bus = Self.sail(timeline, throughBus: true)
        }
        thread.join()
        #expect(direct.count == bus.count && direct.count > 4000)
        var compared = 0
        var worst = (tws: 0.0, twa: 0.0, heading: 0.0, sog: 0.0, position: 0.0, depth: 0.0)
        for index in direct.indices.dropLast() where direct[index].time > 30 {
            let a = direct[index]
            let b = bus[index]
            // The GPS's sentences wait out the merge window (50 ms) on their way onto the bus: what comes of them may
            // be a tick later there, so the position and the speed are held against the same tick or the next.
            let later = bus[index + 1]
            guard let ta = a.trueWind, let tb = b.trueWind, let ha = a.heading, let hb = b.heading,
                let sa = a.speedOverGround, let pa = a.position
            else { continue }
            compared += 1
            worst.tws = max(worst.tws, abs(ta.speed - tb.speed))
            worst.twa = max(worst.twa, abs(Angle.difference(from: ta.angle, to: tb.angle)))
            worst.heading = max(worst.heading, abs(Angle.difference(from: ha, to: hb)))
            let speeds = [b.speedOverGround, later.speedOverGround].compactMap { $0.map { abs(sa - $0) } }
            worst.sog = max(worst.sog, speeds.min() ?? .infinity)
            let places = [b.position, later.position].compactMap { $0.map { Geodesic.wgs84.inverse(pa, $0).distance } }
            worst.position = max(worst.position, places.min() ?? .infinity)
            if let da = a.depth, let db = b.depth { worst.depth = max(worst.depth, abs(da - db)) }
        }
        #expect(compared > Int(Double(direct.count) * 0.8), "\(compared) ticks compared of \(direct.count)")
        // A knot's tenth and a tenth of a degree each way, damped: what 0183 itself holds.
        #expect(worst.tws < 0.06, "true wind speed differs by \(worst.tws) m/s")
        #expect(worst.twa < 0.6, "true wind angle differs by \(worst.twa)°")
        #expect(worst.heading < 0.11, "heading differs by \(worst.heading)°")
        // The speed over ground is damped: while the boat accelerates (half a knot a second after a tack), its input
        // coming 50 ms later leaves the damped value a few hundredths behind for a tick or two.
        #expect(worst.sog < 0.1, "speed over ground differs by \(worst.sog) m/s")
        #expect(worst.position < 1.0, "the position differs by \(worst.position) m")
        #expect(worst.depth < 0.011, "the depth differs by \(worst.depth) m")
    }
}
