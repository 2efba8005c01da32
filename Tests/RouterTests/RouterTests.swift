import Engine
import NMEA
import Router
import TestSupport
import Testing

@Suite struct RouterTests {
    func sentence(_ body: String) throws -> Sentence { try Sentence(parsing: checksummed(body)) }

    /// A router over a fresh engine, with outputs named after their index; sources 0 and 1 are two inputs.
    func router(_ outputs: [OutputPolicy], echoWindow: Double = 2) -> Router {
        var configuration = EngineConfiguration()
        configuration.echoWindow = echoWindow
        return Router(engine: Engine(configuration: configuration), outputs: outputs, echoWindow: echoWindow)
    }

    /// What each output was handed, in order.
    func route(_ router: inout Router, _ events: [(String, Int, Double)]) throws -> [[String]] {
        var sent = Array(repeating: [String](), count: router.outputs.count)
        for (body, source, time) in events {
            router.ingest(try sentence(body), from: SourceID(source), at: time) { action in
                if case .send(let output, let s, _) = action { sent[output].append(s.description) }
            }
        }
        return sent
    }

    @Test("a peer that echoes pass-through back on its own input does not make it come out twice elsewhere")
    func passThroughEcho() throws {
        // Output 0 is the peer (it echoes everything back on input 1), output 1 a plotter.
        var peer = OutputPolicy(name: "peer")
        peer.excludedSources = [SourceID(1)]
        var r = router([peer, OutputPolicy(name: "plotter")])
        let depth = "SDDPT,12.1,0.4"
        let sent = try route(&r, [(depth, 0, 10.0), (depth, 1, 10.01), (depth, 0, 11.0), (depth, 1, 11.01)])
        #expect(sent[1] == [checksummed(depth), checksummed(depth)], "the plotter got \(sent[1])")
        #expect(r.counters.echoes == 2)
    }

    @Test("nothing read from a bus goes back onto it: every device of an excluded input, also those heard later")
    func excludedInputs() throws {
        var bus = OutputPolicy(name: "n2k")
        bus.excludedInputs = ["n2k"]
        var r = router([bus, OutputPolicy(name: "plotter")])
        let serial = r.source(named: "instruments")
        let early = r.source(named: "n2k:@35")
        let late = r.source(named: "n2k:c0a8e4001e2ff6f1")
        let lookalike = r.source(named: "n2k2")
        let sent = try route(
            &r,
            [
                ("SDDPT,12.1,0.4", early.index, 1), ("VWVHW,,T,,M,6.0,N,11.1,K", late.index, 1.1),
                ("WIMWV,045.0,R,12.0,N,A", serial.index, 1.2), ("YXMTW,14.5,C", lookalike.index, 1.3),
            ])
        #expect(sent[0] == [checksummed("WIMWV,045.0,R,12.0,N,A"), checksummed("YXMTW,14.5,C")], "\(sent[0])")
        #expect(sent[1].count == 4, "the plotter has everything")
    }

    @Test("clients connecting and going are events: nothing is prepared for a TCP output while none is connected")
    func clientEvents() throws {
        var server = OutputPolicy(name: "tcp")
        server.servesClients = true
        var r = router([server, OutputPolicy(name: "serial")], echoWindow: 0)
        var notices: [String] = []
        let note: (Router.Action) -> Void = { action in
            if case .notice(let output?, let id, let text) = action { notices.append("\(output) \(id): \(text)") }
        }
        var sent = try route(&r, [("HCHDT,90.0,T", 0, 1)])
        #expect(sent[0].isEmpty && sent[1].count == 1)
        #expect(r.counters.noClient == 1 && r.counters.passedThrough == 1)
        r.clientConnected(output: 0, note)
        r.clientConnected(output: 0, note)
        sent = try route(&r, [("HCHDT,91.0,T", 0, 2)])
        #expect(sent[0].count == 1 && sent[1].count == 1)
        r.clientGone(output: 0, note)
        r.clientGone(output: 0, note)
        r.clientGone(output: 0, note)  // more than connected: the count stays at zero
        sent = try route(&r, [("HCHDT,92.0,T", 0, 3)])
        #expect(sent[0].isEmpty && r.clients == [0, 0])
        #expect(
            notices == [
                "0 output.client-connected: a client connected (1 client)",
                "0 output.client-connected: a client connected (2 clients)",
                "0 output.client-gone: a client went away (1 client)",
                "0 output.client-gone: a client went away (0 clients)",
                "0 output.client-gone: a client went away (0 clients)",
            ])
        // Computed sentences likewise.
        var computed = 0
        r.tick(at: 4) { action in if case .send(0, _, _) = action { computed += 1 } }
        #expect(computed == 0)
    }

    @Test("an instrument that repeats an identical reading on its own input is not taken for an echo")
    func honestRepeats() throws {
        var r = router([OutputPolicy(name: "plotter")])
        let sent = try route(&r, (0..<5).map { ("HCHDT,90.0,T", 0, Double($0)) })
        #expect(sent[0].count == 5)
        #expect(r.counters.echoes == 0)
    }

    @Test("pass-through never goes back to its own input, and each output's filter applies")
    func exclusionAndFilters() throws {
        var back = OutputPolicy(name: "back")
        back.excludedSources = [SourceID(0)]
        var windOnly = OutputPolicy(name: "wind")
        windOnly.filter = AddressFilter(include: ["*MWV"], exclude: [])
        var noComputed = OutputPolicy(name: "none")
        noComputed.passThrough = false
        var r = router([back, windOnly, noComputed], echoWindow: 0)
        let sent = try route(&r, [("WIMWV,40.0,R,12.0,N,A", 0, 1), ("HCHDT,90.0,T", 1, 1)])
        #expect(sent[0] == [checksummed("HCHDT,90.0,T")])
        #expect(sent[1] == [checksummed("WIMWV,40.0,R,12.0,N,A")])
        #expect(sent[2].isEmpty)
    }

    @Test("computed sentences go out in each output's own talker, and the variant is known if it comes back")
    func talkerVariant() throws {
        var own = OutputPolicy(name: "own")
        own.talker = Talker("WI")
        var r = router([OutputPolicy(name: "plain"), own])
        _ = try route(
            &r,
            [
                ("WIMWV,40.0,R,12.0,N,A", 0, 0), ("IIVHW,,,90.0,M,5.0,N,,", 0, 0), ("HCHDT,90.0,T", 0, 0),
            ])
        var sent: [(Int, String)] = []
        r.tick(at: 0.1) { action in
            if case .send(let output, let s, true) = action { sent.append((output, s.description)) }
        }
        let trueWind = sent.filter { $0.1.contains("MWV") && $0.1.contains(",T,") }
        #expect(trueWind.count == 2)
        #expect(trueWind.first { $0.0 == 0 }?.1.hasPrefix("$IIMWV") == true)
        let variant = try #require(trueWind.first { $0.0 == 1 }?.1)
        #expect(variant.hasPrefix("$WIMWV"))
        // The WI variant coming back on an input is the gateway's own sentence.
        r.ingest(try Sentence(parsing: variant), from: SourceID(0), at: 0.2) { _ in }
        #expect(r.counters.echoes == 1)
    }

    @Test("with observes on, a sentence the engine took is said once; refused ones and echoes are not")
    func observed() throws {
        var r = router([OutputPolicy(name: "plotter")])
        r.observes = true
        var seen: [String] = []
        let act = { (action: Router.Action) in
            if case .observed(let observed) = action {
                seen.append("\(observed.sentence.address)@\(observed.source.index)")
            }
        }
        r.ingest(try sentence("WIMWV,40.0,R,10.0,N,A"), from: SourceID(1), at: 0, act)
        r.ingest(try sentence("WIMWV,40.0,R,99999,N,A"), from: SourceID(1), at: 0.1, act)
        r.ingest(try sentence("PGRME,1,M,2,M,3,M"), from: SourceID(1), at: 0.2, act)
        #expect(seen == ["WIMWV@1"])
        r.observes = false
        r.ingest(try sentence("WIMWV,41.0,R,10.0,N,A"), from: SourceID(1), at: 0.3, act)
        #expect(seen.count == 1)
    }

    @Test("implausible and unreadable input is refused to the shell, and goes nowhere")
    func refused() throws {
        var r = router([OutputPolicy(name: "plotter")])
        var actions: [String] = []
        r.ingest(try sentence("WIMWV,40.0,R,99999,N,A"), from: SourceID(0), at: 0) { action in
            switch action {
            case .send: actions.append("send")
            case .refused(_, _, let error, let input): actions.append("\(error.reason) from \(input)")
            case .notice: actions.append("notice")
            case .observed, .observedFix: actions.append("observed")
            case .refusedFix: actions.append("refused fix")
            case .input: actions.append("input")
            case .report, .announce, .tides: actions.append("engine")
            }
        }
        #expect(actions == ["implausible from #0"])
        #expect(r.counters.implausible == 1 && r.counters.sentencesOut == 0)
    }

    @Test("an IMU sample no sensor on a boat can read (1e308 m/s², nan, 10 000 °/s) is counted and goes nowhere")
    func implausibleIMU() {
        var r = router([])
        let still = SIMD3<Double>(0, 0, -9.81)
        let none = SIMD3<Double>(0, 0, 0)
        for (index, (gyroscope, accelerometer)) in [
            (none, SIMD3<Double>(1e308, 0, -9.81)), (none, SIMD3<Double>(.nan, 0, -9.81)),
            (SIMD3<Double>(0, 10_000, 0), still), (none, still),
        ].enumerated() {
            r.ingest(
                gyroscope: gyroscope, accelerometer: accelerometer, magnetometer: nil, from: SourceID(2),
                at: Double(index) / 100)
        }
        #expect(r.counters.implausible == 3)
        #expect(r.sources.count == 3 && r.sources[2].implausible == 3 && r.sources[2].received == 1)
    }

    @Test("a fix out of a boat's reach (a corrupted RMC with a valid checksum) is refused, not shown nor passed on")
    func unreachableFix() throws {
        var r = router([OutputPolicy(name: "plotter")])
        r.observes = true
        var seen: [String] = []
        let fixes = [
            "GPRMC,100000.00,A,5046.9910,N,00118.4765,W,6.0,90.0,210626,,,A",
            "GPRMC,100001.00,A,5046.9910,N,09959.9900,W,6.0,90.0,210626,,,A",
            "GPRMC,100002.00,A,5046.9910,N,00118.4700,W,6.0,90.0,210626,,,A",
        ]
        for (second, body) in fixes.enumerated() {
            r.ingest(try sentence(body), from: SourceID(0), at: Double(second)) { action in
                switch action {
                case .send(_, let s, _): seen.append("sent \(s.description.prefix(30))")
                case .refused(_, _, let error, _):
                    seen.append(error == .implausible(.position) ? "refused position" : "refused \(error)")
                case .observed: seen.append("observed")
                default: break
                }
            }
        }
        #expect(
            seen == [
                "observed", "sent $GPRMC,100000.00,A,5046.9910,N", "refused position",
                "observed", "sent $GPRMC,100002.00,A,5046.9910,N",
            ], "\(seen)")
        #expect(r.counters.implausible == 1 && r.sources[0].implausible == 1)
    }
}
