import Bridge
import CPosix
import Marine
import Platform

/// A pypilot autopilot over TCP (`[autopilot] pypilot = "192.168.4.20:23322"`), on the one poll loop (#41): connected
/// with backoff (0.5 s doubling to 10 s), its values watched (``PypilotLink``), orders written as lines. What it says is
/// read by the runtime each second (``Runtime/keepAutopilots(at:)``); it emits nothing.
///
/// With `pypilot = "mdns"` its address is found as pypilot publishes it (`_pypilot._tcp`, ``ServiceBrowser``): a
/// question multicast out of each interface with a network of its own from a UDP socket on the same loop, asked again
/// (1 s doubling to 30 s) until an answer names an address; looked for again after three connections in a row fail
/// (the pilot came back with another address from the access point's DHCP).
final class PypilotService: Service {
    let name = "pypilot"
    private(set) var host: String?
    private(set) var port: Int
    let discovers: Bool
    let log: Log
    private(set) var browser = ServiceBrowser(service: "_pypilot._tcp.local")
    private var query: Int32 = -1
    private var querySlot = PollSlot()
    private var failures = 0
    private(set) var link = PypilotLink()
    /// The TCP connection, once pypilot's address is known (``TCPClient``, in lines).
    private var client: TCPClient?
    private var buffer = [UInt8](repeating: 0, count: 4096)

    /// `host` nil: found by mDNS.
    init(host: String?, port: Int, log: Log) {
        self.host = host
        self.port = port
        self.discovers = host == nil
        self.log = log
        if let host { client = Self.client(host, port) }
    }

    static func client(_ host: String, _ port: Int) -> TCPClient {
        TCPClient(
            host: host, port: port, backoff: Backoff(first: 0.5, limit: 10), lineLimit: PypilotLink.longestLine)
    }

    var description: String { host.map { "pypilot \($0):\(port)" } ?? "pypilot (looked for by mDNS)" }
    var isConnected: Bool { client?.isOpen ?? false }

    func nextDue(now: Double) -> Double? {
        guard host != nil, let client else { return browser.due }
        return client.nextDue(now: now)
    }

    func pollDescriptors(now: Double, into set: inout PollSet) {
        guard host != nil, let client else {
            ask(now)
            guard query >= 0 else { return querySlot.clear() }
            return querySlot.register(query, read: true, into: &set)
        }
        querySlot.clear()
        client.prepare(now: now, into: &set)
    }

    /// The mDNS question, when due, out of every interface with a network (the socket made the first time).
    private func ask(_ now: Double) {
        guard let packet = browser.query(at: now) else { return }
        guard let group = POSIX.SocketAddress(host: ServiceDiscovery.group, port: ServiceDiscovery.port) else { return }
        if query < 0 {
            do {
                let any = POSIX.SocketAddress(host: "0.0.0.0", port: 0)!
                query = try POSIX.socket(.datagram, for: any, naming: "mdns")
                try POSIX.bind(query, to: any, listen: false, naming: "mdns")
            } catch {
                if query >= 0 { POSIX.close(query) }
                query = -1
                log.warning("pypilot.mdns", "pypilot: cannot look for it by mDNS: \(error)")
                return
            }
        }
        let interfaces = POSIX.multicastInterfaces()
        var sent = 0
        for index in interfaces {
            let result = packet.withUnsafeBytes { POSIX.send(query, $0, to: group, interface: index) }
            if case .bytes = result { sent += 1 }
        }
        if sent == 0 {
            let text = "pypilot: no network to look for it on by mDNS (\(interfaces.count) interfaces)"
            log.warning("pypilot.mdns", text)
        }
    }

    /// Answers to the question; the first that names an address is where pypilot is.
    private func answers(_ now: Double) {
        var total = 0
        while query >= 0, total < 64 {
            switch buffer.withUnsafeMutableBytes({ POSIX.receive(query, into: $0) }) {
            case .bytes(let got):
                total += 1
                guard browser.received(Array(buffer[0..<got])), let found = browser.found,
                    let address = found.addresses.first
                else { continue }
                host = address
                port = found.port
                failures = 0
                if let client {
                    client.move(host: address, port: found.port, backoff: Backoff(first: 0.5, limit: 10))
                } else {
                    client = Self.client(address, found.port)
                }
                POSIX.close(query)
                query = -1
                querySlot.clear()
                log.notice("pypilot.mdns", "pypilot: found \(found.name) at \(address):\(found.port) by mDNS")
            case .end, .wouldBlock: return
            case .failed: return
            }
        }
    }

    /// Three failures in a row of a pilot found by mDNS: looked for again (it may have come back elsewhere).
    private func failedAgain(_ now: Double) -> Bool {
        failures += 1
        guard discovers && failures >= 3 else { return false }
        host = nil
        failures = 0
        client?.close()
        browser.forget(at: now)
        return true
    }

    func service(_ turn: inout Turn) {
        let now = turn.now
        if query >= 0 { answers(now) }
        client?.service(now: now) { handle($0, now: now) }
    }

    /// What its connection said.
    private func handle(_ event: TCPClient.Event, now: Double) {
        switch event {
        case .line(let line): link.received(String(decoding: line, as: UTF8.self), at: now)
        case .bytes, .datagramEnd: break
        case .connected(let again):
            failures = 0
            link.reset()
            _ = client?.send(Array(PypilotLink.watch.utf8), now: now)
            let text = "pypilot: \(host ?? ""):\(port) connected"
            if again { log.notice("pypilot.open", text) } else { log.info("pypilot.open", text) }
        case .failed(let why, let code, let first):
            if failedAgain(now) {
                log.warning("pypilot.down", "pypilot: \(why); looking for it again by mDNS")
            } else if first {
                log.warning(code == 0 ? "pypilot.address" : "pypilot.open", "pypilot: \(why)")
            }
        case .lost(let reason):
            link.reset()
            let text = "pypilot: \(host ?? ""):\(port): \(reason)"
            if failedAgain(now) {
                log.warning("pypilot.down", text + "; looking for it again by mDNS")
            } else {
                log.warning("pypilot.down", text + "; reconnecting")
            }
        }
    }

    /// Lines for pypilot, written at once; false when it is not connected (nothing is kept to send later: a command
    /// is sent now or refused).
    func send(_ lines: [String], now: Double) -> Bool {
        guard let client, client.isOpen else { return false }
        var bytes: [UInt8] = []
        for text in lines { bytes += Array(text.utf8) }
        guard client.send(bytes, now: now) else { return false }
        client.flush(now) { handle($0, now: now) }
        return client.isOpen
    }

    func stop(deadline: Double) {
        client?.close()
        if query >= 0 { POSIX.close(query) }
        query = -1
    }
}
