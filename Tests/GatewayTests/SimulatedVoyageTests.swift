import Engine
import Gateway
import Marine
import NMEA
import Router
import SignalK
import Simulator
import TestSupport
import Testing

/// Golden replays of a simulated voyage, judged against the simulator's truth (not against earlier output).
@Suite struct SimulatedVoyageTests {
    struct Voyage {
        var log: Recording
        var truth: [TruthRow]
        var route: Route
    }

    static func imu(_ adjust: (inout VoyageSettings) -> Void = { _ in }) throws -> IMUFile {
        let text = String(decoding: try #require(readFile(projectFixtures() + "/demo-voyage/route.gpx")), as: UTF8.self)
        var settings = VoyageSettings()
        adjust(&settings)
        var samples: [IMUFile.Sample] = []
        VoyageSimulator(route: try GPX.route(from: text), settings: settings).run(
            sentence: { _, _ in },
            imu: { sample in
                samples.append(
                    IMUFile.Sample(
                        time: sample.time,
                        accelerometer: SIMD3(sample.accelerometer.x, sample.accelerometer.y, sample.accelerometer.z),
                        gyroscope: SIMD3(sample.gyroscope.x, sample.gyroscope.y, sample.gyroscope.z)))
            }, truth: { _ in })
        return IMUFile(samples: samples, rejected: 0)
    }

    static func voyage(_ adjust: (inout VoyageSettings) -> Void = { _ in }) throws -> Voyage {
        let text = String(decoding: try #require(readFile(projectFixtures() + "/demo-voyage/route.gpx")), as: UTF8.self)
        let route = try GPX.route(from: text)
        var settings = VoyageSettings()
        adjust(&settings)
        var bytes: [UInt8] = []
        var truth: [TruthRow] = []
        VoyageSimulator(route: route, settings: settings).run(
            sentence: { _, sentence in sentence.appendWire(to: &bytes) }, imu: { _ in }, truth: { truth.append($0) })
        // Through the same reader a replay of a file uses.
        var framer = SentenceFramer(configuration: FramerConfiguration(skipsCommentLines: true))
        var sentences: [Sentence] = []
        framer.feed(bytes) { if case .sentence(let s) = $0 { sentences.append(s) } }
        framer.finish { _ in }
        return Voyage(
            log: Recording(path: "simulated", sentences: sentences, statistics: framer.statistics),
            truth: truth, route: route)
    }

    /// Replays with tag times and returns (time, sentence) for every computed line.
    static func replay(
        _ voyage: Voyage, configuration: EngineConfiguration = EngineConfiguration(),
        route: Bool = true
    ) -> [(Double, Sentence)] {
        var options = ReplayRunner.Options()
        options.speed = nil
        options.computedOnly = true
        options.tagTime = true
        var engine = Engine(configuration: configuration)
        if route { engine.follow(voyage.route) }
        var output: [UInt8] = []
        _ = ReplayRunner(engine: engine, options: options).run([voyage.log]) { output.append(contentsOf: $0) }
        var lines: [(Double, Sentence)] = []
        var framer = SentenceFramer()
        framer.feed(output) { event in
            if case .sentence(let s) = event, let ms = s.tagBlock?.unixMilliseconds {
                lines.append((Double(ms) / 1000, s))
            }
        }
        return lines
    }

    static func truth(at time: Double, in rows: [TruthRow]) -> TruthRow {
        var low = 0
        var high = rows.count - 1
        while low < high {
            let middle = (low + high) / 2
            if rows[middle].time < time { low = middle + 1 } else { high = middle }
        }
        return rows[low]
    }

    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
    }

    static func windErrors(_ lines: [(Double, Sentence)], _ rows: [TruthRow])
        -> (twa: [Double], tws: [Double], twd: [Double])
    {
        var twa: [Double] = []
        var tws: [Double] = []
        var twd: [Double] = []
        for (time, sentence) in lines {
            let row = truth(at: time, in: rows)
            switch try? Message(sentence) {
            case .mwv(let mwv)? where mwv.reference == .true && mwv.isValid == true:
                twa.append(abs(Angle.difference(from: row.trueWind.angle, to: mwv.angle!)))
                tws.append(abs(mwv.speed! - Units.knots(metresPerSecond: row.trueWind.speed)))
            case .mwd(let mwd)? where mwd.directionTrue != nil:
                twd.append(abs(Angle.difference(from: row.trueWindDirection, to: mwd.directionTrue!)))
            default:
                break
            }
        }
        return (twa, tws, twd)
    }

    @Test("true wind from a moving, heeling masthead unit matches the simulator's truth")
    func trueWind() throws {
        let voyage = try Self.voyage()
        let (twa, tws, twd) = Self.windErrors(Self.replay(voyage), voyage.truth)
        #expect(twa.count > 1000 && twd.count > 500)
        let summary =
            "TWA median \(median(twa)!) p95 \(Self.percentile(twa, 0.95)); TWS median \(median(tws)!) kn; "
            + "TWD median \(median(twd)!) p95 \(Self.percentile(twd, 0.95))"
        print("simulated voyage, true wind against truth: " + summary)
        #expect(median(twa)! < 2)
        #expect(median(tws)! < 0.6)
        #expect(median(twd)! < 1.5)
        #expect(Self.percentile(twd, 0.95) < 4)
    }

    @Test("on a calm sea the heel correction is what brings true wind onto the truth")
    func heelCorrectionMatters() throws {
        let calm = try Self.voyage { settings in
            settings.mastHeight = 0
            settings.rollAmplitude = 0
            settings.pitchAmplitude = 0
            settings.windSpeed = 18
        }
        var off = EngineConfiguration()
        off.wind.heelCorrection = false
        let with = Self.windErrors(Self.replay(calm), calm.truth)
        let without = Self.windErrors(Self.replay(calm, configuration: off), calm.truth)
        print("calm sea: TWA median with heel correction \(median(with.twa)!), without \(median(without.twa)!)")
        #expect(median(with.twa)! < 1.2)
        #expect(median(with.twa)! < median(without.twa)!)
    }

    @Test("heel and pitch from the IMU, sent as XDR ROLL/PTCH, follow the simulator's truth")
    func attitudeFromIMU() throws {
        let voyage = try Self.voyage()
        let imu = try Self.imu()
        var options = ReplayRunner.Options()
        options.speed = nil
        options.computedOnly = true
        options.tagTime = true
        var output: [UInt8] = []
        _ = ReplayRunner(engine: Engine(), options: options).run([voyage.log], imu: imu) {
            output.append(contentsOf: $0)
        }
        var heelErrors: [Double] = []
        var pitchErrors: [Double] = []
        var framer = SentenceFramer()
        framer.feed(output) { event in
            guard case .sentence(let s) = event, let ms = s.tagBlock?.unixMilliseconds,
                case .xdr(let xdr)? = try? Message(s), let heel = xdr.heel, let pitch = xdr.pitch
            else { return }
            let time = Double(ms) / 1000
            let row = Self.truth(at: time, in: voyage.truth)
            // Compare where the truth was taken at the same moment (it is written every 0.5 s), after start-up.
            guard abs(row.time - time) < 0.011, time - voyage.truth[0].time > 30 else { return }
            heelErrors.append(abs(heel - row.heel))
            pitchErrors.append(abs(pitch - row.pitch))
        }
        let heelRMS = (heelErrors.map { $0 * $0 }.reduce(0, +) / Double(max(heelErrors.count, 1))).squareRoot()
        let pitchRMS = (pitchErrors.map { $0 * $0 }.reduce(0, +) / Double(max(pitchErrors.count, 1))).squareRoot()
        print(
            "simulated voyage, attitude from the IMU against truth: RMS heel \(heelRMS), pitch \(pitchRMS) "
                + "over \(heelErrors.count) XDR (0.1 deg resolution)")
        // XDR at 5 Hz and truth at 2 Hz meet once a second: about a thousand seconds of voyage after start-up.
        #expect(heelErrors.count > 400)
        #expect(heelRMS < 0.5 && pitchRMS < 0.5)
    }

    @Test("route guidance: XTE with the right steer letter, distance to waypoint, switches when the boat arrives")
    func routeGuidance() throws {
        let voyage = try Self.voyage()
        let lines = Self.replay(voyage)
        var xteErrors: [Double] = []
        var dtwErrors: [Double] = []
        var destinations: [(Double, String)] = []
        var lastRMB: RMB?
        for (time, sentence) in lines {
            guard case .rmb(let rmb)? = try? Message(sentence), rmb.isValid == true else { continue }
            lastRMB = rmb
            let row = Self.truth(at: time, in: voyage.truth)
            if destinations.last?.1 != rmb.destinationID { destinations.append((time, rmb.destinationID!)) }
            guard row.to == rmb.destinationID, let xte = rmb.crossTrackError, let range = rmb.range else { continue }
            // Steer left means the boat is right of the track: positive in the truth's convention.
            let signed = xte * 1852 * (rmb.steer == .left ? 1 : -1)
            xteErrors.append(abs(signed - row.crossTrack))
            dtwErrors.append(abs(range * 1852 - row.distanceToWaypoint))
        }
        print(
            "simulated voyage, guidance against truth: XTE median \(median(xteErrors)!) m p95 "
                + "\(Self.percentile(xteErrors, 0.95)) m; DTW median \(median(dtwErrors)!) m")
        #expect(median(xteErrors)! < 2)
        #expect(Self.percentile(xteErrors, 0.95) < 12)
        // RMB carries range to 0.01 NM (18.5 m): half of that is the resolution.
        #expect(median(dtwErrors)! < 10)
        #expect(destinations.map(\.1) == ["EAST", "NORTH", "FINISH"])
        // Each switch within a few seconds of the simulated boat's own arrival.
        var truthSwitches: [Double] = []
        for index in 1..<voyage.truth.count where voyage.truth[index].leg != voyage.truth[index - 1].leg {
            truthSwitches.append(voyage.truth[index].time)
        }
        #expect(truthSwitches.count == 2)
        for (engineSwitch, truthSwitch) in zip(destinations.dropFirst().map(\.0), truthSwitches) {
            #expect(abs(engineSwitch - truthSwitch) < 6, "switched at \(engineSwitch), the boat at \(truthSwitch)")
        }
        #expect(lastRMB?.arrived == true && lastRMB?.destinationID == "FINISH")
    }
}

extension SimulatedVoyageTests {
    @Test("at anchor: the watch set where the crew let go, quiet while it holds, alarmed after the hold outside")
    func anchorage() throws {
        // Past the finish she luffs, stops and anchors (20 s after the finish), lies 4 minutes, then drags.
        let voyage = try Self.voyage { $0.anchorage = VoyageSettings.Anchorage(dropAt: 0, lie: 420, dragAfter: 240) }
        let start = voyage.truth[0].time
        let dropRow = try #require(voyage.truth.first { $0.anchor != nil })
        let truthAnchor = try #require(dropRow.anchor)
        var configuration = EngineConfiguration()
        configuration.kinds = [.alarm]
        configuration.bowOffset = 4
        configuration.anchor.radius = 50
        configuration.anchor.hold = 20
        var engine = Engine(configuration: configuration)
        engine.follow(voyage.route)
        var options = ReplayRunner.Options()
        options.speed = nil
        options.computedOnly = true
        options.tagTime = true
        options.commands = [ReplaySession.ScheduledCommand(at: dropRow.time - start, .anchor(.drop(radius: nil)))]
        options.signalK = SignalKModel(urn: SignalKModel.urn(seed: "anchorage"))
        var output: [UInt8] = []
        var deltas: [UInt8] = []
        let result = ReplayRunner(engine: engine, options: options).run(
            [voyage.log], write: { output.append(contentsOf: $0) }, writeDeltas: { deltas.append(contentsOf: $0) })
        #expect(result.summary.commands.count == 1 && result.summary.commands[0].outcome.isDone)

        // The engine's anchor, from its first Signal K delta: at the bow when she let go.
        let text = String(decoding: deltas, as: UTF8.self)
        let key = #""path":"navigation.anchor.position","value":{"latitude":"#
        let at = try #require(text.firstRange(of: key))
        let numbers = text[at.upperBound...].prefix { $0 != "}" }.split(separator: ",")
        let latitude = try #require(Double(String(numbers[0])))
        let longitude = try #require(Double(String(numbers[1].drop { $0 != ":" }.dropFirst())))
        let anchor = GeoPoint(latitude: latitude, longitude: longitude)
        let misplaced = Geodesic.wgs84.inverse(anchor, truthAnchor).distance
        #expect(misplaced < 6, "the watch's anchor \(misplaced) m from where it went down")

        // When the simulated boat (the GPS antenna) first lay outside the circle about the watch's anchor.
        func distance(_ row: TruthRow) -> Double { Geodesic.wgs84.inverse(anchor, row.position).distance }
        let dragStart = dropRow.time + 240
        let holding = voyage.truth.filter { $0.time > dropRow.time + 120 && $0.time < dragStart }
        let lying = holding.map(distance)
        #expect(lying.max()! < 47 && lying.min()! > 35, "she lay \(lying.min()!)–\(lying.max()!) m from it")
        let outside = try #require(voyage.truth.first { $0.time > dragStart && distance($0) > 50 }).time
        var alarms: [(Double, String)] = []
        var framer = SentenceFramer()
        framer.feed(output) { event in
            if case .sentence(let s) = event, let ms = s.tagBlock?.unixMilliseconds, s.description.contains("ALR,") {
                alarms.append((Double(ms) / 1000, s.description))
            }
        }
        let raised = try #require(alarms.first { $0.1.contains(",171,A,") }).0
        print(
            "simulated anchorage: anchor placed \(misplaced) m off; out of the circle at \(outside - start) s, alarm at \(raised - start) s"
        )
        #expect(raised > dragStart)
        #expect(raised >= outside + 20 - 10 && raised <= outside + 20 + 10, "alarm \(raised - outside) s after")
        // Past the finish, no XTE alarm.
        #expect(!alarms.contains { $0.0 > dropRow.time && $0.1.contains(",121,A,") })
    }
}
