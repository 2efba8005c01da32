import Fleet
import Gateway
import Marine
import Platform
import SignalK

/// The boat watch's alerts delivered: each raised, repeated or cleared alert to the boat's owner and crew, by e-mail
/// (`--smtp`, each account's `--email`) and by Web Push (each phone that asked on the panel). Each letter goes
/// through a messenger of its own (`telltale fleet send`, a child) so that a slow server never holds the loop; the
/// ``Outbox`` says when to try again. The letters wait in a folder only this user may open, each removed by the
/// messenger that reads it.
final class AlertPost {
    struct Settings {
        var smtp: String?
        var mailFrom: String?
        /// A CA the messengers trust besides the system's (a private mail server's or push service's).
        var postCA: String?
        var repeatEvery = 900.0
    }

    struct Letter {
        var kind: String
        var json: String
        /// Who and what, for the log.
        var about: String
        /// A push's subscription (forgotten when its push service says it is gone).
        var endpoint: String? = nil
        /// When it was posted (monotonic): the log says how long it took.
        var posted = POSIX.monotonic()
    }

    let settings: Settings
    let store: FleetStore
    let log: Log
    let push: PushKeys?
    private let executable: String
    private let folder: String
    private var outbox = Outbox<Letter>()
    /// One dragging anchor, one message (the boat's own alarm or the shore's watch, whichever said it first).
    private var filter = DeliveryFilter()
    /// Letters the outbox dropped that the log has said.
    private var droppedSaid = 0
    private var running: [Int32: (id: Int, started: Double, letter: Letter, output: String)] = [:]

    init?(settings: Settings, store: FleetStore, push: PushKeys?, log: Log) {
        guard settings.smtp != nil || push != nil, let executable = POSIX.executablePath() else { return nil }
        self.settings = settings
        self.store = store
        self.push = push
        self.log = log
        self.executable = executable
        let base = POSIX.environment("TMPDIR").flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        folder = base + "/telltale-post-\(POSIX.processID)"
        // What an earlier run left when it was stopped dead (a power cut, SIGKILL): letters hold the mail server's
        // password, and nothing will send them now.
        for name in POSIX.list(base) where name.hasPrefix("telltale-post-") {
            guard let pid = Int32(name.dropFirst(14)), pid != POSIX.processID, !POSIX.isRunning(pid) else { continue }
            POSIX.removeFolder(base + "/" + name)
        }
        try? POSIX.makeDirectory(folder, mode: 0o700)
    }

    /// At the end: the messengers still out stopped, the letters and the folder removed.
    func close() {
        for pid in running.keys {
            POSIX.kill(pid)
            _ = POSIX.reap(pid)
        }
        running.removeAll()
        POSIX.removeFolder(folder)
    }

    /// An alert of the watch: a letter for each way each of its boat's people is reached.
    func post(_ action: BoatWatch.Action, at time: Double) {
        guard filter.pass(action) else { return }
        let alert: BoatWatch.Alert
        switch action {
        case .raise(let a), .again(let a), .clear(let a): alert = a
        }
        let people = ((try? store.accounts(ofBoat: alert.boat)) ?? []).filter { $0.role == .owner || $0.role == .crew }
        if let smtp = settings.smtp, let from = settings.mailFrom {
            let to = people.compactMap(\.email)
            if !to.isEmpty {
                let token = Base64.encodeURL((try? POSIX.randomBytes(12)) ?? Array(String(time).utf8))
                let message = AlertLetter.message(
                    action, from: from, to: to, at: time, token: token, repeatEvery: settings.repeatEvery)
                var json = JSONWriter()
                json.beginObject()
                json.value("kind", "mail")
                json.value("smtp", smtp)
                if let ca = settings.postCA { json.value("ca", ca) }
                json.value("from", from)
                json.beginArray("to")
                for address in to { json.value(nil, address) }
                json.endArray()
                json.value("message", String(decoding: message, as: UTF8.self))
                json.endObject()
                outbox.post(
                    Letter(kind: "mail", json: json.text, about: "\(alert.message) to \(to.joined(separator: ", "))"),
                    at: POSIX.monotonic())
            }
        }
        if let push {
            for letter in push.letters(for: action, people: people.map(\.name) + ["*"], store: store, at: time) {
                outbox.post(letter, at: POSIX.monotonic())
            }
        }
    }

    /// Each turn: messengers that ended heard, letters due sent.
    func turn(now: Double) {
        for (pid, job) in running {
            if now - job.started > 120 { POSIX.kill(pid) }
            guard let status = POSIX.reap(pid) else { continue }
            running[pid] = nil
            let said = (try? POSIX.readFile(job.output, limit: 4096)).map { String(decoding: $0, as: UTF8.self) }
            _ = POSIX.remove(job.output)
            let words = (said ?? "").split(separator: "\n").last.map(String.init) ?? "status \(status)"
            let ending: Outbox<Letter>.Ending = status == 0 ? .delivered : status == 69 ? .refused : .failed
            switch outbox.ended(job.id, ending, at: now) {
            case .done?:
                let seconds = FixedDecimal.text(now - job.letter.posted, decimals: 1)
                log.notice(
                    "fleet.post", "fleet: post: \(job.letter.about): \(words), \(seconds) s after the alert",
                    [("device", "fleet")])
            case .again(let at)?:
                log.warning(
                    "fleet.post", "fleet: post: \(job.letter.about): \(words); tried again in \(Int(at - now)) s",
                    [("device", "fleet")])
            case .givenUp(let attempts)?:
                // A phone's push service that says the subscription is gone (404, 410): it is forgotten.
                if status == 69, let endpoint = job.letter.endpoint { _ = try? store.removeSubscription(endpoint) }
                log.warning(
                    "fleet.post", "fleet: post: \(job.letter.about): \(words); given up after \(attempts) tries",
                    [("device", "fleet")])
            case nil: break
            }
        }
        for item in outbox.due(at: now) { start(item, now: now) }
        if outbox.dropped != droppedSaid {
            log.warning(
                "fleet.post",
                "fleet: post: \(outbox.dropped - droppedSaid) letters dropped, the oldest waiting "
                    + "(over \(outbox.capacity) waiting: an alert storm, or the servers unreachable)",
                [("device", "fleet")])
            droppedSaid = outbox.dropped
        }
    }

    private func start(_ item: Outbox<Letter>.Item, now: Double) {
        let path = folder + "/letter-\(item.id)-\(item.attempts).json"
        let output = folder + "/said-\(item.id)-\(item.attempts).txt"
        do { try POSIX.writeFileAtomically(path, item.letter.json, mode: 0o600) } catch {
            _ = outbox.ended(item.id, .failed, at: now)
            return log.warning("fleet.post", "fleet: post: cannot write the letter: \(error)", [("device", "fleet")])
        }
        switch POSIX.spawn([executable, "fleet", "send", path], log: output) {
        case .success(let pid): running[pid] = (item.id, now, item.letter, output)
        case .failure(let failure):
            _ = POSIX.remove(path)
            _ = outbox.ended(item.id, .failed, at: now)
            log.warning("fleet.post", "fleet: post: cannot start the messenger: \(failure)", [("device", "fleet")])
        }
    }
}
