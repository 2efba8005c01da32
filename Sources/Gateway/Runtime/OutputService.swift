import CPosix
import Engine
import NMEA
import Platform

/// Every output, as one service: sentences queued on the router's say-so, clients accepted and written to when
/// `poll` says they can take more, flushed for up to a second when the gateway stops.
final class OutputService: Service {
    let name = "outputs"
    private(set) var outputs: [Output] = []
    /// One sentence's bytes on their way to an output (reused: nothing allocated per sentence).
    private var wire: [UInt8] = []
    /// Clients coming and going, for the router (through the runtime).
    private let clients: (Int, ClientChange, Double) -> Void

    init(clients: @escaping (Int, ClientChange, Double) -> Void) {
        self.clients = clients
    }

    func add(_ output: Output) { outputs.append(output) }

    /// Clients already waiting are accepted before the first sentence goes out.
    func start(at now: Double) { service(now: now, polled: []) }

    func send(_ sentence: Sentence, to index: Int, computed: Bool, now: Double) {
        wire.removeAll(keepingCapacity: true)
        sentence.appendWire(to: &wire)
        wire.withUnsafeBytes { outputs[index].send($0, computed: computed, now: now) }
    }

    func pollDescriptors(now: Double, into fds: inout [pollfd]) {
        for output in outputs { output.transport.pollDescriptors(into: &fds) }
    }

    func service(now: Double, polled fds: [pollfd]) {
        for (index, output) in outputs.enumerated() {
            output.transport.service(now: now) { change in clients(index, change, now) }
        }
    }

    /// Writes what is queued for at most until `deadline`, then closes every output, last opened first.
    func stop(deadline: Double) {
        var fds: [pollfd] = []
        while POSIX.monotonic() < deadline && outputs.contains(where: { $0.transport.hasPending }) {
            fds.removeAll(keepingCapacity: true)
            pollDescriptors(now: 0, into: &fds)
            _ = POSIX.poll(&fds, milliseconds: 50)
            service(now: POSIX.monotonic(), polled: fds)
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
