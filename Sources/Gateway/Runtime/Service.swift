import CPosix

/// A long-running part of the gateway (the inputs, the engine's tick, the outputs, the Signal K server, the voice,
/// the recorder, the systemd notifier), in swift-service-lifecycle's shape without the package, which the Pi build
/// cannot have: started in order, given its turn of the one `poll` loop, stopped in reverse order on SIGTERM.
protocol Service: AnyObject {
    var name: String { get }
    /// Starts, at the loop's start on the monotonic clock.
    func start(at now: Double)
    /// Adds the descriptors the loop should wait on this turn.
    func pollDescriptors(now: Double, into fds: inout [pollfd])
    /// When it must be serviced next whether or not a descriptor is ready; nil when only its descriptors matter.
    func nextDue(now: Double) -> Double?
    /// Its turn after `poll`: `fds` is the set just polled.
    func service(now: Double, polled fds: [pollfd])
    /// Finishes what it holds (flushing until `deadline` at most) and closes.
    func stop(deadline: Double)
}

extension Service {
    func start(at now: Double) {}
    func pollDescriptors(now: Double, into fds: inout [pollfd]) {}
    func nextDue(now: Double) -> Double? { nil }
    func service(now: Double, polled fds: [pollfd]) {}
    func stop(deadline: Double) {}
}

/// The services in the order they start: what consumes before what produces (the outputs are there before the
/// first sentence, the inputs open last, systemd hears READY once all are up). They stop in the reverse order (no
/// new input first, the outputs flushed last), and each turn of the loop services them in that reverse order too, so
/// that a sentence read from an input is written to the outputs within the same turn.
struct ServiceGroup {
    private(set) var services: [any Service] = []

    mutating func append(_ service: (any Service)?) {
        if let service { services.append(service) }
    }

    func start(at now: Double) {
        for service in services { service.start(at: now) }
    }

    /// The descriptors of every service, and the earliest time one is due.
    func prepare(now: Double, into fds: inout [pollfd]) -> Double {
        var wake = Double.infinity
        for service in services.reversed() {
            service.pollDescriptors(now: now, into: &fds)
            if let due = service.nextDue(now: now) { wake = min(wake, due) }
        }
        return wake
    }

    func service(now: Double, polled fds: [pollfd]) {
        for service in services.reversed() { service.service(now: now, polled: fds) }
    }

    func stop(deadline: Double) {
        for service in services.reversed() { service.stop(deadline: deadline) }
    }
}
