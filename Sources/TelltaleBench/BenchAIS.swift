import ArgumentParser
import Engine
import Marine
import NMEA
import Platform

extension Bench {
    /// `telltale-bench ais`: AIS at a busy port's scale: the codec on position reports, and once a second every
    /// station's CPA and TCPA.
    struct AIS: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ais",
            abstract: "Time AIS: a position report framed, decoded and taken; every station's CPA judged (1 Hz).")

        @Option(help: "Stations around the boat.")
        var targets = 200

        @Option(help: "Seconds of traffic to simulate (each station reports every 10 s).")
        var seconds = 600

        func run() throws {
            // Stations scattered within 10 NM of the boat, each with its own course and speed.
            let here = GeoPoint(latitude: 50.75, longitude: -1.2)
            var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
            func random() -> Double {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Double(seed >> 11) / Double(1 << 53)
            }
            var reports: [[UInt8]] = []
            for index in 0..<targets {
                let point = Geodesic.wgs84.direct(from: here, azimuth: random() * 360, distance: random() * 18_520)
                    .point
                var report = AISReport(messageType: 1, mmsi: 235_000_000 + UInt32(index))
                report.position = AISReport.Position(
                    latitude: point.latitude, longitude: point.longitude, speedOverGround: random() * 20,
                    courseOverGround: random() * 359.9, heading: nil, navigationStatus: 0, second: index % 60)
                for sentence in report.positionBits().sentences() {
                    var bytes: [UInt8] = []
                    sentence.appendWire(to: &bytes)
                    reports.append(bytes)
                }
            }
            var configuration = EngineConfiguration()
            configuration.kinds = []
            var engine = Engine(configuration: configuration)
            let source = engine.source(named: "ais")
            let own = engine.source(named: "gps")
            var framer = SentenceFramer(configuration: FramerConfiguration())
            // Every station reports every 10 s: a tenth of them a second.
            var taken = 0
            var ingest = 0.0
            var tick = 0.0
            for second in 0..<seconds {
                let time = Double(second)
                // The own boat's fix: CPA needs it.
                let fix = RMC(
                    time: UTCTime(millisecondsOfDay: 36_000_000 + second * 1000), isValid: true,
                    latitude: here.latitude, longitude: here.longitude, speedOverGround: 6, courseOverGround: 45,
                    date: UTCDate(year: 2026, month: 11, day: 25), mode: .autonomous)
                if let sentence = try? fix.encode(talker: Talker(UInt8(ascii: "G"), UInt8(ascii: "P"))) {
                    engine.ingest(sentence, from: own, at: time)
                }
                let start = monotonicSeconds()
                for index in stride(from: second % 10, to: reports.count, by: 10) {
                    reports[index].withUnsafeBufferPointer { bytes in
                        framer.feed(bytes) { event in
                            guard case .sentence(let sentence) = event else { return }
                            if engine.ingest(sentence, from: source, at: time) == .used { taken += 1 }
                        }
                    }
                }
                let ingested = monotonicSeconds()
                ingest += ingested - start
                engine.tick(at: time + 0.5) { _, _ in }
                tick += monotonicSeconds() - ingested
            }
            let stations = engine.ais.targets.count
            let judged = engine.ais.targets.filter { $0.approach != nil }.count
            let perMessage = ingest / Double(max(taken, 1)) * 1e9
            let perTick = tick / Double(seconds) * 1e6
            let table = MemoryLayout<AISTarget>.stride * AISTargets.capacity
            Console.out(
                "\(taken) position reports from \(stations) stations over \(seconds) s: "
                    + "\(format(perMessage, decimals: 0)) ns each (framed, decoded, taken); "
                    + "a tick with every station's CPA judged (\(judged) judged): \(format(perTick, decimals: 0)) us; "
                    + "the table's fixed part at its capacity of \(AISTargets.capacity): \(table / 1024) KB\n")
        }
    }
}
