import Bridge
import Engine
import N2K
import NMEA
import Platform
import Router

/// The NMEA 2000 bus as a service of the loop: the transport's frames into the pure ``N2KBus``, and what it decides
/// carried out (frames written, the bus's sentences emitted for the router, words logged, the claimed address kept).
/// The runtime's dispatcher hands it the engine's reports and the 0183 sentences the router passes to the bus.
///
/// The node's NAME has a unique number made once and kept, with the address last claimed, in the state folder
/// (`n2k-node`): the same NAME and address at every start, as the standard asks of a device.
final class N2KService: Service {
    let name = "n2k"
    let configuration: N2KConfiguration
    let transport: any BusTransport
    private(set) var bus: N2KBus

    /// The autopilots heard on the bus.
    var pilots: PilotWatch { bus.pilots }

    /// The router's output for what is converted onto the bus: the inputs' sentences the conversions read, never the
    /// bus's own (even a source of it first heard an hour in); nil when the node only listens or converts nothing.
    var outboundPolicy: OutputPolicy? {
        guard !bus.listenOnly, !configuration.convert.isEmpty else { return nil }
        var policy = OutputPolicy(name: configuration.name)
        policy.computed = false
        policy.filter = AddressFilter(include: bus.outbound.patterns, exclude: [])
        policy.excludedInputs = [configuration.name]
        return policy
    }
    private let log: Log
    private let nodeFile: String?
    private var keptAddress: UInt8?
    /// The NAME's unique number, kept (never read from the bus's state while the bus is at work).
    private let uniqueNumber: UInt32
    private var nextTick = 0.0
    /// Frames the transport could not take.
    private(set) var unsent = 0
    private(set) var framesIn = 0
    /// Frames the bus's rules refused (not extended, no data), and messages made of them.
    private var messagesIn = 0

    /// The bus's PGNs Telltale sends and reads, for 126464.
    static let transmits: [UInt32] = [
        59392, 59904, 60928, 126464, 126993, 126996, 126998, 127250, 127251, 127245, 127257, 128259, 128267, 128275,
        129025, 129026, 129029, 126992, 129283, 129284, 129285, 129038, 129039, 129041, 129794, 129809, 129810,
        130306, 130312, 130313, 130314,
    ]
    static let receives: [UInt32] = [
        59392, 59904, 60928, 126992, 126996, 127245, 127250, 127251, 127257, 127258, 128259, 128267, 128275, 129025,
        129026, 129029, 129038, 129039, 129040, 129041, 129283, 129284, 129285, 129794, 129809, 129810, 130306,
        130310, 130311, 130312, 130313, 130314, 130316,
    ]

    init(configuration: N2KConfiguration, stateFolder: String?, log: Log) {
        self.configuration = configuration
        self.log = log
        transport = BusTransports.make(configuration, log: log)
        nodeFile = stateFolder.map { $0 + "/n2k-node" }
        let (unique, address) = Self.node(nodeFile, log: log)
        keptAddress = address
        uniqueNumber = unique
        var settings = N2KBus.Settings(node: Self.nodeSettings(unique: unique, configuration, address: address))
        settings.outbound.send = configuration.send
        settings.outbound.convert = configuration.convert
        settings.outbound.hold = configuration.hold
        settings.outbound.merge = configuration.merge
        settings.listenOnly = configuration.listenOnly
        bus = N2KBus(settings: settings)
    }

    /// Telltale's NAME and product: an NMEA 0183 gateway (class 25, function 135) of the experimental manufacturer code
    /// 2046 (Telltale has no NMEA-assigned code), its unique number the one kept.
    static func nodeSettings(unique: UInt32, _ configuration: N2KConfiguration, address: UInt8?) -> N2KNode.Settings {
        N2KNode.Settings(
            name: DeviceName(
                uniqueNumber: unique, manufacturer: 2046, deviceInstance: configuration.deviceInstance, function: 135,
                deviceClass: 25),
            preferredAddress: address ?? configuration.address,
            product: ProductInformation(
                productCode: 1787, model: "Telltale gateway", software: TelltaleVersion.string,
                modelVersion: "Raspberry Pi", serial: String(unique)),
            configuration: ConfigurationInformation(
                installation1: configuration.name, installation2: "", manufacturer: "Telltale, an open gateway"),
            transmits: transmits, receives: receives)
    }

    /// The unique number and address kept, or a new number made (and kept) when there are none.
    static func node(_ path: String?, log: Log) -> (UInt32, UInt8?) {
        var unique: UInt32?
        var address: UInt8?
        if let path, let bytes = try? POSIX.readFile(path, limit: 4096) {
            for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
                let parts = line.split(separator: "=").map { $0.trimmingSpaces }
                guard parts.count == 2, let value = UInt32(parts[1]) else { continue }
                if parts[0] == "unique" && value <= 0x1F_FFFF { unique = value }
                if parts[0] == "address" && value < 252 { address = UInt8(value) }
            }
        }
        if let unique { return (unique, address) }
        let random = (try? POSIX.randomBytes(3)) ?? [0x54, 0x54, 0x01]
        let made = (UInt32(random[0]) | UInt32(random[1]) << 8 | UInt32(random[2]) << 16) & 0x1F_FFFF
        if let path {
            do throws(POSIX.Failure) {
                try POSIX.writeFileAtomically(path, "unique = \(made)\n")
            } catch {
                log.warning("n2k.node", "n2k: \(error); the NAME is not kept: it changes at the next start")
            }
        }
        return (made, nil)
    }

    private func keep(_ address: UInt8) {
        guard address != keptAddress, let nodeFile else { return }
        keptAddress = address
        do throws(POSIX.Failure) {
            try POSIX.writeFileAtomically(nodeFile, "unique = \(uniqueNumber)\naddress = \(address)\n")
        } catch {
            log.warning("n2k.node", "n2k: \(error); the claimed address is not kept")
        }
    }

    // MARK: Service

    func start(_ turn: inout Turn) {
        let now = turn.now
        transport.start(at: now)
        log.info(
            "n2k.start",
            "n2k: on \(transport.description) as \(bus.node.settings.name.hex)"
                + (bus.listenOnly ? ", listening only" : ", address \(bus.node.settings.preferredAddress) first"))
        nextTick = turn.now + 0.05
    }

    func pollDescriptors(now: Double, into set: inout PollSet) { transport.prepare(now: now, into: &set) }

    func nextDue(now: Double) -> Double? {
        let tick = bus.listenOnly ? now + 0.5 : nextTick
        guard let due = transport.nextDue(now: now) else { return tick }
        return min(due, tick)
    }

    var finished: Bool { transport.finished }

    func service(_ turn: inout Turn) {
        let now = turn.now
        let polled = turn.polled
        transport.service(now: now, polled: polled) { reading in
            switch reading {
            case .frame(let frame):
                framesIn += 1
                bus.received(frame, at: now) { action in carryOut(action, now: now) { turn.emit($0) } }
            case .message(let message):
                bus.received(message, at: now) { action in carryOut(action, now: now) { turn.emit($0) } }
            case .problem(let level, let id, let text):
                log(LogEvent(level, id, text, [("bus", transport.description)]))
            case .opened:
                // A claim sent while the bus was closed went nowhere: claimed again, as at power-up.
                bus.start(at: now) { action in carryOut(action, now: now) { turn.emit($0) } }
            }
        }
        if now >= nextTick {
            nextTick = now + 0.05
            bus.tick(at: now) { action in carryOut(action, now: now) { turn.emit($0) } }
        }
    }

    func stop(deadline: Double) { transport.close() }

    // MARK: From the dispatcher

    /// The engine's report of a tick; `fromBus` says which of the values it uses came from this bus.
    func report(_ report: EngineReport, fromBus: N2KOutbound.BusSources, now: Double) {
        bus.report(report, bus: fromBus, at: now) { carryOut($0, now: now) { _ in } }
    }

    /// Messages for a pilot, written now (#41); the frames written, or nil when the bus cannot take them (listening
    /// only, no address held yet, or the transport refusing a frame).
    func command(_ messages: [N2KOutbound.Outgoing], now: Double) -> Int? {
        var frames = 0
        var refused = false
        let sent = bus.command(messages) { action in
            if case .frame(let frame) = action {
                frames += 1
                if !transport.send(frame, now: now) {
                    unsent += 1
                    refused = true
                }
            } else {
                carryOut(action, now: now) { _ in }
            }
        }
        return sent && !refused ? frames : nil
    }

    /// An 0183 sentence the router passes to the bus.
    func passed(_ sentence: Sentence, now: Double) {
        bus.passed(sentence, at: now) { carryOut($0, now: now) { _ in } }
    }

    private func carryOut(_ action: N2KBus.Action, now: Double, _ emit: (ServiceEvent) -> Void) {
        switch action {
        case .frame(let frame):
            if !transport.send(frame, now: now) { unsent += 1 }
        case .sentence(let sentence, let address, let name):
            emit(.bus(sentence, device: device(address, name)))
        case .say(let level, let id, let text):
            let mapped: LogEvent.Level =
                switch level {
                case .info: .info
                case .notice: .notice
                case .warning: .warning
                case .error: .error
                }
            log(LogEvent(mapped, id, text, [("bus", transport.description)]))
        case .keepAddress(let address):
            keep(address)
        }
    }

    /// The source name of a device: `<name>:<NAME>` once its NAME is known, `<name>:@<address>` before.
    func device(_ address: UInt8, _ name: DeviceName?) -> String {
        configuration.name + ":" + (name?.hex ?? "@\(address)")
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
