import Marine

/// The shore's link to one broker (`telltale fleet`), as a state machine with no I/O: whether it is connected,
/// attempting or waiting out its backoff; what to subscribe to once connected; whether a keeper's session still takes
/// what the broker kept for it; where each message goes. The shell (`BrokerLink`, in `Shore`) tells it what the MQTT
/// client said, with the time, and carries out what comes back; it keeps no state of the link of its own.
///
/// The rules, each held here once (the boat's ``UplinkSession`` learnt them first):
/// - An attempt fails once, however libmosquitto says it: its own error when it begins, a refusal (CONNACK not 0), a
///   goodbye or a socket gone while it was under way, or no answer within ``Settings/attemptLimit`` (a broker whose
///   accept queue is full leaves the socket open and says nothing). A hung attempt is given up and a fresh client
///   tries after the backoff.
/// - A goodbye with no connection and no attempt counts for nothing: it never pushes the next attempt further off.
/// - A run of failures is said once; the link coming back is said as "again".
/// - A keeper's session (plain subscriptions, which mosquitto restores after a restart, unlike shared ones) takes what
///   waited for it from the moment it connects and for ``Settings/catchUp`` seconds after, then drops what comes
///   unread (the workers' shared subscriptions have it).
public struct BrokerSession: Sendable {
    public struct Settings: Sendable {
        /// The broker's URL, for the log.
        public var url: String
        /// The topics subscribed to once connected (QoS 1).
        public var subscriptions: [String]
        /// A keeper's session (see the type's notes).
        public var keeper: Bool
        /// Whether what comes is shown live as well as stored (the committee's laptop, `--role all`).
        public var shows: Bool
        /// Seconds of silence after which the broker and the client consider the link gone.
        public var keepAlive: Double = 10
        /// Seconds a keeper takes messages after it connects.
        public var catchUp: Double = 30

        /// An attempt with no answer for this long is given up here.
        public var attemptLimit: Double { 2 * keepAlive + 5 }

        public init(url: String, subscriptions: [String], keeper: Bool = false, shows: Bool = false) {
            self.url = url
            self.subscriptions = subscriptions
            self.keeper = keeper
            self.shows = shows
        }
    }

    public enum Event: Sendable {
        /// The start of a turn of the loop: an attempt is begun when one is due.
        case turn
        /// The attempt asked for (``Action/connect(fresh:)``) began, or could not begin (in words).
        case attemptBegun
        case attemptFailed(String)
        /// The broker's CONNACK: 0 accepted, else its refusal code.
        case connack(Int32)
        /// The client said goodbye, or a read or write failed: its code and words.
        case dropped(Int32, String)
        /// About once a second.
        case housekeeping
        /// A message the client took (and, for a worker, put in its journal).
        case message(topic: String, payload: [UInt8])
        /// Messages the client dropped unread for their size since the last time.
        case oversized(Int)
    }

    public enum Action: Equatable, Sendable {
        /// Begin connecting (a new client when `fresh`: the last one hung); answered with `attemptBegun` or
        /// `attemptFailed`.
        case connect(fresh: Bool)
        case subscribe(String)
        /// Whether the client takes messages at all (a keeper's session past its catch-up drops them unread).
        case accept(Bool)
        /// Into the store; and onto the live view when `show`.
        case store(topic: String, payload: [UInt8], show: Bool)
        /// Refused before the store: counted under `why`.
        case refuse(why: String, count: Int)
        case say(Notice)
    }

    /// A line for the log.
    public struct Notice: Hashable, Sendable {
        public enum Level: Sendable { case info, notice, warning, error }
        public var level: Level
        public var id: String
        public var text: String
    }

    public let settings: Settings
    public private(set) var connected = false
    public private(set) var attempting = false
    public private(set) var backoff = Backoff(first: 1, limit: 30)
    /// Whether the client takes messages (a keeper's after its catch-up does not).
    public private(set) var accepting = true
    private var attemptStarted = 0.0
    private var hung = false
    private var catchUntil = Double.infinity

    public init(settings: Settings) { self.settings = settings }

    /// What `event` at `now` (monotonic seconds) comes to.
    public mutating func handle(_ event: Event, at now: Double) -> [Action] {
        var out: [Action] = []
        switch event {
        case .turn:
            guard !connected, !attempting, backoff.isDue(now) else { break }
            if settings.keeper && !accepting {
                // A keeper takes what waited for it from the moment it connects again.
                accepting = true
                out.append(.accept(true))
            }
            catchUntil = .infinity
            attempting = true
            attemptStarted = now
            out.append(.connect(fresh: hung))
            hung = false
        case .attemptBegun:
            attempting = true
        case .attemptFailed(let why):
            attemptFailed(why, at: now, &out)
        case .connack(let code):
            guard attempting else { break }
            attempting = false
            guard code == 0 else {
                backoff.failed(at: now)
                say(.error, "fleet.refused", "fleet: the broker \(settings.url) refused the connection (\(code))", &out)
                break
            }
            connected = true
            let again = backoff.succeeded()
            for topic in settings.subscriptions { out.append(.subscribe(topic)) }
            if settings.keeper { catchUntil = now + settings.catchUp }
            say(
                .notice, "fleet.connected", "fleet: connected to the broker \(settings.url)" + (again ? " again" : ""),
                &out)
        case .dropped(let code, let why):
            if connected {
                connected = false
                backoff.failed(at: now)
                say(
                    .warning, "fleet.lost", "fleet: the link to the broker \(settings.url) is down (\(code): \(why))",
                    &out)
            } else if attempting {
                attemptFailed(why, at: now, &out)
            }
        case .housekeeping:
            if attempting && now - attemptStarted > settings.attemptLimit {
                hung = true
                attemptFailed("no answer within \(Int(settings.attemptLimit)) s", at: now, &out)
            }
            if settings.keeper && connected && accepting && now > catchUntil {
                accepting = false
                out.append(.accept(false))
            }
        case .message(let topic, let payload):
            guard accepting else { break }
            out.append(.store(topic: topic, payload: payload, show: settings.shows && !settings.keeper))
        case .oversized(let count):
            if count > 0 { out.append(.refuse(why: "size", count: count)) }
        }
        return out
    }

    /// An attempt that failed: the next after the backoff; said once for a run of failures.
    private mutating func attemptFailed(_ why: String, at now: Double, _ out: inout [Action]) {
        attempting = false
        if backoff.failed(at: now) {
            say(.warning, "fleet.broker", "fleet: cannot reach the broker \(settings.url) (\(why))", &out)
        }
    }

    private func say(_ level: Notice.Level, _ id: String, _ text: String, _ out: inout [Action]) {
        out.append(.say(Notice(level: level, id: id, text: text)))
    }
}
