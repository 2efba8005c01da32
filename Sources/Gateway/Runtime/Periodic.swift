import Platform

/// An event emitted once every `interval` seconds on the loop (the housekeeping: the summary in the log, the status
/// line, the route file looked at), as a service.
final class Periodic: Service {
    let name: String
    private let interval: Double
    private var next = 0.0
    private let event: ServiceEvent

    init(name: String, every interval: Double, emitting event: ServiceEvent) {
        self.name = name
        self.interval = interval
        self.event = event
    }

    func start(_ turn: inout Turn) { next = turn.now + interval }

    func nextDue(now: Double) -> Double? { next }

    func service(_ turn: inout Turn) {
        guard turn.now >= next else { return }
        next += interval
        if next < turn.now { next = turn.now + interval }
        turn.emit(event)
    }
}

extension Voice: Service {
    var name: String { "voice" }
    func service(_ turn: inout Turn) { service(now: turn.now) }
    func stop(deadline: Double) { finish() }
}

extension Recorder: Service {
    var name: String { "recorder" }
    /// What is buffered reaches the disk at least once a second.
    func nextDue(now: Double) -> Double? { lastFlush + 1 }
    func service(_ turn: inout Turn) {
        let now = turn.now
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
    func start(_ turn: inout Turn) { send("READY=1\nSTATUS=serving") }
    func nextDue(now: Double) -> Double? { keepAliveInterval.map { _ in nextKeepAlive } }
    func service(_ turn: inout Turn) { keepAlive(now: turn.now) }
    func stop(deadline: Double) { send(reloading ? "RELOADING=1" : "STOPPING=1") }
}
