import CPosix
import Engine
import Platform

/// Every input, as one service: each opened or reopened when due, its descriptors polled, its events handed to the
/// runtime (and from there to the router) as they are read.
final class InputService: Service {
    struct Input {
        let transport: any InputTransport
        let source: SourceID
        let name: String
    }

    let name = "inputs"
    private(set) var inputs: [Input] = []
    /// This turn's descriptors of the inputs, polled again (without waiting) when another service asks whether a
    /// sentence is waiting.
    private var descriptors: [pollfd] = []
    /// The earliest an input is due this turn (a log's next sentence, a sample, a reconnect).
    private(set) var nextInputDue = Double.infinity
    private let handle: (InputEvent, Input, Double) -> Void

    /// `handle` takes each event, the input it came from, and the monotonic time it was read.
    init(handle: @escaping (InputEvent, Input, Double) -> Void) {
        self.handle = handle
    }

    func add(_ transport: any InputTransport, source: SourceID, name: String) {
        inputs.append(Input(transport: transport, source: source, name: name))
    }

    func start(at now: Double) {
        for input in inputs { input.transport.start(at: now) }
    }

    func pollDescriptors(now: Double, into fds: inout [pollfd]) {
        let first = fds.count
        nextInputDue = .infinity
        for input in inputs {
            input.transport.prepare(now: now, into: &fds)
            if let due = input.transport.nextDue(now: now) { nextInputDue = min(nextInputDue, due) }
        }
        descriptors.removeAll(keepingCapacity: true)
        descriptors.append(contentsOf: fds[first...])
    }

    func nextDue(now: Double) -> Double? { nextInputDue.isFinite ? nextInputDue : nil }

    func service(now: Double, polled fds: [pollfd]) {
        for input in inputs {
            input.transport.service(now: now, polled: fds) { event in handle(event, input, now) }
        }
    }

    /// Whether an input has bytes waiting (this turn's descriptors polled again, without waiting).
    func isWaiting() -> Bool {
        guard !descriptors.isEmpty else { return false }
        return POSIX.poll(&descriptors, milliseconds: 0) > 0
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
