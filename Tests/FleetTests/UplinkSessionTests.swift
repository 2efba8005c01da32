import Engine
import Marine
import SignalK
import Testing

@testable import Fleet

/// The uplink's session, replayed as event sequences with time as an argument and no broker: each of the bugs the
/// emulated Pi found (an attempt that hangs, a refusal after the attempt began, an attempt that ends without a word)
/// and the delivery rules (acknowledgements out of order, the backlog's rate and window, batches across a restart).
@Suite struct UplinkSessionTests {
    static func settings(keepAlive: Int = 10, commands: Bool = false) -> UplinkSession.Settings {
        var configuration = UplinkConfiguration()
        configuration.boat = "arrow"
        configuration.keepAlive = keepAlive
        configuration.batchSeconds = 2
        configuration.backlogRate = 4
        configuration.commands = commands
        configuration.commandKey = commands ? "key" : nil
        for group in UplinkGroup.allCases { configuration.groups[group] = 1 }
        return UplinkSession.Settings(configuration)
    }

    /// A session driven as the service drives it: the actions it asked for carried out by a pretend client whose
    /// connect begins (its socket opens) or is refused at once, as told; the attempts counted.
    struct Driver {
        var session: UplinkSession
        var actions: [UplinkSession.Action] = []
        var attempts: [Double] = []
        var said: [UplinkSession.Notice] = []
        /// What connect and reconnect do: begin (a socket opens) or fail at once.
        var connectBegins = true
        var socket = false

        init(_ settings: UplinkSession.Settings = UplinkSessionTests.settings()) {
            session = UplinkSession(settings: settings)
        }

        mutating func send(_ event: UplinkSession.Event, at now: Double) {
            for action in session.handle(event, at: now) {
                actions.append(action)
                switch action {
                case .connect, .reconnect:
                    attempts.append(now)
                    socket = connectBegins
                    send(connectBegins ? .attemptBegun : .attemptFailed("refused at once"), at: now)
                case .say(let notice):
                    said.append(notice)
                default:
                    break
                }
            }
        }

        /// One turn of the loop at `now`, in the service's order: housekeeping, what the client said, whether its
        /// socket is gone (`socketCloses`: it closed this turn), the end of the turn.
        mutating func turn(at now: Double, events: [UplinkSession.Event] = [], socketCloses: Bool = false) {
            send(.housekeeping(socketOpen: socket), at: now)
            for event in events { send(event, at: now) }
            if socketCloses { socket = false }
            if !socket { send(.socketClosed, at: now) }
            send(.turnEnded, at: now)
        }

        var failures: Int { said.filter { $0.id == "uplink.unreachable" }.count }
    }

    @Test("an attempt that hangs with no answer is given up once past its limit, and a fresh client tries again")
    func hangingAttempt() {
        var d = Driver()
        d.send(.start, at: 0)
        #expect(d.attempts == [0] && d.session.attempting)
        // The broker's accept queue is full: the socket is open, nothing comes back.
        for t in stride(from: 1.0, through: 30, by: 1) { d.turn(at: t) }
        #expect(d.attempts == [0, 27], "given up past 2 × keep_alive + 5 s (at 26 s), again a second later")
        #expect(d.actions.filter { $0 == .connect }.count == 2, "a fresh client, not a reconnect on the hung one")
        #expect(d.failures == 1 && d.said.first?.text.contains("no answer within 25 s") == true)
        d.turn(at: 31, events: [.connected])
        #expect(d.session.connected && d.said.last?.text == "uplink: connected again")
        #expect(d.actions.contains(.publish(topic: "telltale/arrow/online", payload: "true", retain: true)))
    }

    @Test("a refusal after the attempt began counts once; the goodbyes after it never push the next attempt off")
    func refusalAfterBegin() {
        var d = Driver()
        d.send(.start, at: 0)
        // connect(2) returned; then the broker closed it: libmosquitto says goodbye, the CONNECT still queued, and
        // says goodbye again on every later turn while the service writes.
        d.turn(at: 0.5, events: [.dropped(7, "the connection was refused")], socketCloses: true)
        #expect(d.failures == 1 && !d.session.attempting)
        let firstRetry = d.session.backoff.retryAt
        #expect(firstRetry == 1.5)
        for t in stride(from: 0.6, through: 1.4, by: 0.2) {
            d.turn(at: t, events: [.dropped(7, "the connection was refused")])
        }
        #expect(d.session.backoff.retryAt == firstRetry, "the goodbyes with no attempt under way count for nothing")
        // Every attempt refused half a second after it began: the backoff doubles once a failure, 1 to 30 s.
        var t = 1.0
        while t < 200 {
            t += 0.5
            let refused = d.session.attempting
            d.turn(
                at: t, events: refused ? [.dropped(7, "refused"), .dropped(7, "refused")] : [], socketCloses: refused)
        }
        let gaps = zip(d.attempts.dropFirst(), d.attempts).map { $0 - $1 }
        #expect(Array(gaps.prefix(6)) == [1.5, 2.5, 4.5, 8.5, 16.5, 30.5], "\(d.attempts)")
        #expect(gaps.dropFirst(6).allSatisfy { $0 == 30.5 }, "\(gaps)")
        #expect(d.failures == 1, "said once for the whole run of failures")
    }

    @Test("an attempt whose socket goes without a word ends once; a goodbye in the same turn gives the reason")
    func silentEnd() {
        var d = Driver()
        d.send(.start, at: 0)
        // The socket is gone and libmosquitto said nothing.
        d.turn(at: 0.3, socketCloses: true)
        #expect(d.failures == 1 && d.said.last?.text.contains("the connection closed") == true)
        #expect(!d.session.attempting && d.session.backoff.retryAt == 1.3)
        d.turn(at: 1.3)
        #expect(d.attempts == [0, 1.3])
        // A goodbye with its reason and the socket gone, in the same turn: one failure (the delay doubles once).
        d.turn(at: 1.4, events: [.dropped(14, "No route to host")], socketCloses: true)
        #expect(d.session.backoff.retryAt == 3.4 && !d.session.attempting)
        d.turn(at: 3.4)
        #expect(d.attempts == [0, 1.3, 3.4])
    }

    @Test("a run of failures said once; a link lost is said as lost, and the attempts after it are that run's")
    func saidOncePerRun() {
        var d = Driver()
        d.connectBegins = false
        d.send(.start, at: 0)
        for t in stride(from: 1.0, through: 10, by: 1) { d.turn(at: t) }
        #expect(d.failures == 1 && d.attempts.count >= 3)
        d.connectBegins = true
        d.turn(at: 20)
        d.turn(at: 20.5, events: [.connected])
        #expect(d.session.connected && d.said.last?.text == "uplink: connected again")
        d.turn(at: 21, events: [.dropped(7, "lost")], socketCloses: true)
        #expect(!d.session.connected && d.said.last?.id == "uplink.lost")
        #expect(d.session.backoff.retryAt == 22)
        d.turn(at: 22)
        d.turn(at: 22.5, events: [.dropped(7, "refused")], socketCloses: true)
        #expect(d.failures == 1, "the refusal after a loss belongs to the loss's run")
        #expect(d.session.backoff.retryAt == 24.5, "counted: the delay doubled")
        d.turn(at: 24.5)
        d.turn(at: 25, events: [.connected])
        #expect(d.said.filter { $0.id == "uplink.lost" }.count == 1 && d.said.last?.text == "uplink: connected again")
    }

    @Test("acknowledgements out of order: the queue is told only what is acknowledged without a gap")
    func acknowledgementsOutOfOrder() {
        var d = Driver()
        d.send(.queue(acked: 10, next: 16), at: 0)
        d.send(.start, at: 0)
        d.turn(at: 0.1, events: [.connected])
        #expect(d.said.last?.text == "uplink: connected; 5 batches to send")
        // The backlog at 4 a second: after a second, four batches at most asked for, then published.
        d.turn(at: 1.1)
        guard
            case .sendBacklog(let after, let count)? = d.actions.last(where: {
                if case .sendBacklog = $0 { true } else { false }
            })
        else {
            Issue.record("no backlog asked for: \(d.actions)")
            return
        }
        #expect(after == 10 && count == 4)
        for (offset, id) in [100, 101, 102, 103].enumerated() {
            d.send(.published(sequence: 11 + UInt64(offset), messageID: Int32(id)), at: 1.1)
        }
        d.actions.removeAll()
        d.send(.acknowledged(102), at: 1.2)
        d.send(.acknowledged(101), at: 1.2)
        #expect(d.actions == [.acknowledge(through: 10), .acknowledge(through: 10)], "11 missing: nothing more")
        d.send(.acknowledged(100), at: 1.3)
        #expect(d.actions.last == .acknowledge(through: 13))
        d.send(.acknowledged(100), at: 1.3)
        #expect(d.actions.count == 3, "an acknowledgement twice, or of a message not in flight, is nothing")
        d.send(.acknowledged(103), at: 1.4)
        #expect(d.actions.last == .acknowledge(through: 14) && d.session.waiting == 1)
    }

    @Test("the backlog keeps its rate and its window, and starts again from what was acknowledged after a drop")
    func backlogRateAndWindow() {
        var settings = Self.settings()
        settings.maximumInFlight = 6
        var d = Driver(settings)
        d.send(.queue(acked: 0, next: 101), at: 0)
        d.send(.start, at: 0)
        d.turn(at: 0, events: [.connected])
        var sent: [UInt64] = []
        var id: Int32 = 1
        var t = 0.0
        while t < 5 {
            t += 0.25
            d.actions.removeAll()
            d.turn(at: t)
            for case .sendBacklog(let after, let count) in d.actions {
                for sequence in (after + 1)...(after + UInt64(count)) {
                    d.send(.published(sequence: sequence, messageID: id), at: t)
                    sent.append(sequence)
                    id += 1
                }
            }
            #expect(d.session.inFlightCount <= 6)
        }
        #expect(sent == Array(1...6), "no acknowledgement: the window of 6 in flight, in order: \(sent)")
        // The link drops; what was in flight is sent again on the next connection, from the last acknowledged.
        d.send(.acknowledged(1), at: 5)
        d.turn(at: 5.1, events: [.dropped(7, "lost")], socketCloses: true)
        t = 7
        d.turn(at: t, events: [.connected])
        d.actions.removeAll()
        d.turn(at: 8)
        #expect(d.actions.contains(.sendBacklog(after: 1, count: 4)), "\(d.actions)")
    }

    @Test("samples gathered into numbered batches, late while the link is down, live values only while connected")
    func batches() throws {
        var d = Driver()
        d.send(.queue(acked: 41, next: 42), at: 0)
        d.send(.start, at: 0)
        var model = SignalKModel(urn: "urn:mrn:signalk:uuid:6b0e776f-811a-4b35-980e-b93405371bc5")
        let values = InstrumentValues()
        var appended: [UplinkBatch] = []
        for second in 0..<6 {
            model.update(
                values, alarms: [], timeToStart: nil, at: Double(second), unixTime: 1_764_000_000 + Double(second))
            d.actions.removeAll()
            if second == 3 { d.turn(at: 3, events: [.connected]) }
            d.send(.report(model, time: Double(second), unixTime: 1_764_000_000 + Double(second)), at: Double(second))
            for case .append(let batch) in d.actions { appended.append(batch) }
            let live = d.actions.contains {
                if case .publish(let topic, _, true) = $0 { topic == "telltale/arrow/ais/count" } else { false }
            }
            #expect(live == (second >= 3), "live values only while connected (second \(second)): \(d.actions)")
        }
        #expect(appended.map(\.sequence) == [42, 43], "numbered on from the queue's next")
        #expect(appended.map(\.late) == [true, false])
        #expect(appended.allSatisfy { $0.count > 0 && $0.boat == "arrow" })
    }

    @Test("commands from shore: signed and fresh become the engine's; anything else is refused and counted")
    func commands() {
        var d = Driver(Self.settings(commands: true))
        let root = "telltale/arrow/"
        let good = Self.signed("race start", time: 1_764_000_000, nonce: "a91f0c2e77")
        d.send(.message(topic: root + "commands", payload: good, wallClock: 1_764_000_030), at: 1)
        #expect(d.actions.last == .command(.race(.start)))
        d.send(.message(topic: root + "commands", payload: good, wallClock: 1_764_000_031), at: 2)
        #expect(d.said.last?.id == "uplink.command.replay" && d.session.refusedCommands == 1)
        d.send(.message(topic: root + "other", payload: good, wallClock: 1_764_000_031), at: 2)
        #expect(d.session.refusedCommands == 1, "another topic is not a command")
        d.send(.commandDone(.done("race timer started")), at: 3)
        #expect(
            d.actions.last
                == .publish(
                    topic: root + "commands/result", payload: #"{"done":true,"message":"race timer started"}"#,
                    retain: false))
        d.session.droppedMessages(2)
        #expect(d.session.refusedCommands == 3)
    }

    static func signed(_ command: String, time: Int, nonce: String) -> [UInt8] {
        let hmac = SHA256.hmac(
            key: Array("key".utf8),
            RemoteCommand.signed(boat: "arrow", command: command, time: Int64(time), nonce: nonce))
        let hex = hmac.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
        return Array(
            "{\"command\":\"\(command)\",\"time\":\(time),\"nonce\":\"\(nonce)\",\"hmac\":\"\(hex.joined())\"}".utf8)
    }
}
