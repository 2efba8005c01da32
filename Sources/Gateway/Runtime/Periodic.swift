import CPosix

/// Work done once every `interval` seconds on the loop (the summary in the log, the status line, the route file
/// looked at), as a service.
final class Periodic: Service {
    let name: String
    private let interval: Double
    private var next = 0.0
    private let body: (Double) -> Void

    init(name: String, every interval: Double, _ body: @escaping (Double) -> Void) {
        self.name = name
        self.interval = interval
        self.body = body
    }

    func start(at now: Double) { next = now + interval }

    func nextDue(now: Double) -> Double? { next }

    func service(now: Double, polled fds: [pollfd]) {
        guard now >= next else { return }
        next += interval
        if next < now { next = now + interval }
        body(now)
    }
}

extension Voice: Service {
    var name: String { "voice" }
    func service(now: Double, polled fds: [pollfd]) { service(now: now) }
    func stop(deadline: Double) { finish() }
}

extension Recorder: Service {
    var name: String { "recorder" }
    /// What is buffered reaches the disk at least once a second.
    func nextDue(now: Double) -> Double? { lastFlush + 1 }
    func service(now: Double, polled fds: [pollfd]) {
        guard now >= lastFlush + 1 else { return }
        lastFlush = now
        flush()
        if now >= lastWriteback + Recorder.writebackInterval {
            lastWriteback = now
            startWriteback()
        }
    }
    func stop(deadline: Double) { close() }
}

extension SystemdNotifier: Service {
    var name: String { "systemd" }
    /// Started last: the inputs and outputs are set up.
    func start(at now: Double) { send("READY=1\nSTATUS=serving") }
    func nextDue(now: Double) -> Double? { keepAliveInterval.map { _ in nextKeepAlive } }
    func service(now: Double, polled fds: [pollfd]) { keepAlive(now: now) }
    func stop(deadline: Double) { send(reloading ? "RELOADING=1" : "STOPPING=1") }
}
