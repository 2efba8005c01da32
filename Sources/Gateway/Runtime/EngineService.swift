import CPosix

/// The engine's fixed rate, as a service: due at each tick, on a schedule that keeps its phase after a late turn
/// (and does not burst after a stall), how late each tick ran kept as a histogram.
final class EngineService: Service {
    let name = "engine"
    private let interval: Double
    private var nextTick = 0.0
    private(set) var lateness = TickLateness()
    /// Ticks the engine at a monotonic time (through the runtime, into the router).
    private let tick: (Double) -> Void

    init(rate: Double, tick: @escaping (Double) -> Void) {
        interval = 1 / rate
        self.tick = tick
    }

    func start(at now: Double) { nextTick = now }

    func nextDue(now: Double) -> Double? { nextTick }

    func service(now: Double, polled fds: [pollfd]) {
        guard now >= nextTick else { return }
        lateness.record(now - nextTick)
        tick(now)
        nextTick += interval
        // After a stall, keep the phase rather than burst.
        if nextTick < now { nextTick = now + interval }
    }
}
