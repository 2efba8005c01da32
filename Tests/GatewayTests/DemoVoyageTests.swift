import Engine
import Gateway
import Marine
import NMEA
import Router
import SignalK
import TestSupport
import Testing

/// The committed demo voyage (Fixtures/demo-voyage, made by Fixtures/demo-voyage/make.sh).
@Suite struct DemoVoyageTests {
    let folder = projectFixtures() + "/demo-voyage"

    /// Seconds into the voyage at which make.sh drops the anchor (`--anchor-drop`), when the simulated crew did.
    static let anchorDrop = 1440.0

    /// The replay's options as make.sh gives them: as fast as it goes, computed sentences only, the anchor dropped.
    static func options() -> ReplayRunner.Options {
        var options = ReplayRunner.Options()
        options.speed = nil
        options.computedOnly = true
        options.commands = [ReplaySession.ScheduledCommand(at: anchorDrop, .anchor(.drop(radius: nil)))]
        return options
    }

    /// The demo voyage's log and IMU trace, and the engine as make.sh replays them: replay.toml's settings, the route,
    /// the start line, the sequence started with the log.
    func demo() throws -> (log: Recording, imu: IMUFile, engine: Engine) {
        let log = try Recording.read(folder + "/voyage.nmea")
        let imu = try IMUFile.read(folder + "/imu.csv")
        let settings = try ConfigurationFile.load(path: folder + "/replay.toml")
        var configuration = settings.engine
        configuration.kinds = ComputedKind.standard
        configuration.echoWindow = 0
        let engine = try ReplayCommand.engine(
            configuration, route: settings.route, line: settings.race.line, race: settings.race, raceStart: 0)
        return (log, imu, engine)
    }

    @Test("replaying the demo voyage with its route, IMU and alarm gives expected.nmea byte for byte, every time")
    func goldenReplay() throws {
        let (log, imu, engine) = try demo()
        var options = Self.options()
        options.tagTime = true
        var first: [UInt8] = []
        _ = ReplayRunner(engine: engine, options: options).run([log], imu: imu) { first.append(contentsOf: $0) }
        var second: [UInt8] = []
        _ = ReplayRunner(engine: engine, options: options).run([log], imu: imu) { second.append(contentsOf: $0) }
        #expect(first == second)
        let expected = try #require(readFile(folder + "/expected.nmea"))
        let differences = GoldenComparison.differences(expected: expected, actual: first)
        #expect(differences.isEmpty, "\(differences)")
        // It exercises every computed sentence of the standard set, a waypoint switch and an alarm.
        let text = String(decoding: first, as: UTF8.self)
        for address in [
            "IIMWV", "IIMWD", "IIVPW", "IIHDT", "IIXTE", "IIBWC", "IIBWR", "IIRMB", "IIAPB", "IIWCV", "IIXDR", "IIALR",
        ] {
            #expect(text.contains("$" + address), "no \(address) in the demo replay")
        }
        #expect(text.contains(",EAST,NORTH,") && text.contains(",NORTH,FINISH,"))
        #expect(text.contains(",101,A,V,Heel over 18 deg") && text.contains(",101,V,V,Heel over 18 deg"))
        // Each alarm replay.toml sets is raised and cleared; the arrival at each mark is said by name.
        for number in [121, 131, 141] {
            #expect(text.contains(",\(number),A,V,") && text.contains(",\(number),V,V,"), "alarm \(number)")
        }
        for mark in ["EAST", "NORTH", "FINISH"] { #expect(text.contains(",122,A,V,Arrived at \(mark)")) }
        // The simulated boat sails to the polar it was given: the engine, from the instruments alone, reads it at
        // 100% (median; gusts and the boat's lag in accelerating spread it).
        let percentages = text.split(separator: "\r\n").compactMap { line -> Double? in
            guard let range = line.firstRange(of: "POLSPD,G,") else { return nil }
            return Double(line[range.upperBound...].prefix { $0 != "," })
        }
        #expect(percentages.count > 1000)
        let middle = median(percentages)
        let median = try #require(middle)
        #expect(median >= 98 && median <= 102, "median polar \(median)%")
        // The start: a 5-minute sequence from the log's first second; the boat times its run and crosses the line
        // just after the gun (the simulated helmsman aims at 3 s after it): the bow's distance to the line goes
        // negative between 300 and 306 s, and there is no over-early alarm.
        let lines = text.split(separator: "\r\n")
        func seconds(_ line: Substring) -> Double? { Double(line.dropFirst(3).prefix { $0 != "*" }).map { $0 / 1000 } }
        let origin = try #require(lines.first.flatMap(seconds))
        let crossed = lines.first { line in
            guard let range = line.firstRange(of: "XDR,D,") else { return false }
            return line.contains("LINEDIST") && line[range.upperBound...].hasPrefix("-")
        }
        let crossing = try #require(crossed.flatMap(seconds)) - origin
        #expect(crossing >= 300 && crossing <= 306, "crossed the line \(crossing) s after the sequence began")
        #expect(!text.contains(",151,A,"))
        // The ship crossing 150 m ahead 1000 s in raises the collision alarm, by name, minutes before, and it clears
        // once she has passed; the one a mile off never does.
        func firstTime(_ needle: String) -> Double? {
            lines.first { $0.contains(needle) }.flatMap(seconds).map { $0 - origin }
        }
        let collision = try #require(firstTime(",161,A,V,Collision risk: EVER DIADEM"))
        let passed = try #require(firstTime(",161,V,V,"))
        #expect(collision > 1000 - 600 && collision < 1000 - 120, "collision alarm \(collision) s in")
        #expect(passed > 1000 && passed < 1000 + 60, "cleared \(passed) s in")
        #expect(!text.contains("SHIP 2"))
        // At anchor past the finish: no XTE alarm for the route sailed; the drag alarm once the anchor has dragged
        // (from 1740 s) the boat out of the 50 m circle she lay 41 m into, and held 20 s.
        let finish = try #require(firstTime(",122,A,V,Arrived at FINISH"))
        #expect(!lines.contains { line in line.contains(",121,A,") && (seconds(line) ?? 0) - origin > finish + 60 })
        let drag = try #require(firstTime(",171,A,V,Anchor dragging"))
        #expect(drag > 1740 + 20 && drag < 1740 + 150, "drag alarm \(drag) s in")
    }

    @Test("the replay's Signal K delta stream is the same every time and starts as expected-signalk.jsonl says")
    func goldenDeltas() throws {
        let (log, imu, engine) = try demo()
        var options = Self.options()
        options.signalK = SignalKModel(urn: SignalKModel.urn(seed: "telltale replay"))
        func deltas() -> [UInt8] {
            var out: [UInt8] = []
            let collect = { (bytes: UnsafeRawBufferPointer) in out.append(contentsOf: bytes) }
            _ = ReplayRunner(engine: engine, options: options).run(
                [log], imu: imu, write: { _ in }, writeDeltas: collect)
            return out
        }
        let first = deltas()
        #expect(first == deltas())
        let lines = first.split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }
        let expected = try #require(readFile(folder + "/expected-signalk.jsonl"))
        let differences = GoldenComparison.differences(
            expected: expected, actual: Array(lines.prefix(300).joined(separator: "\n").utf8) + [0x0A])
        #expect(differences.isEmpty, "\(differences)")
        let end = try #require(readFile(folder + "/expected-signalk-end.jsonl"))
        let endDifferences = GoldenComparison.differences(
            expected: end, actual: Array(lines.suffix(100).joined(separator: "\n").utf8) + [0x0A])
        #expect(endDifferences.isEmpty, "\(endDifferences)")
        // The whole voyage: every line a delta of this boat or of a ship on AIS; the heel alarm raised and cleared;
        // the next waypoint changing at each mark; a value withdrawn when its input stopped; the ships named; the
        // anchor watch and its drag alarm, an emergency.
        #expect(lines.count > 10_000)
        let contexts = Set(lines.compactMap { JSONValue.parse($0)?["context"]?.string })
        #expect(
            contexts == [
                options.signalK!.context, "vessels.urn:mrn:imo:mmsi:235000001", "vessels.urn:mrn:imo:mmsi:235000002",
            ])
        let text = String(decoding: first, as: UTF8.self)
        #expect(text.contains(#""path":"notifications.heel.over","value":{"state":"alarm""#))
        #expect(text.contains(#""path":"notifications.heel.over","value":{"state":"normal""#))
        #expect(text.contains(#""value":null"#))
        #expect(text.contains(#""path":"navigation.racing.timeToStart","value":299"#))
        #expect(text.contains(#""path":"navigation.racing.distanceStartline""#))
        #expect(text.contains(#""path":"performance.polarSpeedRatio""#))
        #expect(text.contains(#""path":"","value":{"name":"EVER DIADEM"}"#))
        #expect(text.contains(#""path":"notifications.navigation.closestApproach","value":{"state":"alarm""#))
        #expect(text.contains(#""path":"navigation.anchor.maxRadius","value":50"#))
        #expect(text.contains(#""path":"notifications.navigation.anchor","value":{"state":"emergency""#))
        let nextPoints = Set(
            lines.compactMap { line -> String? in
                guard
                    let range = line.firstRange(
                        of: #""path":"navigation.courseGreatCircle.nextPoint.position","value":"#)
                else { return nil }
                return String(line[range.upperBound...].prefix(40))
            })
        #expect(nextPoints.count >= 3, "\(nextPoints)")
    }
}
