import ArgumentParser
import Engine
import Gateway
import Marine
import NMEA

extension Bench {
    /// `telltale-bench engine`: the cost of one tick with every wind and heading derivation running.
    struct EngineTick: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "engine",
            abstract: "Time one engine tick with every wind and heading derivation enabled.")

        @Option(help: "Ticks to run.")
        var ticks = 1_000_000

        @Flag(help: "Print one JSON object.")
        var json = false

        @Flag(help: "With a learnt calibration applied (offset, upwash by wind speed, log by side, compass card).")
        var calibrated = false

        func run() throws {
            var configuration = EngineConfiguration()
            configuration.kinds = Set(ComputedKind.allCases)
            configuration.wind.mastMotion = true
            configuration.wind.mastHeight = 15
            configuration.variation = 1.5
            // Inputs fed once stay current for the whole run, so every tick runs every derivation.
            configuration.timeouts.wind = 1e12
            configuration.timeouts.speed = 1e12
            configuration.timeouts.heading = 1e12
            configuration.timeouts.position = 1e12
            configuration.timeouts.attitude = 1e12
            if calibrated {
                var calibration = SailingCalibration(
                    awaOffset: -4.5, speedFactor: 1.03, deviation: DeviationCurve([0.5, 2, -1, 0.3, 0.2]),
                    awsFactor: 0.97, speedSide: -0.02)
                calibration.upwashByWind = UpwashByWind(
                    windSpeeds: [7, 11, 16], upwind: [-2, -1, 0], downwind: [3, 2, 1])
                configuration.wind.calibration = calibration
            }
            var engine = Engine(configuration: configuration)
            let bus = engine.source(named: "bus")
            let imu = engine.source(named: "imu")
            let feed: [Sentence] = [
                try MWV(angle: 35, reference: .relative, speed: 14, isValid: true).encode(talker: "WI"),
                try VHW(speedKnots: 6.2).encode(talker: "VW"),
                try HDG(sensorHeading: 228, deviation: 1, variation: 1.5).encode(talker: "HC"),
                try RMC(
                    time: UTCTime(hours: 12, minutes: 0, seconds: 0), isValid: true, latitude: 52, longitude: 5,
                    speedOverGround: 6, courseOverGround: 233, magneticVariation: 1.5, mode: .autonomous
                ).encode(talker: "GP"),
            ]
            for sentence in feed { engine.ingest(sentence, from: bus, at: 0) }
            engine.ingest(Attitude(heel: 12, pitch: 1, rollRate: 3, pitchRate: -1), from: imu, at: 0)
            var emitted = 0
            let count = max(ticks, 1)
            let start = monotonicSeconds()
            for index in 0..<count {
                engine.tick(at: Double(index) * 0.1) { _, _ in emitted &+= 1 }
            }
            let nanoseconds = (monotonicSeconds() - start) / Double(count) * 1e9
            let text =
                "\(count) ticks: \(format(nanoseconds, decimals: 0)) ns per tick "
                + "(sentences encoded on the ticks they are due: \(emitted))"
            report(json: json, text: text) { writer in
                writer.value("ticks", count)
                writer.value("nanoseconds_per_tick", nanoseconds)
                writer.value("sentences", emitted)
            }
        }
    }
}
