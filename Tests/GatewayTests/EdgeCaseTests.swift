import Engine
import Gateway
import Marine
import NMEA
import TestSupport
import Testing

/// The hand-written logs of Fixtures/edge-cases, judged on what a sailor's plotter would receive. Every expectation
/// here was worked out by hand from the logs (see their README), not taken from an earlier run.
@Suite struct EdgeCaseTests {
    static let folder = projectFixtures() + "/edge-cases"

    static func replay(_ files: [String], route: Route? = nil, kinds: Set<ComputedKind> = ComputedKind.standard)
        throws -> (lines: [(Double, Sentence)], result: ReplayRunner.Result)
    {
        let logs = try files.map { try Recording.read(folder + "/" + $0) }
        var configuration = EngineConfiguration()
        configuration.echoWindow = 0
        configuration.kinds = kinds
        var engine = Engine(configuration: configuration)
        if let route { engine.follow(route) }
        var options = ReplayRunner.Options()
        options.speed = nil
        options.tagTime = true
        var output: [UInt8] = []
        let result = ReplayRunner(engine: engine, options: options).run(logs) { output.append(contentsOf: $0) }
        var lines: [(Double, Sentence)] = []
        var framer = SentenceFramer(configuration: .strict)
        framer.feed(output) { event in
            if case .sentence(let s) = event { lines.append((Double(s.tagBlock!.unixMilliseconds!) / 1000, s)) }
        }
        #expect(framer.statistics.rejects.total == 0, "an output line broke the 82-byte rules")
        return (lines, result)
    }

    @Test("noise: 13 sentences framed, 6 lines refused by reason, one unreadable field, one long XDR shortened")
    func noise() throws {
        let (lines, result) = try Self.replay(["noise.nmea"])
        #expect(result.sentencesRead == 13)
        #expect(result.rejects[.noStart] == 1)
        #expect(result.rejects[.invalidByte] == 2)
        #expect(result.rejects[.truncated] == 1)
        #expect(result.rejects[.checksum] == 1)
        #expect(result.rejects[.missingChecksum] == 1)
        #expect(result.rejects.total == 6)
        #expect(result.summary.invalid == 1)
        #expect(result.summary.passedThrough == 12)
        #expect(result.summary.shortened == 1)
        let passed = lines.map { $0.1.description }
        #expect(passed.contains { $0.hasPrefix("$GPRWV,") })
        #expect(passed.contains { $0.hasPrefix("$02MWV,") })
        #expect(!passed.contains { $0.contains("-1.-3") })
        let shortened = try #require(passed.first { $0.hasPrefix("$IIXDR,C,12.5,C,AIRTEMP") })
        #expect(shortened.count + 2 <= 82)
    }

    @Test("midnight: the replay clock runs on through 00:00 UTC")
    func midnight() throws {
        let (lines, _) = try Self.replay(["midnight.nmea"])
        let times = lines.map(\.0)
        #expect(times == times.sorted())
        let first = try #require(times.first)
        let last = try #require(times.last)
        #expect(last - first >= 5 && last - first < 7)
        let midnight = Double(UTCDate(year: 2026, month: 11, day: 23).daysSinceEpoch) * 86_400
        #expect(first < midnight && last > midnight)
        #expect(lines.contains { (try? MWV($0.1))?.reference == .true })
    }

    @Test("stale wind: true wind goes V 3 s after the instrument falls silent, and is valid again when it is back")
    func staleWind() throws {
        let (lines, _) = try Self.replay(["stale-wind.nmea"])
        let noon = Double(UTCDate(year: 2026, month: 11, day: 22).daysSinceEpoch) * 86_400 + 12 * 3600
        var states: [(Double, Bool)] = []
        for (time, sentence) in lines where sentence.address.formatter == "MWV" && sentence.address.talker == "II" {
            if let mwv = try? MWV(sentence), mwv.reference == .true {
                states.append((time - noon, mwv.isValid == true))
            }
        }
        // The last reading before the gap is at 12:00:04.75 (spread over the second); 3 s later it is stale.
        #expect(states.filter { $0.0 > 2 && $0.0 < 7 }.allSatisfy { $0.1 })
        #expect(states.filter { $0.0 > 8.5 && $0.0 < 15 }.allSatisfy { !$0.1 })
        #expect(states.filter { $0.0 > 8.5 && $0.0 < 15 }.count >= 10)
        #expect(states.filter { $0.0 > 15.9 }.allSatisfy { $0.1 })
    }

    @Test("two GPS receivers: when A stops, position fails over to B after the 5 s timeout")
    func failover() throws {
        // An east-west leg along A's latitude: A is on the track, B 185 m north of it (steer right).
        let route = Route(waypoints: [
            Waypoint(id: "W", position: GeoPoint(latitude: 50.78, longitude: -1.35)),
            Waypoint(id: "E", position: GeoPoint(latitude: 50.78, longitude: -1.20)),
        ])
        let (lines, _) = try Self.replay(["gps-a.nmea", "gps-b.nmea"], route: route, kinds: [.crossTrackError])
        let noon = Double(UTCDate(year: 2026, month: 11, day: 22).daysSinceEpoch) * 86_400 + 12 * 3600
        var xte: [(Double, Double)] = []
        for (time, sentence) in lines {
            guard let value = try? XTE(sentence), value.status1 == true, let magnitude = value.magnitude else {
                continue
            }
            xte.append((time - noon, magnitude * 1852 * (value.steer == .right ? -1 : 1)))
        }
        // A until its last fix (12:00:09) is 5 s old; B from then on. (The geodesic leg bows about a metre poleward of
        // the parallel its ends share, so "on the track" reads about 1 m.)
        #expect(xte.filter { $0.0 < 13.5 }.allSatisfy { abs($0.1) < 2.5 })
        #expect(xte.filter { $0.0 > 15 }.allSatisfy { abs($0.1 + 184) < 4 })
        #expect(xte.filter { $0.0 > 15 }.count > 10)
    }
}
