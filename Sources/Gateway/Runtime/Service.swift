import Platform

/// A long-running part of the gateway (the inputs, the engine's tick, the outputs, the Signal K server, the voice,
/// the recorder, the weather, the uplink, the systemd notifier), in swift-service-lifecycle's shape without the
/// package, which the Pi build cannot have: started in order, given its turn of the one `poll` loop, stopped in
/// reverse order on SIGTERM. A service holds no closure into the runtime: what it has to say it emits into the turn
/// (``Turn/emit(_:)``), and the runtime's dispatcher routes it.
protocol Service: AnyObject {
    var name: String { get }
    /// Starts, at the loop's start (`turn.now`); may already emit.
    func start(_ turn: inout Turn)
    /// Adds the descriptors the loop should wait on this turn.
    func pollDescriptors(now: Double, into set: inout PollSet)
    /// When it must be serviced next whether or not a descriptor is ready; nil when only its descriptors matter.
    func nextDue(now: Double) -> Double?
    /// Its turn after `poll`: `turn.polled` is the set just polled.
    func service(_ turn: inout Turn)
    /// Finishes what it holds (flushing until `deadline` at most) and closes.
    func stop(deadline: Double)
}

extension Service {
    func start(_ turn: inout Turn) {}
    func pollDescriptors(now: Double, into set: inout PollSet) {}
    func nextDue(now: Double) -> Double? { nil }
    func service(_ turn: inout Turn) {}
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

    /// The descriptors of every service, and the earliest time one is due.
    func prepare(now: Double, into set: inout PollSet) -> Double {
        var wake = Double.infinity
        for service in services.reversed() {
            service.pollDescriptors(now: now, into: &set)
            if let due = service.nextDue(now: now) { wake = min(wake, due) }
        }
        return wake
    }

    func stop(deadline: Double) {
        for service in services.reversed() { service.stop(deadline: deadline) }
    }
}
