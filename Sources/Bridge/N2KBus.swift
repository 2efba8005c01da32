import Engine
import N2K
import NMEA

/// Telltale on one NMEA 2000 bus, sans-I/O: the frames the bus carries, the engine's reports, the 0183 sentences
/// passed to the bus and the clock in; frames to write, 0183 sentences for the router (with the device that sent
/// them), words for the log and the address to keep out. The shell owns the socket (or the file, or the Wi-Fi
/// gateway) and carries the actions out; every rule of the bus is here and in the `N2K` module, tested without one.
///
/// - Frames become messages (``N2KReceiver``: fast packets, ISO transport), the node (``N2KNode``) answers what is
///   for it, the converter (``N2KInbound``) makes the sentences.
/// - What Telltale sends (``N2KOutbound``) goes out from the address the node holds, split into frames, and only
///   while it holds one; with `listenOnly` nothing is ever sent (a recording replayed, `telltale n2k`).
/// - The devices heard are kept by address with what each sends and how often (``Device/pgns``), for `telltale n2k`
///   and the gateway's listing; at most 64 PGNs a device.
public struct N2KBus: Sendable {
    public struct Settings: Sendable {
        public var node: N2KNode.Settings
        public var inbound = N2KInbound.Settings()
        public var outbound = N2KOutbound.Settings()
        /// Read only: no claim, no answer, nothing sent.
        public var listenOnly = false

        public init(node: N2KNode.Settings) { self.node = node }
    }

    public enum Action: Equatable, Sendable {
        case frame(CANFrame)
        /// An 0183 sentence made from a message of device `address` (its NAME when known).
        case sentence(Sentence, address: UInt8, name: DeviceName?)
        case say(level: N2KNode.Level, id: String, text: String)
        case keepAddress(UInt8)
    }

    /// What one address sends: PGN, messages, and the first and last time.
    public struct Traffic: Hashable, Sendable {
        public var pgn: UInt32
        public var count: Int
        public var first: Double
        public var last: Double

        /// Messages a second over the time heard (nil with one message).
        public var rate: Double? { last > first && count > 1 ? Double(count - 1) / (last - first) : nil }
    }

    public private(set) var receiver = N2KReceiver()
    public private(set) var node: N2KNode
    public private(set) var inbound: N2KInbound
    public private(set) var outbound: N2KOutbound
    public let listenOnly: Bool
    public private(set) var traffic: [UInt8: [Traffic]] = [:]
    var ais = AISAssembler()
    /// The autopilots heard and what each says it is doing (#41).
    public private(set) var pilots = PilotWatch()
    /// Messages from our own address with another NAME's claim not seen (a device that did not claim).
    public private(set) var messagesIn = 0
    public private(set) var framesOut = 0

    public init(settings: Settings) {
        node = N2KNode(settings: settings.node)
        inbound = N2KInbound(settings: settings.inbound)
        outbound = N2KOutbound(settings: settings.outbound)
        listenOnly = settings.listenOnly
    }

    /// The devices heard, by address, with their NAME and product when known.
    public var devices: [UInt8: N2KNode.Device] { node.devices }

    /// The address held, when one is.
    public var address: UInt8? { node.address }

    public mutating func start(at time: Double, _ act: (Action) -> Void) {
        guard !listenOnly else { return }
        carryOut(node.start(at: time), at: time, act)
    }

    /// One frame from the bus.
    public mutating func received(_ frame: CANFrame, at time: Double, _ act: (Action) -> Void) {
        var replies: [CANFrame] = []
        var messages: [N2KMessage] = []
        receiver.feed(frame, own: listenOnly ? nil : node.address, at: time, replies: &replies) { messages.append($0) }
        if !listenOnly {
            for reply in replies {
                framesOut += 1
                act(.frame(reply))
            }
        }
        for message in messages { received(message, at: time, act) }
    }

    /// One whole message (from a frame reassembled, or a recording that holds messages whole).
    public mutating func received(_ message: N2KMessage, at time: Double, _ act: (Action) -> Void) {
        messagesIn += 1
        if message.pgn == 60928, message.source < 252, let name = DeviceName(message.payload),
            let known = node.devices[message.source]?.name, known != name
        {
            // Another device at this address now: what the last one sent is not this one's.
            traffic[message.source] = nil
            inbound.forget(message.source)
            pilots.forget(message.source)
        }
        note(message, at: time)
        let actions = node.received(message, at: time)
        if !listenOnly { carryOut(actions, at: time, act) }
        guard message.source < 252 else { return }
        let name = node.devices[message.source]?.name
        pilots.received(message, manufacturer: name?.manufacturer, at: time)
        inbound.convert(message, at: time) { act(.sentence($0, address: message.source, name: name)) }
    }

    /// The clock: the node's (claim settled, heartbeat, devices asked who they are), fast packets given up, the
    /// converted values repeated or let go.
    public mutating func tick(at time: Double, _ act: (Action) -> Void) {
        receiver.expire(at: time)
        guard !listenOnly else { return }
        carryOut(node.tick(at: time), at: time, act)
        var out: [N2KOutbound.Outgoing] = []
        outbound.tick(at: time) { out.append($0) }
        send(out, act)
    }

    /// The engine's report of one tick.
    public mutating func report(
        _ report: EngineReport, bus: N2KOutbound.BusSources, at time: Double, _ act: (Action) -> Void
    ) {
        guard !listenOnly else { return }
        var out: [N2KOutbound.Outgoing] = []
        outbound.report(report, bus: bus, at: time) { out.append($0) }
        send(out, act)
    }

    /// An 0183 sentence the router passes to the bus, for the conversions.
    public mutating func passed(_ sentence: Sentence, at time: Double, _ act: (Action) -> Void) {
        guard !listenOnly else { return }
        var out: [N2KOutbound.Outgoing] = []
        if sentence.address.formatter == VDM.formatter, case .vdm(let fragment)? = try? Message(sentence) {
            if let bits = ais.add(fragment, source: 0, at: time), let report = AISReport(bits) {
                outbound.ais(report, at: time) { out.append($0) }
            }
        } else {
            outbound.sentence(sentence, at: time) { out.append($0) }
        }
        send(out, act)
    }

    /// Messages for a pilot (``PilotCommander``), sent now; false when they cannot go (listening only, or no
    /// address held yet).
    public mutating func command(_ messages: [N2KOutbound.Outgoing], _ act: (Action) -> Void) -> Bool {
        guard !listenOnly, node.address != nil else { return false }
        send(messages, act)
        return true
    }

    private mutating func send(_ messages: [N2KOutbound.Outgoing], _ act: (Action) -> Void) {
        for message in messages {
            guard
                let addressed = node.outgoing(
                    pgn: message.pgn, priority: message.priority, payload: message.payload, to: message.destination)
            else { continue }
            for frame in N2KSender.frames(addressed, sequence: node.nextSequence()) {
                framesOut += 1
                act(.frame(frame))
            }
        }
    }

    private mutating func carryOut(_ actions: [N2KNode.Action], at time: Double, _ act: (Action) -> Void) {
        for action in actions {
            switch action {
            case .send(let message):
                for frame in N2KSender.frames(message, sequence: node.nextSequence()) {
                    framesOut += 1
                    act(.frame(frame))
                }
            case .say(let level, let id, let text): act(.say(level: level, id: id, text: text))
            case .keepAddress(let address): act(.keepAddress(address))
            }
        }
    }

    /// Counts what each address sends (at most 64 PGNs an address, 253 addresses).
    private mutating func note(_ message: N2KMessage, at time: Double) {
        var list = traffic[message.source] ?? []
        if let index = list.firstIndex(where: { $0.pgn == message.pgn }) {
            list[index].count += 1
            list[index].last = time
        } else if list.count < 64 {
            list.append(Traffic(pgn: message.pgn, count: 1, first: time, last: time))
        }
        traffic[message.source] = list
    }
}
