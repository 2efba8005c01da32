/// The engine's fixed rate, as a service: due at each tick, on a schedule that keeps its phase after a late turn
/// (and does not burst after a stall), how late each tick ran kept as a histogram. It emits ``ServiceEvent/tick``;
/// the runtime ticks the router.
final class EngineService: Service {
    let name = "engine"
    private let interval: Double
    private var nextTick = 0.0
    private(set) var lateness = TickLateness()

    init(rate: Double) {
        interval = 1 / rate
    }

    func start(_ turn: inout Turn) { nextTick = turn.now }

    func nextDue(now: Double) -> Double? { nextTick }

    func service(_ turn: inout Turn) {
        let now = turn.now
        guard now >= nextTick else { return }
        lateness.record(now - nextTick)
        turn.emit(.tick)
        nextTick += interval
        // After a stall, keep the phase rather than burst.
        if nextTick < now { nextTick = now + interval }
    }
}
