/// The engine's fixed rate, as a service: due at each tick, on a schedule that keeps its phase after a late turn
/// (and does not burst after a stall), how late each tick ran kept as a histogram; a tick a quarter of a second late
/// or more is said in the log (what the benchmarks read from the journal: the loop's pace seen from inside). It emits
/// ``ServiceEvent/tick``; the runtime ticks the router.
final class EngineService: Service {
    let name = "engine"
    private let interval: Double
    private var nextTick = 0.0
    private(set) var lateness = TickLateness()
    private let log: Log?
    static let stall = 0.25

    init(rate: Double, log: Log? = nil) {
        interval = 1 / rate
        self.log = log
    }

    func start(_ turn: inout Turn) { nextTick = turn.now }

    func nextDue(now: Double) -> Double? { nextTick }

    func service(_ turn: inout Turn) {
        let now = turn.now
        guard now >= nextTick else { return }
        lateness.record(now - nextTick)
        if now - nextTick >= Self.stall, let log {
            let late = TickLateness.milliseconds(now - nextTick)
            log.info("engine.late", "engine: a tick ran \(late) ms late", [("late_ms", late)])
        }
        turn.emit(.tick)
        nextTick += interval
        // After a stall, keep the phase rather than burst.
        if nextTick < now { nextTick = now + interval }
    }
}
