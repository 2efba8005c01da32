import CPosix
import Platform

/// One output's transport, whatever it is: a TCP server, UDP datagrams, a serial port, standard output.
///
/// The loop hands bytes to it and services it through this alone; ``Output`` adds what every output has (its
/// configuration, its count). A new transport is one type conforming to this and one line in ``Transports``.
protocol OutputTransport: AnyObject {
    /// One whole sentence; `computed` tells a serial line which sentences to thin last.
    func send(_ bytes: UnsafeRawBufferPointer, computed: Bool, now: Double)
    func pollDescriptors(into set: inout PollSet)
    /// Accepts, writes what is queued, drops the dead; says each client that came or went.
    func service(now: Double, _ clients: (ClientChange) -> Void)
    /// Whether bytes are still queued (flushed for up to a second on stopping).
    var hasPending: Bool { get }
    var clientCount: Int { get }
    /// Its own counts for the summary (", 2 clients, 0 dropped for slow clients"), empty when it has none.
    var counts: String { get }
    /// The port it listens on, for an output that listens (useful when configured as 0).
    var listeningPort: Int? { get }
    /// Client counts, for an output that serves clients.
    var clientStatistics: TCPServer.Statistics? { get }
    /// Whether clients connect to it (then nothing is prepared for it while none is connected).
    var servesClients: Bool { get }
    /// Closes what it holds open (its clients, its listener, its device), when the gateway stops.
    func close()
}

/// A client of an output that serves clients, come or gone.
enum ClientChange {
    case connected
    case gone
}

extension OutputTransport {
    func pollDescriptors(into set: inout PollSet) {}
    func service(now: Double, _ clients: (ClientChange) -> Void) {}
    var hasPending: Bool { false }
    var clientCount: Int { 0 }
    var counts: String { "" }
    var listeningPort: Int? { nil }
    var clientStatistics: TCPServer.Statistics? { nil }
    var servesClients: Bool { false }
    func close() {}
}

/// Standard output: `telltale run --output stdout:` and replays to a pipe.
final class StandardOutput: OutputTransport {
    func send(_ bytes: UnsafeRawBufferPointer, computed: Bool, now: Double) { POSIX.writeAll(1, bytes) }
}
