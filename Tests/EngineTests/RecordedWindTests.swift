import Engine
import Marine
import NMEA
import TestSupport
import Testing

/// Our true wind against the true wind the boats' own instruments computed, from the same apparent wind and
/// speed through water in real recordings.
@Suite struct RecordedWindTests {
    struct Recording: Sendable, CustomTestStringConvertible {
        let file: String
        var testDescription: String { file }
    }

    @Test(
        "true wind computed from the recorded apparent wind agrees with the instruments' own",
        arguments: [Recording(file: "plaka.log"), Recording(file: "bundg_zeus_9.log")])
    func agreesWithInstruments(_ recording: Recording) throws {
        guard let folder = sharedFixtures() else {
            print("SKIPPED: ../shared/fixtures is absent; \(recording.file) true wind not compared")
            return
        }
        let bytes = try #require(readFile(folder + "/" + recording.file))
        // Like for like: the instruments' true wind has no heel or leeway correction we could know of, and they
        // damp their own, so damping is off and each instrument value is compared with ours at that moment.
        var configuration = undampedConfiguration()
        configuration.timeouts.wind = 30
        configuration.timeouts.speed = 30
        var engine = Engine(configuration: configuration)
        let bus = engine.source(named: "bus")
        var time = 0.0
        var pairs: [(theirs: RelativeWind, ours: RelativeWind)] = []
        var framer = SentenceFramer(configuration: FramerConfiguration(skipsCommentLines: true))
        framer.feed(bytes) { event in
            guard case .sentence(let sentence) = event else { return }
            time += 0.01
            if case .mwv(let mwv)? = try? Message(sentence), mwv.reference == .true, mwv.isValid != false,
                let angle = mwv.angle, let speed = mwv.speedKnots
            {
                // Compare before ingesting: the engine must not simply pass the instrument's value on.
                engine.tick(at: time) { _, _ in }
                if let ours = engine.values.trueWind, !engine.values.apparentWindIsDerived {
                    pairs.append(
                        (
                            RelativeWind(angle: Angle.relative(angle), speed: speed),
                            RelativeWind(angle: ours.angle, speed: Units.knots(metresPerSecond: ours.speed))
                        ))
                }
                return
            }
            engine.ingest(sentence, from: bus, at: time)
        }
        // Instruments damp their true wind and send it between apparent readings, so single readings are not
        // comparable; windows of 20 readings, averaged as vectors, are.
        var angleErrors: [Double] = []
        var speedErrors: [Double] = []
        var start = 0
        while start + 20 <= pairs.count {
            let window = pairs[start..<(start + 20)]
            let theirs = window.reduce(PlaneVector(x: 0, y: 0)) { $0 + $1.theirs.vector }
            let ours = window.reduce(PlaneVector(x: 0, y: 0)) { $0 + $1.ours.vector }
            angleErrors.append(abs(Angle.difference(from: theirs.angle, to: ours.angle)))
            speedErrors.append(abs(ours.magnitude - theirs.magnitude) / 20)
            start += 20
        }
        let angle = try #require(median(angleErrors))
        let speed = try #require(median(speedErrors))
        print(
            "\(recording.file): \(pairs.count) true-wind readings in \(angleErrors.count) windows; median difference "
                + "\(rounded(angle)) deg, \(rounded(speed)) kn")
        #expect(angleErrors.count >= 5)
        #expect(angle < 3)
        #expect(speed < 0.5)
    }

    private func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }
}
