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
        /// The autopilot commands handed to the shell, with their device.
        var pilotCommands: [(String, AutopilotCommand)] = []
        /// The history's minutes a playback reads, in order, and the ranges it asked for.
        var kept: [HistoryBlock.Minute] = []
        var playbackAsks: [(Double, Double)] = []

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
                case .fleet:
                    server.answer(
                        request.id, .message(status: 404, "no fleet"), model: model, at: now, unixTime: 0, act)
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

    @Test("HTTP: discovery, model, 404, static files, keep-alive and close")
    func httpRoutes() {
        var h = Harness()
        h.server.opened(1, peer: [127, 0, 0, 1], at: 0)
        h.send(
            1,
            "GET /signalk HTTP/1.1\r\nHost: boat.local:3000\r\n\r\nGET /signalk/v1/api/vessels/self/nothing HTTP/1.1\r\n\r\n"
        )
        #expect(h.text(1).hasPrefix("HTTP/1.1 200 OK"))
        #expect(h.text(1).contains("ws://boat.local:3000/signalk/v1/stream"))
        #expect(h.text(1).contains("HTTP/1.1 404 Not Found"))
        #expect(!h.closed.contains(1), "keep-alive")
        h.server.opened(2, peer: [127, 0, 0, 1], at: 0)
        h.send(2, "GET / HTTP/1.1\r\nConnection: close\r\n\r\n")
        #expect(h.text(2).hasPrefix("HTTP/1.1 200 OK") && h.text(2).hasSuffix("<p>panel</p>"))
        #expect(h.closed.contains(2))
        h.server.opened(3, peer: [127, 0, 0, 1], at: 0)
        h.send(3, "DELETE /signalk HTTP/1.1\r\n\r\n")
        #expect(h.text(3).hasPrefix("HTTP/1.1 405"))
    }

    @Test("PUT: applied from an allowed network, refused (401, no token) from another, checked before anything is done")
    func put() {
        var h = Harness(put: NetworkRule.loopback)
        let request = Self.put("telltale/route/command", "advance")
        h.server.opened(1, peer: [127, 0, 0, 1], at: 0)
        h.send(1, request)
        #expect(h.text(1).hasPrefix("HTTP/1.1 200") && h.commands == [.route(.advance)])
        h.server.opened(2, peer: [192, 168, 1, 20], at: 0)
        h.send(2, request)
        #expect(h.text(2).hasPrefix("HTTP/1.1 401") && h.commands.count == 1)
        h.server.opened(3, peer: [127, 0, 0, 1], at: 0)
        h.send(3, Self.put("notifications/heel/over", "acknowledge"))
        #expect(h.commands.last == .acknowledge(.overHeel))
        h.server.opened(4, peer: [127, 0, 0, 1], at: 0)
        h.send(4, Self.put("telltale/race/command", "sync"))
        #expect(h.commands.last == .race(.sync))
        h.server.opened(5, peer: [127, 0, 0, 1], at: 0)
        h.send(5, Self.put("telltale/race/command", "fly"))
        #expect(h.text(5).hasPrefix("HTTP/1.1 400") && h.commands.count == 3)
        #expect(h.text(5).contains("race commands: start|pause|reset|sync|port|starboard"))
    }

    @Test("settings: read, checked and saved through the shell, only from the networks that may change things")
    func settingsRoutes() throws {
        var h = Harness(put: NetworkRule.loopback)
        h.server.opened(1, peer: [127, 0, 0, 1], at: 0)
        let text = "talker = \"II\"\n"
        h.send(
            1,
            "GET /telltale/v1/settings HTTP/1.1\r\n\r\n"
                + "PUT /telltale/v1/settings/check HTTP/1.1\r\nContent-Length: \(text.utf8.count)\r\n\r\n\(text)"
                + "PUT /telltale/v1/settings/configuration HTTP/1.1\r\nContent-Length: \(text.utf8.count)\r\n\r\n\(text)"
                + "GET /signalk HTTP/1.1\r\nHost: b\r\n\r\n")
        #expect(h.settings == [.read, .check(text), .save(text)])
        let answers = h.text(1)
        let first = try #require(answers.firstRange(of: #"{"answered":1}"#))
        let third = try #require(answers.firstRange(of: #"{"answered":3}"#))
        let discovery = try #require(answers.firstRange(of: "\"endpoints\""))
        #expect(first.lowerBound < third.lowerBound && third.lowerBound < discovery.lowerBound, "answers in order")
        // From a network that may not change things: refused, the shell never asked.
        h.server.opened(2, peer: [192, 168, 1, 20], at: 0)
        h.send(2, "GET /telltale/v1/settings HTTP/1.1\r\n\r\n")
        #expect(h.text(2).hasPrefix("HTTP/1.1 401") && h.settings.count == 3)
        h.server.opened(3, peer: [127, 0, 0, 1], at: 0)
        h.send(3, "GET /telltale/v1/settings/configuration HTTP/1.1\r\n\r\n")
        #expect(h.text(3).hasPrefix("HTTP/1.1 405"))
        h.server.opened(4, peer: [127, 0, 0, 1], at: 0)
        h.send(
            4,
            Array("PUT /telltale/v1/settings/configuration HTTP/1.1\r\nContent-Length: 3\r\n\r\n".utf8) + [
                0xFF, 0xFE, 0,
            ])
        #expect(h.text(4).hasPrefix("HTTP/1.1 400") && h.settings.count == 3)
    }

    @Test("a refused command is answered 409 with the engine's reason, and a request pipelined after it waits its turn")
    func refusedCommand() throws {
        var h = Harness()
        h.outcome = .refused("no route: set route in the configuration, or follow one from a plotter")
        h.server.opened(1, peer: [127, 0, 0, 1], at: 0)
        h.send(1, Self.put("telltale/route/command", "advance") + "GET /signalk HTTP/1.1\r\nHost: boat.local\r\n\r\n")
        let text = h.text(1)
        let refusal = try #require(text.firstRange(of: "HTTP/1.1 409"))
        let discovery = try #require(text.firstRange(of: "HTTP/1.1 200"))
        #expect(refusal.lowerBound < discovery.lowerBound, "answers keep the order of the requests")
        #expect(text.contains("no route: set route in the configuration"))
        #expect(h.commands == [.route(.advance)])
        h.server.opened(2, peer: [127, 0, 0, 1], at: 0)
        h.send(2, Self.put("notifications/sea/serpent", "acknowledge"))
        #expect(h.text(2).hasPrefix("HTTP/1.1 404") && h.text(2).contains("no such alarm: sea.serpent"))
    }

    @Test("the stream: upgrade, hello, current values, a subscribe message in masked frames, pings answered")
    func stream() throws {
        var h = Harness()
        h.model.observe(try Sentence(parsing: checksummed("SDDPT,12.1,0.4")), input: "depth", at: 0, unixTime: 0)
        h.model.observe(try Sentence(parsing: checksummed("WIMWV,40.0,R,10.0,N,A")), input: "wind", at: 0, unixTime: 0)
        _ = h.model.takeUpdates()
        h.server.opened(1, peer: [10, 0, 0, 5], at: 0)
        let key = "dGhlIHNhbXBsZSBub25jZQ=="
        h.send(
            1,
            "GET /signalk/v1/stream?subscribe=none&sendMeta=all HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        #expect(h.text(1).hasPrefix("HTTP/1.1 101") && h.text(1).contains("s3pPLMBiTxaQ9kYGzzhZRbK+xOo="))
        #expect(h.text(1).contains(#""roles":["master","main"]"#))
        #expect(!h.text(1).contains("environment"), "subscribe=none: no values")
        let subscribe = Array(
            #"{"context":"vessels.self","subscribe":[{"path":"environment.depth.*","policy":"instant"}]}"#.utf8)
        let mask: [UInt8] = [1, 2, 3, 4]
        var frame: [UInt8] = [0x81, 0x80 | UInt8(subscribe.count)] + mask
        frame += subscribe.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        h.sent[1] = []
        h.send(1, frame + [0x89, 0x80] + mask)
        #expect(!h.text(1).contains("environment"), "what a subscription covers goes out at the next tick")
        #expect(h.sent[1]!.suffix(2) == [0x8A, 0x00], "the ping answered with a pong")
        var ticked: [UInt8] = []
        h.server.tick(model: h.model, at: 0.1) { if case .send(_, let bytes) = $0 { ticked += bytes } }
        h.sent[1, default: []] += ticked
        let after = h.text(1)
        #expect(after.contains("environment.depth.belowTransducer") && !after.contains("environment.wind"))
        #expect(after.contains(#""units":"m""#), "meta with the first value")
        // A burst past the bucket's depth: the first `messageBurst` messages taken, the rest skipped unread, the
        // client kept; a moment later it may send again.
        let refusedBefore = h.server.counters.refused
        let burst = Array(repeating: frame, count: 15).flatMap { $0 }
        h.send(1, burst, at: 1)
        #expect(!h.closed.contains(1))
        #expect(h.server.counters.refused - refusedBefore == 5, "10 taken, 5 skipped")
        h.send(1, frame, at: 1.5)
        #expect(h.server.counters.refused - refusedBefore == 5, "the bucket refilled")
        // A flood: past the per-second allowance, dropped with 1008.
        h.sent[1] = []
        let repeated = Array(repeating: frame, count: 500).flatMap { $0 }
        h.send(1, repeated, at: 1.51)
        #expect(h.closed.contains(1) && h.sent[1]!.suffix(4) == [0x88, 0x02, 0x03, 0xF0])
    }

    @Test("what falls due goes in path order, kept as paths come, go and come back")
    func dueOrder() throws {
        var stream = StreamSubscription(query: "none")
        _ = stream.apply(
            try #require(JSONValue.parse(#"{"subscribe":[{"path":"*","period":1000,"policy":"fixed"}]}"#)),
            selfContext: "")
        _ = stream.offer(
            [update("c.x", 1), update("a.x", 2), update("b.x", 3), update("a.x", 4, source: "s.GP")], at: 0)
        #expect(stream.due(at: 0).map(\.path) == ["a.x", "a.x", "b.x", "c.x"])
        _ = stream.offer(
            [update("c.x", 1), update("a.x", 2), update("b.x", 3), update("a.x", 4, source: "s.GP")], at: 0.1)
        // By path, then source: "a.x|s.GP" before "a.x|s.II".
        #expect(stream.due(at: 0.1).isEmpty, "fixed: not before its period")
        #expect(stream.due(at: 0.99).isEmpty)
        let withdrawn = SignalKModel.Update(path: "b.x", source: "s.II", timestamp: "t", value: .null)
        #expect(stream.offer([withdrawn], at: 0.5).count == 1)
        let second = stream.due(at: 1)
        #expect(second.map(\.path) == ["a.x", "a.x", "c.x"])
        #expect(second.map(\.value) == [.number(4), .number(2), .number(1)])
        _ = stream.offer([update("b.x", 5), update("0.x", 6)], at: 1.2)
        #expect(stream.due(at: 2).map(\.path) == ["0.x", "a.x", "a.x", "b.x", "c.x"])
    }

    @Test("a publish and a tick with a budget of one client are finished by resume, with the same bytes")
    func yieldingRounds() throws {
        func run(yielding: Bool) throws -> [Int: [UInt8]] {
            var h = Harness()
            for id in 1...4 {
                h.server.opened(id, peer: [10, 0, 0, 5], at: 0)
                h.send(
                    id,
                    "GET /signalk/v1/stream?subscribe=self HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
                )
            }
            var sent = h.sent
            let act = { (action: SignalKServer.Action) in
                if case .send(let id, let bytes) = action { sent[id, default: []] += bytes }
            }
            // How many clients a call sent to: those whose bytes grew.
            func served(since before: [Int: [UInt8]], _ after: [Int: [UInt8]]) -> Int {
                after.filter { $0.value.count != before[$0.key]?.count }.count
            }
            var mostInOneCall = 0
            var before = sent
            let budget = yielding ? 1 : Int.max
            // Both batches taken from the model first: a round finished later reads the model as it then is (the
            // current values to a new stream), so the model stays as it is while the rounds run.
            h.model.observe(try Sentence(parsing: checksummed("SDDPT,12.1,0.4")), input: "depth", at: 0, unixTime: 0)
            let depth = h.model.takeUpdates()
            h.model.observe(
                try Sentence(parsing: checksummed("WIMWV,40.0,R,10.0,N,A")), input: "wind", at: 0.2, unixTime: 0)
            let wind = h.model.takeUpdates()
            h.server.publish(depth, model: h.model, at: 0, budget: budget, act)
            mostInOneCall = max(mostInOneCall, served(since: before, sent))
            if yielding {
                #expect(h.server.hasUnfinishedRounds)
                #expect(
                    sent.values.filter { String(decoding: $0, as: UTF8.self).contains("belowTransducer") }.count == 1)
            }
            before = sent
            h.server.tick(model: h.model, at: 0.1, budget: budget, act)
            mostInOneCall = max(mostInOneCall, served(since: before, sent))
            before = sent
            h.server.publish(wind, model: h.model, at: 0.2, budget: budget, act)
            mostInOneCall = max(mostInOneCall, served(since: before, sent))
            var resumed = 0
            while h.server.hasUnfinishedRounds {
                before = sent
                h.server.resume(model: h.model, budget: budget, act)
                mostInOneCall = max(mostInOneCall, served(since: before, sent))
                resumed += 1
            }
            #expect(yielding ? resumed >= 8 : resumed == 0, "one client a call while yielding")
            #expect(!yielding || mostInOneCall <= 1, "a budget of one: one client a call at most")
            return sent
        }
        let whole = try run(yielding: false)
        let yielded = try run(yielding: true)
        let same = whole == yielded
        #expect(same, "the same bytes to each client")
        #expect(whole.count == 4)
        for bytes in whole.values {
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.contains("belowTransducer") && text.contains("angleApparent"))
        }
    }

    @Test("random and damaged bytes into HTTP, WebSocket frames and JSON never crash the server, which answers after")
    func damagedBytes() throws {
        var state: UInt64 = 0x5EED_1234
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33) % bound
        }
        let upgrade = Array(
            "GET /signalk/v1/stream?subscribe=self HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
                .utf8)
        let requests = [
            "GET /signalk/v1/api/vessels/self/navigation HTTP/1.1\r\nHost: x\r\n\r\n",
            "PUT /signalk/v1/api/vessels/self/navigation/racing/timer HTTP/1.1\r\nContent-Length: 17\r\n\r\n{\"value\":\"start\"}",
            "GET /%zz/..%2f HTTP/1.1\r\nContent-Length: -5\r\n\r\n",
        ].map { Array($0.utf8) }
        let messages = [
            #"{"context":"vessels.self","subscribe":[{"path":"navigation.*","period":100,"policy":"fixed"}]}"#,
            #"{"unsubscribe":[{"path":"*"}]}"#, #"{"subscribe":[{"path":"a","minPeriod":-1e308,"period":1e308}]}"#,
        ].map { Array($0.utf8) }
        func frame(_ payload: [UInt8]) -> [UInt8] {
            let mask: [UInt8] = [9, 8, 7, 6]
            var bytes: [UInt8] = [0x81]
            if payload.count < 126 {
                bytes.append(0x80 | UInt8(payload.count))
            } else {
                bytes += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
            }
            return bytes + mask + payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        }
        func damaged(_ bytes: [UInt8]) -> [UInt8] {
            var bytes = bytes
            for _ in 0..<next(4) where !bytes.isEmpty {
                switch next(3) {
                case 0: bytes[next(bytes.count)] = UInt8(truncatingIfNeeded: next(256))
                case 1: bytes.remove(at: next(bytes.count))
                default: bytes.insert(UInt8(truncatingIfNeeded: next(256)), at: next(bytes.count))
                }
            }
            return bytes
        }
        var h = Harness()
        h.model.observe(try Sentence(parsing: checksummed("SDDPT,12.1,0.4")), input: "depth", at: 0, unixTime: 0)
        for id in 1...2000 {
            h.server.opened(id, peer: [127, 0, 0, 1], at: Double(id) * 0.01)
            let now = Double(id) * 0.01
            switch next(4) {
            case 0: h.send(id, (0..<next(2000)).map { _ in UInt8(truncatingIfNeeded: next(256)) }, at: now)
            case 1: h.send(id, damaged(requests[next(requests.count)]), at: now)
            case 2:
                h.send(id, upgrade, at: now)
                for _ in 0..<next(6) {
                    let payload = damaged(messages[next(messages.count)])
                    h.send(id, next(3) == 0 ? damaged(frame(payload)) : frame(payload), at: now)
                }
            default:
                h.send(id, damaged(upgrade), at: now)
                h.send(id, damaged(frame(damaged(messages[next(messages.count)]))), at: now)
            }
            if id % 10 == 0 {
                h.server.publish(h.model.takeUpdates(), model: h.model, at: now) { _ in }
                h.server.tick(model: h.model, at: now) { _ in }
            }
            if next(2) == 0 { h.server.closed(id) }
        }
        #expect(h.server.counters.requests > 50)
        #expect(h.closed.count > 10, "damaged requests and frames close their connections")
        // And then a good request is answered as ever.
        h.server.opened(5000, peer: [127, 0, 0, 1], at: 30)
        h.send(5000, "GET /signalk/v1/api/vessels/self/environment/depth HTTP/1.1\r\nHost: x\r\n\r\n", at: 30)
        #expect(h.text(5000).hasPrefix("HTTP/1.1 200") && h.text(5000).contains("belowTransducer"))
    }
}
