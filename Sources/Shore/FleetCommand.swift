import Fleet
import Gateway
import Platform
import SignalK

/// `telltale fleet`: the shore side. One loop: the brokers' sockets (libmosquitto, as the uplink drives it, each link's
/// life a ``BrokerSession``), the store, and the panel's server (the same sockets as a boat's, a Signal K server with
/// no boat of its own).
///
/// Three roles, the same program: `all` (the committee's laptop: one process takes from the brokers, keeps in the
/// store and serves the panel from what it took), `ingest` (a worker: takes its share of every broker's messages
/// through the shared subscription `$share/telltale/...` into the store; as many as the load needs), `web` (serves the
/// panel from the store alone, keeping nothing of its own that a restart would lose; as many as wanted).
public enum FleetCommand {
    /// The topics a role takes: a worker its share of what the store keeps; the laptop everything (its panel shows
    /// the live values too); the keeper's session what the store keeps, plainly.
    static func subscriptions(_ role: FleetOptions.Role, keeper: Bool = false) -> [String] {
        if keeper { return ["history", "online", "alarms"].map { "telltale/+/" + $0 } }
        switch role {
        case .ingest: return ["history", "online", "alarms"].map { "$share/telltale/telltale/+/" + $0 }
        case .all: return ["telltale/+/#"]
        case .web: return []
        }
    }

    public static func run(_ options: FleetOptions, log sink: @escaping (LogEvent) -> Void) throws(CommandError) {
        let gate = LogGate(sink: sink)
        let log = Log { gate.admit($0) }
        let setup = try ShoreSetup(options, log: log)
        log.notice(
            "fleet.start",
            "fleet (\(options.role.rawValue)\(options.worker.map { " " + $0 } ?? "")): "
                + (setup.links.isEmpty ? "" : "boats from \(options.brokers.joined(separator: ", ")), ")
                + "kept in \(FleetStore.describe(options.store))"
                + (setup.web.map {
                    ", the panel on \(options.tlsCertificate == nil ? "http" : "https")://\(options.listen)/ "
                        + "(port \($0.server.port))"
                } ?? ""),
            [("device", "fleet")])
        StopSignal.install()
        var loop = ShoreLoop(setup: setup, options: options, log: log)
        loop.replayJournal()
        let start = POSIX.monotonic()
        while !StopSignal.isRaised {
            if let duration = options.duration, POSIX.monotonic() - start >= duration { break }
            loop.turn()
            gate.sayHeldBack()
        }
        loop.finish()
        gate.sayHeldBack(all: true)
    }

    /// The folder of a file's path, with its slash ("" for a bare name).
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[...slash])
    }
}

/// One turn after another of `telltale fleet`'s loop: the brokers' links, the store, the web side.
struct ShoreLoop {
    let setup: ShoreSetup
    let log: Log
    /// What the brokers hand over, on its way to the store and (the laptop's) the live view.
    var intake: ShoreIntake
    /// The boat watch's alerts on their way to the boats' people (the laptop's process, when e-mail or push is on).
    let post: AlertPost?
    private var nextSecond = 0.0
    private var set = PollSet()

    init(setup: ShoreSetup, options: FleetOptions, log: Log) {
        self.setup = setup
        self.log = log
        // The web side reading the store follows more boats than one process following a broker.
        var fleet = FleetModel(boatLimit: options.role == .web ? 20_000 : FleetModel.maximumBoats)
        fleet.collectsPositions = setup.web?.office != nil
        intake = ShoreIntake(
            ingest: Ingest(store: setup.store, worker: setup.name, log: log), fleet: fleet, log: log)
        let push =
            setup.web == nil
            ? nil
            : PushKeys(
                store: setup.store, subject: "mailto:" + (options.mailFrom ?? "watch@telltale.invalid"),
                ca: options.postCA, log: log)
        setup.web?.pushKeys = push
        var post: AlertPost?
        if options.role == .all {
            let watch = ShoreWatch(silentAfter: options.silentAfter, log: log)
            intake.watch = watch
            setup.web?.watch = watch
            let settings = AlertPost.Settings(
                smtp: options.smtp, mailFrom: options.mailFrom, postCA: options.postCA,
                repeatEvery: watch.watch.settings.repeatEvery)
            post = AlertPost(settings: settings, store: setup.store, push: push, log: log)
            if let post { watch.deliver = { post.post($0, at: POSIX.unixTime()) } }
        }
        self.post = post
    }

    /// What a killed worker left in its journal, into the store before anything new.
    mutating func replayJournal() {
        guard let journal = setup.journal else { return }
        let left = journal.leftOver()
        guard !left.isEmpty else { return journal.empty() }
        let now = POSIX.unixTime()
        for (topic, payload) in left { intake.ingest.take(topic: topic, payload: payload, at: now) }
        if intake.ingest.flush(at: now) { journal.empty() }
        log.notice(
            "fleet.journal", "fleet: \(left.count) messages from the journal a stopped worker left, stored",
            [("device", "fleet")])
    }

    mutating func turn() {
        let now = POSIX.monotonic()
        intake.unixTime = POSIX.unixTime()
        for link in setup.links { link.begin(at: now, into: &intake) }
        set.removeAll()
        setup.web?.server.pollDescriptors(into: &set)
        // A store that cannot keep up (or is down) stops the reading: the brokers keep what waits.
        let reading = intake.ingest.pending.count < 20_000
        for link in setup.links { link.poll(into: &set, reading: reading) }
        let busy =
            !intake.ingest.pending.isEmpty || (setup.web?.office?.reading ?? false)
            || (setup.web?.histories.reading ?? false)
        set.wait(seconds: busy ? 0.02 : 0.25)
        let after = POSIX.monotonic()
        let unix = POSIX.unixTime()
        intake.unixTime = unix
        let second = after >= nextSecond
        if second { nextSecond = after + 1 }
        for link in setup.links {
            link.service(polled: set, reading: reading, second: second, at: after, into: &intake)
        }
        // Into the store every turn: the journal is emptied only once the store has it all.
        if !intake.ingest.pending.isEmpty && intake.ingest.flush(at: POSIX.unixTime()) { setup.journal?.empty() }
        if second && !setup.links.isEmpty { intake.ingest.report(at: unix) }
        if second { intake.watch?.tick(at: unix) }
        post?.turn(now: after)
        setup.web?.turn(fleet: &intake.fleet, second: second, now: after, unixTime: unix)
    }

    /// What is pending into the store, the counters, goodbyes.
    mutating func finish() {
        if !intake.ingest.pending.isEmpty && intake.ingest.flush(at: POSIX.unixTime()) { setup.journal?.empty() }
        if !setup.links.isEmpty { intake.ingest.report(at: POSIX.unixTime()) }
        for link in setup.links { link.disconnect() }
        setup.web?.server.close()
        post?.close()
    }
}
