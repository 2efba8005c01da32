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
    private var fd: Int32 = -1
    private var connecting = false
    private var backoff = Backoff(first: 0.5, limit: 10)
    private var slot = PollSlot()
    private var line: [UInt8] = []
    private var outgoing: [UInt8] = []
    private var buffer = [UInt8](repeating: 0, count: 4096)

    /// `host` nil: found by mDNS.
    init(host: String?, port: Int, log: Log) {
        self.host = host
        self.port = port
        self.discovers = host == nil
        self.log = log
    }

    var description: String { host.map { "pypilot \($0):\(port)" } ?? "pypilot (looked for by mDNS)" }
    var isConnected: Bool { fd >= 0 && !connecting }

    func nextDue(now: Double) -> Double? {
        guard fd < 0 else { return nil }
        return host == nil ? browser.due : backoff.retryAt
    }

    func pollDescriptors(now: Double, into set: inout PollSet) {
        if host == nil {
            slot.clear()
            ask(now)
            guard query >= 0 else { return querySlot.clear() }
            return querySlot.register(query, read: true, into: &set)
        }
        querySlot.clear()
        if fd < 0 && backoff.isDue(now) { open(now) }
        guard fd >= 0 else { return slot.clear() }
        slot.register(fd, read: !connecting, write: connecting || !outgoing.isEmpty, into: &set)
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
                backoff = Backoff(first: 0.5, limit: 10)
                POSIX.close(query)
                query = -1
                querySlot.clear()
                log.notice("pypilot.mdns", "pypilot: found \(found.name) at \(address):\(found.port) by mDNS")
            case .end, .wouldBlock: return
            case .failed: return
            }
        }
    }

    private func open(_ now: Double) {
        guard let target = host else { return }
        guard let address = POSIX.SocketAddress(host: target, port: port) else {
            if backoff.failed(at: now) {
                log.error("pypilot.address", "pypilot: \(target) is not a numeric IP address")
            }
            return
        }
        do {
            fd = try POSIX.socket(.stream, for: address, naming: description)
            connecting = !(try POSIX.connect(fd, to: address, naming: description))
            if !connecting { connected() }
        } catch {
            if fd >= 0 { POSIX.close(fd) }
            fd = -1
            if backoff.failed(at: now) { log.warning("pypilot.open", "pypilot: \(error)") }
            failures += 1
            if discovers && failures >= 3 {
                host = nil
                failures = 0
                browser.forget(at: now)
            }
        }
    }

    private func connected() {
        connecting = false
        failures = 0
        let again = backoff.succeeded()
        link.reset()
        outgoing = Array(PypilotLink.watch.utf8)
        let text = "pypilot: \(host ?? ""):\(port) connected"
        if again { log.notice("pypilot.open", text) } else { log.info("pypilot.open", text) }
    }

    private func lost(_ now: Double, _ reason: String) {
        if fd >= 0 { POSIX.close(fd) }
        fd = -1
        connecting = false
        line.removeAll()
        outgoing.removeAll()
        link.reset()
        backoff.failed(at: now)
        failures += 1
        if discovers && failures >= 3 {
            log.warning("pypilot.down", "pypilot: \(host ?? ""):\(port): \(reason); looking for it again by mDNS")
            host = nil
            failures = 0
            browser.forget(at: now)
            return
        }
        log.warning("pypilot.down", "pypilot: \(host ?? ""):\(port): \(reason); reconnecting")
    }

    func service(_ turn: inout Turn) {
        let now = turn.now
        if query >= 0 { answers(now) }
        guard fd >= 0 else { return }
        if connecting {
            let error = POSIX.socketError(fd)
            guard error == 0 else { return lost(now, "cannot connect: \(POSIX.message(error))") }
            var probe = PollSet(capacity: 1)
            probe.add(fd, read: false, write: true)
            guard probe.anyReady() else { return }
            connected()
        }
        flush(now)
        guard fd >= 0 else { return }
        var total = 0
        while total < 65_536 {
            switch buffer.withUnsafeMutableBytes({ POSIX.receive(fd, into: $0) }) {
            case .bytes(let got):
                total += got
                for byte in buffer[0..<got] {
                    if byte == 10 {
                        link.received(String(decoding: line, as: UTF8.self), at: now)
                        line.removeAll(keepingCapacity: true)
                    } else if line.count < PypilotLink.longestLine {
                        line.append(byte)
                    }
                }
            case .end: return lost(now, "connection closed")
            case .wouldBlock: return
            case .failed(let code): return lost(now, POSIX.message(code))
            }
        }
    }

    /// Lines for pypilot, written at once; false when it is not connected (nothing is kept to send later: a command
    /// is sent now or refused).
    func send(_ lines: [String], now: Double) -> Bool {
        guard isConnected, outgoing.count < 16_384 else { return false }
        for text in lines { outgoing += Array(text.utf8) }
        flush(now)
        return fd >= 0
    }

    private func flush(_ now: Double) {
        guard !outgoing.isEmpty, fd >= 0, !connecting else { return }
        switch outgoing.withUnsafeBytes({ POSIX.send(fd, $0) }) {
        case .bytes(let sent): outgoing.removeFirst(sent)
        case .wouldBlock, .end: break
        case .failed(let code): lost(now, POSIX.message(code))
        }
    }

    func stop(deadline: Double) {
        if fd >= 0 { POSIX.close(fd) }
        fd = -1
        if query >= 0 { POSIX.close(query) }
        query = -1
    }
}
