import Engine
import NMEA
import TestSupport
import Testing

@testable import SignalK

/// Subscriptions and the server, driven with bytes and times as the shell would.
@Suite struct StreamTests {
    func update(_ path: String, _ value: Double, source: String = "s.II") -> SignalKModel.Update {
        SignalKModel.Update(path: path, source: source, timestamp: "t", value: .number(value))
    }

    @Test("path patterns: a star stands for any run of characters")
    func patterns() {
        let wind = StreamSubscription.Subscription(pattern: "environment.wind.*")
        #expect(wind.matches("environment.wind.angleApparent") && !wind.matches("environment.depth.belowKeel"))
        #expect(StreamSubscription.Subscription(pattern: "*").matches("anything.at.all"))
        #expect(StreamSubscription.Subscription(pattern: "*.speed*").matches("navigation.speedOverGround"))
        #expect(!StreamSubscription.Subscription(pattern: "navigation.speed").matches("navigation.speedOverGround"))
    }

    @Test("instant with minPeriod holds a burst back to one value per minPeriod, the latest")
    func instant() throws {
        var stream = StreamSubscription(query: "none")
        let message = try #require(
            JSONValue.parse(
                #"{"context":"vessels.self","subscribe":[{"path":"a.*","policy":"instant","minPeriod":500}]}"#))
        let applied = stream.apply(message, selfContext: "vessels.x")
        #expect(applied)
        let first = stream.offer([update("a.b", 1)], at: 0)
        #expect(first.count == 1)
        #expect(stream.offer([update("a.b", 2)], at: 0.1).isEmpty)
        #expect(stream.offer([update("a.b", 3), update("c.d", 9)], at: 0.2).isEmpty, "c.d is not subscribed")
        #expect(stream.due(at: 0.4).isEmpty)
        #expect(stream.due(at: 0.5).map(\.value) == [.number(3)])
        #expect(stream.due(at: 2).isEmpty, "instant does not repeat")
        #expect(
            stream.offer([SignalKModel.Update(path: "a.b", source: "s.II", timestamp: "t", value: .null)], at: 0.6)
                .count == 1, "a withdrawal goes at once")
    }

    @Test("fixed sends the latest every period; ideal repeats the last value when nothing changed for a period")
    func periods() throws {
        var fixed = StreamSubscription(query: "none")
        _ = fixed.apply(
            try #require(JSONValue.parse(#"{"subscribe":[{"path":"x","period":1000,"policy":"fixed"}]}"#)),
            selfContext: "")
        #expect(fixed.offer([update("x", 1)], at: 0).isEmpty)
        #expect(fixed.due(at: 0).map(\.value) == [.number(1)])
        _ = fixed.offer([update("x", 2)], at: 0.3)
        _ = fixed.offer([update("x", 3)], at: 0.6)
        #expect(fixed.due(at: 0.9).isEmpty)
        #expect(fixed.due(at: 1.0).map(\.value) == [.number(3)])
        #expect(fixed.due(at: 2.0).map(\.value) == [.number(3)], "the last value again")
        var ideal = StreamSubscription(query: "none")
        _ = ideal.apply(
            try #require(JSONValue.parse(#"{"subscribe":[{"path":"x","period":1000,"policy":"ideal"}]}"#)),
            selfContext: "")
        #expect(ideal.offer([update("x", 1)], at: 0).count == 1)
        #expect(ideal.due(at: 0.5).isEmpty)
        #expect(ideal.due(at: 1.0).map(\.value) == [.number(1)])
    }

    @Test("no policy: a period means fixed, else instant (as the reference); minPeriod is never beaten by the repeat")
    func defaultPolicies() throws {
        var periodOnly = StreamSubscription(query: "none")
        _ = periodOnly.apply(
            try #require(JSONValue.parse(#"{"subscribe":[{"path":"x","period":2000}]}"#)), selfContext: "")
        #expect(periodOnly.subscriptions.first?.policy == .fixed)
        #expect(periodOnly.offer([update("x", 1)], at: 0).isEmpty, "throttled: nothing at once")
        #expect(periodOnly.due(at: 0).map(\.value) == [.number(1)])
        _ = periodOnly.offer([update("x", 2)], at: 0.5)
        _ = periodOnly.offer([update("x", 3)], at: 1)
        #expect(periodOnly.due(at: 1.5).isEmpty && periodOnly.due(at: 2).map(\.value) == [.number(3)])
        var plain = StreamSubscription(query: "none")
        _ = plain.apply(try #require(JSONValue.parse(#"{"subscribe":[{"path":"x"}]}"#)), selfContext: "")
        #expect(plain.subscriptions.first?.policy == .instant)
        #expect(plain.offer([update("x", 1)], at: 0).count == 1)
        #expect(plain.due(at: 5).isEmpty, "instant: nothing repeated")
        var slow = StreamSubscription(query: "none")
        _ = slow.apply(
            try #require(
                JSONValue.parse(#"{"subscribe":[{"path":"x","period":1000,"minPeriod":5000,"policy":"ideal"}]}"#)),
            selfContext: "")
        #expect(slow.offer([update("x", 1)], at: 0).count == 1)
        #expect(slow.due(at: 1).isEmpty && slow.due(at: 4.9).isEmpty, "the repeat waits for minPeriod")
        #expect(slow.due(at: 5).count == 1)
        // `context: "self"`, as the reference takes it.
        var mine = StreamSubscription(query: "none")
        #expect(
            mine.apply(
                try #require(JSONValue.parse(#"{"context":"self","subscribe":[{"path":"x"}]}"#)),
                selfContext: "vessels.u"))
        #expect(mine.subscriptions.count == 1)
    }

    @Test("unsubscribe, another vessel's context followed apart, and a flood of subscriptions that stays bounded")
    func bounds() throws {
        var stream = StreamSubscription(query: nil)
        #expect(stream.subscriptions.count == 1)
        // Another vessel's context follows that vessel (AIS), and leaves this boat's subscriptions as they were.
        #expect(
            stream.apply(
                try #require(JSONValue.parse(#"{"context":"vessels.other","subscribe":[{"path":"*"}]}"#)),
                selfContext: "vessels.me"))
        #expect(stream.subscriptions.count == 1 && stream.traffic.count == 1)
        #expect(stream.follows(context: "vessels.other", paths: ["navigation.position"]))
        #expect(!stream.follows(context: "vessels.else", paths: ["navigation.position"]))
        for index in 0..<1000 {
            _ = stream.apply(
                try #require(JSONValue.parse("{\"subscribe\":[{\"path\":\"p\(index)\"}]}")), selfContext: "")
        }
        #expect(stream.subscriptions.count == StreamSubscription.maximumSubscriptions)
        _ = stream.apply(
            try #require(JSONValue.parse(#"{"context":"*","unsubscribe":[{"path":"*"}]}"#)), selfContext: "")
        #expect(stream.subscriptions.isEmpty && stream.traffic.isEmpty)
        #expect(StreamSubscription(query: "none").subscriptions.isEmpty)
    }

    /// A server with one model, driven by bytes; what it sends, per connection.
    struct Harness {
        var server: SignalKServer
        var model = SignalKModel(urn: "urn:mrn:signalk:uuid:6b0e776f-811a-4b35-980e-b93405371bc5")
        var sent: [Int: [UInt8]] = [:]
        var closed: Set<Int> = []
        var commands: [EngineCommand] = []
        /// What the engine answers each command (as the runtime does, through the router).
        var outcome = CommandOutcome.done("done")
        var settings: [SignalKServer.SettingsRequest.Kind] = []
        var uploads: [SignalKServer.UploadPiece] = []
        var resources: [SignalKServer.ResourceRequest] = []
        var courses: [SignalKServer.CourseTarget] = []
        /// What the weather router on board was asked.
        var routings: [SignalKServer.JobAsk] = []
        var calibrations: [SignalKServer.JobAsk] = []
        /// The autopilot commands handed to the shell, with their device.
        var pilotCommands: [(String, AutopilotCommand)] = []
        /// The history's minutes a playback reads, in order, and the ranges it asked for.
        var kept: [HistoryBlock.Minute] = []
        var playbackAsks: [(Double, Double)] = []
        /// The shore's door: the logins and logouts handed over, and the store's reads with the boats they may see.
        var logins: [SignalKServer.LoginAsk] = []
        var fleetAsks: [SignalKServer.FleetRequest] = []

        init(
            put: [NetworkRule.Network] = NetworkRule.loopback,
            configure: (inout SignalKServer.Configuration) -> Void = { _ in }
        ) {
            var configuration = SignalKServer.Configuration()
            configuration.putRule = NetworkRule(networks: put)
            configure(&configuration)
            configuration.files = ["/index.html": .init(contentType: "text/html", bytes: Array("<p>panel</p>".utf8))]
            server = SignalKServer(configuration: configuration)
        }

        mutating func send(_ id: Int, _ text: String, at now: Double = 0) { send(id, Array(text.utf8), at: now) }

        mutating func send(_ id: Int, _ bytes: [UInt8], at now: Double = 0) {
            drive(at: now) { server, model, act in server.received(id, bytes, model: model, at: now, unixTime: 0, act) }
        }

        /// The clocks, as the shell runs them.
        mutating func housekeep(at now: Double) {
            drive(at: now) { server, _, act in server.housekeep(at: now, act) }
        }

        /// Runs `body` against the server, then answers what it asked of the shell, as the runtime does.
        mutating func drive(
            at now: Double, _ body: (inout SignalKServer, SignalKModel, (SignalKServer.Action) -> Void) -> Void
        ) {
            var out: [(Int, [UInt8])] = []
            var gone: [Int] = []
            var requests: [SignalKServer.ShellRequest] = []
            let act = { (action: SignalKServer.Action) in
                switch action {
                case .send(let id, let bytes): out.append((id, bytes))
                case .close(let id): gone.append(id)
                case .request(let request): requests.append(request)
                }
            }
            body(&server, model, act)
            // Each request answered after the server's call returns, as the runtime answers it; an answer may let the
            // requests waiting behind it go on, and bring more.
            while !requests.isEmpty {
                let request = requests.removeFirst()
                switch request.kind {
                case .upload(let piece):
                    // Kept and answered as the web service answers a whole file.
                    uploads.append(piece)
                    server.answer(
                        request.id, .message(status: 201, "received"), model: model, at: now, unixTime: 0, act)
                case .chart(let kind):
                    // Answered with what was asked, as text.
                    server.answer(
                        request.id, .file(status: 200, contentType: "text/plain", body: Array("\(kind)".utf8)),
                        model: model, at: now, unixTime: 0, act)
                case .settings(let kind):
                    // As the runtime answers them: a JSON body naming what was asked.
                    settings.append(kind)
                    server.answer(
                        request.id, .json(status: 200, #"{"answered":\#(settings.count)}"#), model: model, at: now,
                        unixTime: 0, act)
                case .command(let command):
                    commands.append(command)
                    server.answer(request.id, .outcome(outcome), model: model, at: now, unixTime: 0, act)
                case .bus:
                    server.answer(
                        request.id, .json(status: 200, #"{"devices":[]}"#), model: model, at: now, unixTime: 0, act)
                case .resource(let asked):
                    resources.append(asked)
                    server.answer(
                        request.id, .json(status: 200, #"{"kept":\#(resources.count)}"#), model: model, at: now,
                        unixTime: 0, act)
                case .course(let target):
                    courses.append(target)
                    server.answer(request.id, .outcome(outcome), model: model, at: now, unixTime: 0, act)
                case .history(.playback(let from, let to)):
                    // The minutes kept, as the history store gives them: the blocks of [from, to), or 404 when
                    // nothing is kept from `from` on.
                    playbackAsks.append((from, to))
                    let later = kept.filter { Double($0.minute) * 60 + 60 > from }
                    let reply: SignalKServer.ShellReply =
                        later.isEmpty
                        ? .message(status: 404, "nothing")
                        : .file(
                            status: 200, contentType: "application/octet-stream",
                            body: later.filter { Double($0.minute) * 60 < to }.flatMap { $0.encode() })
                    server.answer(request.id, reply, model: model, at: now, unixTime: 0, act)
                case .history:
                    server.answer(
                        request.id, .json(status: 200, #"{"data":[]}"#), model: model, at: now, unixTime: 0, act)
                case .autopilot(let device, let command):
                    pilotCommands.append((device, command))
                    server.answer(
                        request.id, .message(status: 200, "sent"), model: model, at: now, unixTime: 0, act)
                case .fleet(let asked):
                    fleetAsks.append(asked)
                    server.answer(
                        request.id, .message(status: 404, "no fleet"), model: model, at: now, unixTime: 0, act)
                case .login(let asked):
                    // As the shore's door answers a right password: a session's cookie.
                    logins.append(asked)
                    server.answer(
                        request.id, .session(status: 200, #"{"name":"x"}"#, cookie: "telltale_session=t; HttpOnly"),
                        model: model, at: now, unixTime: 0, act)
                case .tides(let asked):
                    server.answer(
                        request.id, .json(status: 200, #"{"tides":"\#(asked.path)"}"#), model: model, at: now,
                        unixTime: 0, act)
                case .routing(let asked):
                    routings.append(asked)
                    server.answer(
                        request.id, .json(status: 200, #"{"routing":"\#(asked.method)"}"#), model: model, at: now,
                        unixTime: 0, act)
                case .calibration(let asked):
                    calibrations.append(asked)
                    server.answer(
                        request.id, .json(status: 200, #"{"calibration":"\#(asked.method)"}"#), model: model, at: now,
                        unixTime: 0, act)
                case .keepAccess:
                    break
                }
            }
            for (id, bytes) in out { sent[id, default: []] += bytes }
            closed.formUnion(gone)
        }

        func text(_ id: Int) -> String { String(decoding: sent[id] ?? [], as: UTF8.self) }
    }

    /// An HTTP PUT of `{"value": "<value>"}` to `vessels/self/<path>`.
    static func put(_ path: String, _ value: String) -> String {
        let body = #"{"value":""# + value + #""}"#
        return "PUT /signalk/v1/api/vessels/self/\(path) HTTP/1.1\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body
    }
}
