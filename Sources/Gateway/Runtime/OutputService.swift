import Engine
import NMEA
import Platform

/// Every output, as one service: sentences queued on the router's say-so, clients accepted and written to when
/// `poll` says they can take more (each one that comes or goes emitted for the router), flushed for up to a second
/// when the gateway stops.
final class OutputService: Service {
    let name = "outputs"
    private(set) var outputs: [Output] = []
    /// One sentence's bytes on their way to an output (reused: nothing allocated per sentence).
    private var wire: [UInt8] = []

    func add(_ output: Output) { outputs.append(output) }

    /// Clients already waiting are accepted before the first sentence goes out.
    func start(_ turn: inout Turn) { service(&turn) }

    func send(_ sentence: Sentence, to index: Int, computed: Bool, now: Double) {
        wire.removeAll(keepingCapacity: true)
        sentence.appendWire(to: &wire)
        wire.withUnsafeBytes { outputs[index].send($0, computed: computed, now: now) }
    }

    func pollDescriptors(now: Double, into set: inout PollSet) {
        for output in outputs { output.transport.pollDescriptors(into: &set) }
    }

    func service(_ turn: inout Turn) {
        for (index, output) in outputs.enumerated() {
            output.transport.service(now: turn.now) { change in turn.emit(.client(output: index, change)) }
        }
    }

    /// Writes what is queued for at most until `deadline`, then closes every output, last opened first. Clients that
    /// come or go meanwhile are no news to anyone.
    func stop(deadline: Double) {
        var set = PollSet()
        while POSIX.monotonic() < deadline && outputs.contains(where: { $0.transport.hasPending }) {
            set.removeAll()
            pollDescriptors(now: 0, into: &set)
            set.wait(seconds: 0.05)
            for output in outputs { output.transport.service(now: POSIX.monotonic()) { _ in } }
        }
        for output in outputs.reversed() { output.transport.close() }
    }

    /// The port each listening output listens on (useful when configured as 0).
    var listeningPorts: [String: Int] {
        var ports: [String: Int] = [:]
        for output in outputs { if let port = output.transport.listeningPort { ports[output.name] = port } }
        return ports
    }

    var clientCount: Int { outputs.reduce(0) { $0 + $1.transport.clientCount } }
}
