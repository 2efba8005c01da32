import Testing

@testable import Fleet

/// The shore's link to a broker, replayed as event sequences with time as an argument and no broker: a broker that
/// refuses, one that hangs, one that drops in the middle of a batch and comes back, a keeper catching up; each as the
/// loop of `telltale fleet` drives it (a turn, what the client said, housekeeping once a second).
@Suite struct BrokerSessionTests {
    /// A session driven as `BrokerLink` drives it: connect begins (its socket opens) or fails at once, as told; what
    /// it asked for and said kept.
    struct Driver {
        var session: BrokerSession
        var actions: [BrokerSession.Action] = []
        var attempts: [(time: Double, fresh: Bool)] = []
        var connectBegins = true

        init(keeper: Bool = false, shows: Bool = false) {
            session = BrokerSession(
                settings: BrokerSession.Settings(
                    url: "mqtt://shore:1883", subscriptions: ["telltale/+/history", "telltale/+/online"],
                    keeper: keeper, shows: shows))
        }

        mutating func send(_ event: BrokerSession.Event, at now: Double) {
            for action in session.handle(event, at: now) {
                actions.append(action)
                if case .connect(let fresh) = action {
                    attempts.append((now, fresh))
                    send(connectBegins ? .attemptBegun : .attemptFailed("connection refused"), at: now)
                }
            }
        }

        /// One turn at `now`, as the loop has it: the turn's start, what the client said, housekeeping each second.
        mutating func turn(at now: Double, _ events: [BrokerSession.Event] = []) {
            send(.turn, at: now)
            for event in events { send(event, at: now) }
            send(.housekeeping, at: now)
        }

        var said: [BrokerSession.Notice] {
            actions.compactMap { if case .say(let notice) = $0 { notice } else { nil } }
        }
        var stored: [String] {
            actions.compactMap { if case .store(let topic, _, _) = $0 { topic } else { nil } }
        }
        var subscriptions: Int { actions.filter { if case .subscribe = $0 { true } else { false } }.count }
    }

    @Test("a broker that refuses the connection is tried again after a growing backoff, said once, then connected")
    func refusing() {
        var d = Driver()
        d.turn(at: 0, [.connack(5)])
        for t in stride(from: 1.0, through: 20, by: 1) { d.turn(at: t, [.connack(5)]) }
        // Refused at 0, then retried after 1, 2, 4, 8 s (each answered with a refusal at once).
        #expect(d.attempts.map(\.time) == [0, 1, 3, 7, 15])
        #expect(d.said.filter { $0.id == "fleet.refused" }.count == 5, "a refusal is an error each time")
        #expect(!d.session.connected)
        d.turn(at: 31, [.connack(0)])
        #expect(d.session.connected && d.subscriptions == 2)
        #expect(d.said.last?.text == "fleet: connected to the broker mqtt://shore:1883 again")
    }

    @Test("a broker that cannot be reached at all is said once for the run of failures, not at every attempt")
    func unreachable() {
        var d = Driver()
        d.connectBegins = false
        for t in stride(from: 0.0, through: 100, by: 1) { d.turn(at: t) }
        #expect(d.attempts.map(\.time) == [0, 1, 3, 7, 15, 31, 61, 91], "the backoff doubles up to 30 s")
        #expect(d.said.filter { $0.id == "fleet.broker" }.count == 1)
    }

    @Test("an attempt the broker never answers (its socket open, nothing back) is given up and a fresh client tries")
    func hanging() {
        var d = Driver()
        for t in stride(from: 0.0, through: 30, by: 1) { d.turn(at: t) }
        // The old loop waited for an answer forever: `connecting` stayed true and no attempt came again.
        #expect(
            d.attempts.map(\.time) == [0, 27], "given up past 2 × keep-alive + 5 s (at 26 s), again a second later")
        #expect(d.attempts.map(\.fresh) == [false, true], "a new client, not the hung one")
        #expect(d.said.first?.text.contains("no answer within 25 s") == true)
        d.turn(at: 28, [.connack(0)])
        #expect(d.session.connected)
    }

    @Test("a link dropped in the middle of a batch: what came before is stored, the rest after it comes back")
    func droppedMidBatch() {
        var d = Driver(shows: true)
        d.turn(at: 0, [.connack(0)])
        d.turn(
            at: 1,
            [
                .message(topic: "telltale/a/history", payload: [1]),
                .message(topic: "telltale/b/history", payload: [2]),
                .dropped(7, "the connection was lost"),
            ])
        #expect(d.stored == ["telltale/a/history", "telltale/b/history"])
        #expect(!d.session.connected && d.said.last?.id == "fleet.lost")
        // A second goodbye for the same drop counts for nothing: the next attempt is not pushed further off.
        d.send(.dropped(7, "the connection was lost"), at: 1.5)
        d.turn(at: 2, [.connack(0)])
        #expect(d.attempts.map(\.time) == [0, 2] && d.session.connected)
        #expect(d.subscriptions == 4, "subscribed again on the new connection")
        d.turn(at: 3, [.message(topic: "telltale/c/history", payload: [3])])
        #expect(d.stored.count == 3)
        #expect(d.actions.contains(.store(topic: "telltale/c/history", payload: [3], show: true)))
    }

    @Test("a goodbye while an attempt is under way fails the attempt once; a CONNACK after it is not believed")
    func goodbyeWhileAttempting() {
        var d = Driver()
        d.turn(at: 0, [.dropped(14, "connection refused")])
        #expect(!d.session.attempting && d.said.count == 1)
        d.send(.connack(0), at: 0.5)
        #expect(!d.session.connected, "no attempt is under way")
        d.turn(at: 1, [.connack(0)])
        #expect(d.session.connected)
    }

    @Test("a keeper takes what the broker kept for it for its catch-up, then drops what comes; again after a drop")
    func keeper() {
        var d = Driver(keeper: true, shows: true)
        d.turn(at: 0, [.connack(0), .message(topic: "telltale/a/history", payload: [1])])
        #expect(d.actions.contains(.store(topic: "telltale/a/history", payload: [1], show: false)), "never shown")
        for t in stride(from: 1.0, through: 31, by: 1) { d.turn(at: t) }
        #expect(d.actions.last == .accept(false) && !d.session.accepting)
        d.turn(at: 32, [.message(topic: "telltale/a/history", payload: [2])])
        #expect(d.stored.count == 1, "past its catch-up a keeper stores nothing")
        d.turn(at: 40, [.dropped(7, "lost")])
        d.turn(at: 41, [.connack(0), .message(topic: "telltale/a/history", payload: [3])])
        #expect(d.actions.contains(.accept(true)) && d.stored.count == 2, "what waited for it, taken again")
    }

    @Test("messages dropped for their size are refused and counted, not stored")
    func oversized() {
        var d = Driver()
        d.turn(at: 0, [.connack(0), .oversized(3), .oversized(0)])
        #expect(d.actions.contains(.refuse(why: "size", count: 3)))
        #expect(d.actions.filter { if case .refuse = $0 { true } else { false } }.count == 1)
    }
}
