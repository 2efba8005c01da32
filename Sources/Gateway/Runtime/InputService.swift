import Engine
import Platform

/// Every input, as one service: each opened or reopened when due, its descriptors polled, its events emitted as they
/// are read (``ServiceEvent/input(_:from:)``), for the runtime to hand to the router.
final class InputService: Service {
    struct Input {
        let transport: any InputTransport
        let source: SourceID
        let name: String
    }

    let name = "inputs"
    private(set) var inputs: [Input] = []
    /// Where this turn's descriptors of the inputs are in the polled set (the turn's budget polls them again, without
    /// waiting, when another service asks whether a sentence is waiting).
    private(set) var polledRange = 0..<0
    /// The earliest an input is due this turn (a log's next sentence, a sample, a reconnect).
    private(set) var nextInputDue = Double.infinity

    func add(_ transport: any InputTransport, source: SourceID, name: String) {
        inputs.append(Input(transport: transport, source: source, name: name))
    }

    func start(_ turn: inout Turn) {
        for input in inputs { input.transport.start(at: turn.now) }
    }

    func pollDescriptors(now: Double, into set: inout PollSet) {
        let first = set.count
        nextInputDue = .infinity
        for input in inputs {
            input.transport.prepare(now: now, into: &set)
            if let due = input.transport.nextDue(now: now) { nextInputDue = min(nextInputDue, due) }
        }
        polledRange = first..<set.count
    }

    func nextDue(now: Double) -> Double? { nextInputDue.isFinite ? nextInputDue : nil }

    func service(_ turn: inout Turn) {
        for input in inputs {
            input.transport.service(now: turn.now, polled: turn.polled) { event in
                turn.emit(.input(event, from: input))
            }
        }
    }

    /// Whether every finite input (a log played once) has played to its end; false when there is none.
    var finished: Bool {
        let finite = inputs.compactMap { $0.transport.finished }
        return !finite.isEmpty && finite.allSatisfy { $0 }
    }

    func stop(deadline: Double) {
        for input in inputs.reversed() { input.transport.close() }
    }
}
