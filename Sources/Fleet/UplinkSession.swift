import Engine
import Marine
import SignalK

/// The fleet uplink's life as a state machine with no I/O: whether it is connected, attempting or waiting out its
/// backoff; which history batches went out on this connection and which the broker has acknowledged; what is due
/// ashore from the model; what a command from shore asks. The shell (`UplinkService`) feeds it what the MQTT client
/// and the queue on disk said (``Event``), with the time, and carries out what comes back (``Action``): it keeps no
/// state of its own about the link.
///
/// The rules that cost the most to learn, each held here once:
/// - A connection attempt fails once, however libmosquitto says it: its own error, a refusal after it began (the
///   socket closed with the CONNECT still queued), a goodbye, a socket gone without a word, or no answer within
///   ``Settings/attemptLimit``. A goodbye with no connection and no attempt counts for nothing, so a failed attempt
///   never pushes the next one further off.
/// - Batches are numbered by the queue; the broker's acknowledgements may come in any order, and the queue is told
///   only the highest number below which every batch is acknowledged.
/// - The backlog goes at most ``Settings/backlogRate`` batches a second and ``Settings/maximumInFlight`` unanswered,
///   beside the live values.
public struct UplinkSession: Sendable {
    public struct Settings: Sendable {
        /// The topic root (`telltale/<boat>/`) and the boat's id in batches.
        public var root: String
        public var boat: String
        public var groups: [UplinkGroup: Double]
        public var batchSeconds: Double
        public var backlogRate: Double
        /// Seconds of silence after which the broker and the client consider the link gone.
        public var keepAlive: Double
        public var commands: Bool
        public var commandKey: [UInt8]?
        /// Batches sent and not yet acknowledged, at most.
        public var maximumInFlight = 32

        /// An attempt with no answer for this long is given up here (libmosquitto's own keep-alive normally ends it
        /// sooner; this is the bound whatever the library does).
        public var attemptLimit: Double { 2 * keepAlive + 5 }

        public init(_ configuration: UplinkConfiguration) {
            root = configuration.root
            boat = configuration.boat
            groups = configuration.groups
            batchSeconds = configuration.batchSeconds
            backlogRate = configuration.backlogRate
            keepAlive = Double(configuration.keepAlive)
            commands = configuration.commands
            commandKey = configuration.commandKey.map { Array($0.utf8) }
        }
    }

    public enum Event: Sendable {
        /// The service started.
        case start
        /// The attempt asked for (``Action/connect`` or ``Action/reconnect``) began: the client is connecting.
        case attemptBegun
        /// It could not begin (no library, no client, refused at once), in words.
        case attemptFailed(String)
        /// The broker accepted the connection, or refused it with its CONNACK code.
        case connected
        case refused(Int32)
        /// The client said goodbye, or a read or write failed: its code and words.
        case dropped(Int32, String)
        /// After the turn's events, the client's socket is closed.
        case socketClosed
        /// The broker acknowledged the message with this id (QoS 1).
        case acknowledged(Int32)
        /// About once a second. `socketOpen`: whether the client has a socket now.
        case housekeeping(socketOpen: Bool)
        /// A backlog batch handed to the client under this message id.
        case published(sequence: UInt64, messageID: Int32)
        /// The queue on disk as it stands: the last number acknowledged (it may have given batches up) and the next.
        case queue(acked: UInt64, next: UInt64)
        /// The engine's report: the model as it now holds, at engine seconds `time` (`unixTime` the UTC it stands for).
        case report(SignalKModel, time: Double, unixTime: Double)
        /// A message from the broker, with the boat's wall clock.
        case message(topic: String, payload: [UInt8], wallClock: Double)
        /// The outcome of a ``Action/command(_:)`` from shore.
        case commandDone(CommandOutcome)
        /// The end of the loop's turn: the backlog, when connected.
        case turnEnded
    }

    public enum Action: Equatable, Sendable {
        /// Make a new client (the old one gone) and begin connecting; answered with `attemptBegun` or `attemptFailed`.
        case connect
        /// Begin connecting again on the client there; answered likewise.
        case reconnect
        /// Publish, QoS 1, at `topic` under the root.
        case publish(topic: String, payload: String, retain: Bool)
        case subscribe(topic: String)
        /// Hand the queue's batches after `after` to the client, in order, at most `count`, each answered with
        /// `published`; the first the client will not take ends it.
        case sendBacklog(after: UInt64, count: Int)
        /// Every batch through this number is acknowledged: the queue may let them go.
        case acknowledge(through: UInt64)
        /// Keep this batch in the queue on disk (it is sent from there).
        case append(UplinkBatch)
        /// A command from shore for the engine, through the router; its outcome comes back as `commandDone`.
        case command(EngineCommand)
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
    /// An attempt is under way: begun, neither connected nor failed yet.
    public private(set) var attempting = false
    private var attemptStarted = 0.0
    /// The client there, if any; a fresh one is made after an attempt given up here.
    private var hasClient = false
    private var freshClient = false
    public private(set) var backoff = Backoff(first: 1, limit: 30)
    /// The queue's numbers: acknowledged through, the next to give; published on this connection through.
    public private(set) var acked: UInt64 = 0
    public internal(set) var next: UInt64 = 1
    public private(set) var sentThrough: UInt64 = 0
    private var inFlight: [Int32: UInt64] = [:]
    private var acknowledgedAhead: Set<UInt64> = []
    private var backlogBudget = 0.0
    private var lastBudgetAt: Double?
    var sampler: UplinkSampler
    var gathering: [UplinkSample] = []
    var gatheringSince: Double?
    var alarmList = ""
    var nonces: [String] = []
    /// Commands from shore refused, for the summary.
    public internal(set) var refusedCommands = 0

    public init(settings: Settings) {
        self.settings = settings
        sampler = UplinkSampler(groups: settings.groups)
    }

    public var inFlightCount: Int { inFlight.count }
    /// Batches waiting for an acknowledgement.
    public var waiting: UInt64 { next - 1 - acked }

    /// What `event` at `now` (monotonic seconds) comes to.
    public mutating func handle(_ event: Event, at now: Double) -> [Action] {
        var out: [Action] = []
        switch event {
        case .start:
            out.append(.connect)
            attempting = true
            attemptStarted = now
        case .attemptBegun:
            hasClient = true
            freshClient = false
            attempting = true
            attemptStarted = now
        case .attemptFailed(let why):
            attemptFailed(why, at: now, &out)
        case .connected:
            connectedNow(&out)
        case .refused(let code):
            guard attempting else { break }
            attempting = false
            backoff.failed(at: now)
            say(.error, "uplink.refused", "uplink: the broker refused the connection (code \(code))", &out)
        case .dropped(let code, let why):
            if connected {
                connected = false
                inFlight.removeAll()
                backoff.failed(at: now)
                say(.warning, "uplink.lost", "uplink: the link to the broker is down (\(code)); queueing on disk", &out)
            } else if attempting {
                attemptFailed(why, at: now, &out)
            }
        case .socketClosed:
            if attempting { attemptFailed("the connection closed", at: now, &out) }
        case .acknowledged(let id):
            guard let sequence = inFlight.removeValue(forKey: id) else { break }
            acknowledgedAhead.insert(sequence)
            var through = acked
            while acknowledgedAhead.remove(through + 1) != nil { through += 1 }
            acked = through
            out.append(.acknowledge(through: through))
        case .housekeeping(let socketOpen):
            housekeeping(socketOpen: socketOpen, at: now, &out)
        case .published(let sequence, let id):
            inFlight[id] = sequence
            sentThrough = max(sentThrough, sequence)
            backlogBudget -= 1
        case .queue(let queueAcked, let queueNext):
            acked = max(acked, queueAcked)
            next = max(next, queueNext)
            sentThrough = max(sentThrough, acked)
        case .report(let model, let time, let unixTime):
            report(model, unixTime: unixTime, time: time, at: now, &out)
        case .message(let topic, let payload, let wallClock):
            message(topic: topic, payload: payload, wallClock: wallClock, &out)
        case .commandDone(let outcome):
            say(.notice, "uplink.command", "uplink: from shore: \(outcome.message)", &out)
            out.append(
                .publish(
                    topic: settings.root + "commands/result",
                    payload: "{\"done\":\(outcome.isDone),\"message\":\(JSONWriter.quoted(outcome.message))}",
                    retain: false))
        case .turnEnded:
            if connected { backlog(at: now, &out) }
        }
        return out
    }

    /// Retries once their backoff is over; an attempt with no answer given up.
    private mutating func housekeeping(socketOpen: Bool, at now: Double, _ out: inout [Action]) {
        if attempting && now - attemptStarted > settings.attemptLimit {
            freshClient = true
            attemptFailed("no answer within \(Int(settings.attemptLimit)) s", at: now, &out)
        }
        guard !connected, !attempting, backoff.isDue(now) else { return }
        if !hasClient || freshClient {
            out.append(.connect)
            // Counted as begun only when the service says so; until then no second one is asked for.
            attempting = true
            attemptStarted = now
            hasClient = false
        } else if !socketOpen {
            out.append(.reconnect)
            attempting = true
            attemptStarted = now
        }
    }

    /// An attempt that failed: the next after the backoff; said once for a run of failures.
    private mutating func attemptFailed(_ why: String, at now: Double, _ out: inout [Action]) {
        attempting = false
        if backoff.failed(at: now) {
            say(.warning, "uplink.unreachable", "uplink: cannot reach the broker (\(why)); queueing", &out)
        }
    }

    private mutating func connectedNow(_ out: inout [Action]) {
        connected = true
        attempting = false
        let recovered = backoff.succeeded()
        sentThrough = acked
        inFlight.removeAll()
        acknowledgedAhead.removeAll()
        out.append(.publish(topic: settings.root + "online", payload: "true", retain: true))
        if settings.commands { out.append(.subscribe(topic: settings.root + "commands")) }
        say(
            .notice, "uplink.connected",
            "uplink: connected" + (recovered ? " again" : "") + (waiting > 0 ? "; \(waiting) batches to send" : ""),
            &out)
    }

    /// The batches not yet sent on this connection, in order, at most `backlogRate` a second and `maximumInFlight`
    /// unacknowledged.
    private mutating func backlog(at now: Double, _ out: inout [Action]) {
        let elapsed = lastBudgetAt.map { now - $0 } ?? 0
        lastBudgetAt = now
        backlogBudget = min(settings.backlogRate, backlogBudget + elapsed * settings.backlogRate)
        guard sentThrough < next - 1, backlogBudget >= 1, inFlight.count < settings.maximumInFlight else { return }
        out.append(
            .sendBacklog(after: sentThrough, count: min(Int(backlogBudget), settings.maximumInFlight - inFlight.count)))
    }

    func say(_ level: Notice.Level, _ id: String, _ text: String, _ out: inout [Action]) {
        out.append(.say(Notice(level: level, id: id, text: text)))
    }
}
