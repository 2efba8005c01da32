import CPosix
import Marine
import NMEA
import Platform

/// A network input: a TCP connection to a server (a multiplexer, a plotter's NMEA port), reconnected with backoff
/// when it fails or closes; or a UDP port listened on. The socket is a ``TCPClient``'s; its bytes go through the
/// input's framer.
final class NetworkInput: InputTransport {
    enum Kind {
        case tcpClient(host: String, port: Int)
        case udpListener(host: String, port: Int)
    }

    let name: String
    let kind: Kind
    private(set) var framer: SentenceFramer
    private let client: TCPClient
    private let log: Log

    init(name: String, kind: Kind, framing: FramerConfiguration, log: Log) {
        self.name = name
        self.kind = kind
        framer = SentenceFramer(configuration: framing)
        self.log = log
        client =
            switch kind {
            case .tcpClient(let host, let port): TCPClient(host: host, port: port, backoff: Backoff())
            case .udpListener(let host, let port): TCPClient(host: host, port: port, stream: false, backoff: Backoff())
            }
    }

    var isConnected: Bool { client.isOpen }

    func nextDue(now: Double) -> Double? { client.nextDue(now: now) }

    func prepare(now: Double, into set: inout PollSet) { client.prepare(now: now, into: &set) }

    var counts: String {
        ", \(framer.statistics.rejects.total) rejected, \(max(0, client.link.connects - 1)) reconnects"
    }

    var bytesReceived: Int? { framer.statistics.bytes }

    func close() { client.close() }

    /// Reads what has arrived and hands every framed sentence on.
    func service(now: Double, polled set: PollSet, _ body: (InputEvent) -> Void) {
        client.service(now: now) { event in
            switch event {
            case .bytes(let bytes):
                framer.feed(bytes) { body(InputEvent($0)) }
            case .datagramEnd:
                // A datagram ends its sentences.
                framer.finish { body(InputEvent($0)) }
            case .line:
                break
            case .connected:
                guard client.stream else { return }
                log.notice(
                    "input.connected", "input \(name): connected to \(client.url)",
                    [("input", name), ("connects", "\(client.link.connects)")])
            case .failed(let why, let code, let first):
                // Said once for a run of failures (the server may not be up yet).
                guard first else { return }
                log.warning(
                    code == 0 ? "input.bad-address" : "input.open-failed", "input \(name): \(why); retrying",
                    [("input", name), ("url", client.url), ("errno", "\(code)")])
            case .lost(let reason):
                // A sentence cut by the disconnect is judged (and rejected, counted) rather than joined to the next
                // connection.
                framer.finish { body(InputEvent($0)) }
                log.warning("input.lost", "input \(name): \(reason); reconnecting", [("input", name)])
            }
        }
    }
}
