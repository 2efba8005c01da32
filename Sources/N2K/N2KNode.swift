/// Telltale as a node of an NMEA 2000 network, as ISO 11783-5 and the NMEA 2000 standard ask, sans-I/O: messages
/// and the time in, messages to send and words for the log out.
///
/// - **Address claim**: on start, an ISO Address Claim (60928) with its NAME from the address it had before; no other
///   message for 250 ms. Another claim for the same address is contested by NAME: a lower NAME takes it, and this
///   node moves to the next address it has not seen in use; a higher one is answered with this node's claim again.
///   With no address left, a claim from the null address (254), no other message, and the log says so.
/// - **Requests** (59904): 60928 (its claim), 126996 (product information), 126998 (configuration information) and
///   126464 (the PGNs it sends and receives) answered; a request to this node for anything else refused with an ISO
///   NAK (59392); a request to everyone for anything else left unanswered, as the standard asks.
/// - **Heartbeat** (126993) every 60 s.
/// - **The bus's devices**, known by NAME (addresses change): each address's NAME from its claims, asked for once when
///   an address talks without having claimed (a request for 60928 to it), and its product information asked for too.
public struct N2KNode: Sendable {
    public struct Settings: Sendable {
        public var name: DeviceName
        public var preferredAddress: UInt8
        public var product: ProductInformation
        public var configuration: ConfigurationInformation
        public var transmits: [UInt32]
        public var receives: [UInt32]
        public var heartbeatInterval = 60.0

        public init(
            name: DeviceName, preferredAddress: UInt8, product: ProductInformation,
            configuration: ConfigurationInformation, transmits: [UInt32], receives: [UInt32]
        ) {
            self.name = name
            self.preferredAddress = preferredAddress
            self.product = product
            self.configuration = configuration
            self.transmits = transmits
            self.receives = receives
        }
    }

    public enum State: Equatable, Sendable {
        case off
        /// Claimed at this address, waiting 250 ms for a contest.
        case claiming(UInt8, since: Double)
        case claimed(UInt8)
        /// Every address is taken by a lower NAME: silent.
        case cannotClaim
    }

    public enum Action: Equatable, Sendable {
        case send(N2KMessage)
        case say(level: Level, id: String, text: String)
        /// The address to keep for the next start.
        case keepAddress(UInt8)
    }

    public enum Level: Sendable { case info, notice, warning, error }

    /// A device seen on the bus.
    public struct Device: Hashable, Sendable {
        public var address: UInt8
        public var name: DeviceName?
        public var product: ProductInformation?
        public var nameAskedAt: Double?
        public var productAskedAt: Double?
        public var lastHeard: Double
    }

    public static let nullAddress: UInt8 = 254
    public let settings: Settings
    public private(set) var state = State.off
    /// Devices by address (their NAME when known).
    public private(set) var devices: [UInt8: Device] = [:]
    /// Addresses a lower NAME has taken from this node, not tried again until the bus says otherwise.
    private var lost: Set<UInt8> = []
    private var nextHeartbeat = Double.infinity
    private var heartbeats = 0
    private var sequence: UInt8 = 0
    /// Requests refused, messages not sent because no address is held.
    public private(set) var unsent = 0
    public private(set) var contests = 0

    public init(settings: Settings) { self.settings = settings }

    /// The address held, once claimed (or while claiming: the claim itself goes from it).
    public var address: UInt8? {
        switch state {
        case .claimed(let address): address
        default: nil
        }
    }

    /// Whether the node may send now (claimed, and the 250 ms of a claim gone).
    public var canSend: Bool { address != nil }

    // MARK: Events

    public mutating func start(at now: Double) -> [Action] {
        var out: [Action] = []
        claim(settings.preferredAddress, at: now, &out)
        nextHeartbeat = now + settings.heartbeatInterval
        return out
    }

    /// The clock: a claim not contested for 250 ms holds, the heartbeat when due, requests for unknown devices.
    public mutating func tick(at now: Double) -> [Action] {
        var out: [Action] = []
        if case .claiming(let address, let since) = state, now - since >= 0.25 {
            state = .claimed(address)
            out.append(.keepAddress(address))
            out.append(
                .say(
                    level: .notice, id: "n2k.claimed",
                    text: "n2k: claimed address \(address) as \(settings.name.hex)"))
        }
        if let address, now >= nextHeartbeat {
            nextHeartbeat = now + settings.heartbeatInterval
            heartbeats = (heartbeats + 1) % 253
            out.append(
                .send(
                    N2KMessage(
                        pgn: Heartbeat.pgn, priority: 7, source: address,
                        payload: Heartbeat(interval: settings.heartbeatInterval, counter: heartbeats).payload)))
        }
        if let own = address {
            // Devices heard without a claim: their NAME asked for (once a minute at most), then their product.
            for (address, device) in devices where address != own && address < 252 {
                if device.name == nil, device.nameAskedAt.map({ now - $0 > 60 }) ?? true {
                    devices[address]?.nameAskedAt = now
                    out.append(.send(request(60928, from: own, to: address)))
                } else if device.name != nil, device.product == nil,
                    device.productAskedAt.map({ now - $0 > 60 }) ?? true
                {
                    devices[address]?.productAskedAt = now
                    out.append(.send(request(ProductInformation.pgn, from: own, to: address)))
                }
            }
        }
        return out
    }

    /// A whole message from the bus (none of this node's own).
    public mutating func received(_ message: N2KMessage, at now: Double) -> [Action] {
        var out: [Action] = []
        let source = message.source
        if source < 252 {
            devices[source, default: Device(address: source, lastHeard: now)].lastHeard = now
        }
        switch message.pgn {
        case 60928:
            guard let name = DeviceName(message.payload) else { return out }
            heardClaim(name, from: source, at: now, &out)
        case ISORequest.pgn:
            guard let pgn = ISORequest.requested(message.payload) else { return out }
            answer(pgn, from: source, to: message.destination, at: now, &out)
        case ProductInformation.pgn:
            var reader = N2KReader(message.payload)
            devices[source]?.product = ProductInformation(&reader)
        default:
            break
        }
        return out
    }

    /// A message of the gateway's own from this node (its source set to the address held): nil while the node holds
    /// none (claiming, or no address left), counted.
    public mutating func outgoing(pgn: UInt32, priority: UInt8, payload: N2KPayload, to destination: UInt8 = 255)
        -> N2KMessage?
    {
        guard let address else {
            unsent += 1
            return nil
        }
        return N2KMessage(pgn: pgn, priority: priority, source: address, destination: destination, payload: payload)
    }

    /// The next fast-packet sequence id (0–7).
    public mutating func nextSequence() -> UInt8 {
        defer { sequence = (sequence + 1) & 7 }
        return sequence
    }

    // MARK: Address claim

    private mutating func claim(_ address: UInt8, at now: Double, _ out: inout [Action]) {
        state = .claiming(address, since: now)
        out.append(.send(claimMessage(from: address)))
    }

    private func claimMessage(from address: UInt8) -> N2KMessage {
        N2KMessage(pgn: 60928, priority: 6, source: address, destination: 255, payload: settings.name.payload)
    }

    private mutating func heardClaim(_ name: DeviceName, from source: UInt8, at now: Double, _ out: inout [Action]) {
        if source < 252 {
            devices[source]?.name = name
            // Another device that held this NAME's address before has moved: its old place is free again.
            for (address, device) in devices where address != source && device.name == name {
                devices[address] = nil
            }
        }
        let mine: UInt8?
        switch state {
        case .claiming(let address, _), .claimed(let address): mine = address
        default: mine = nil
        }
        guard let mine, source == mine, name != settings.name else { return }
        contests += 1
        if name > settings.name {
            // Ours is the lower NAME: the address stays ours; said again.
            out.append(.send(claimMessage(from: mine)))
            out.append(
                .say(
                    level: .info, id: "n2k.defended",
                    text: "n2k: address \(mine) defended against \(name.hex), a higher NAME"))
            return
        }
        lost.insert(mine)
        devices[mine] = Device(address: mine, name: name, lastHeard: now)
        guard let next = freeAddress(after: mine) else {
            state = .cannotClaim
            out.append(.send(claimMessage(from: Self.nullAddress)))
            out.append(
                .say(
                    level: .error, id: "n2k.no-address",
                    text: "n2k: no address left on the bus (every one held by a lower NAME): nothing is sent"))
            return
        }
        out.append(
            .say(
                level: .warning, id: "n2k.moved",
                text: "n2k: address \(mine) lost to \(name.hex), a lower NAME; claiming \(next)"))
        claim(next, at: now, &out)
    }

    /// The next address after `address` (wrapping, 0 to 251) that no device holds and this node has not lost.
    private func freeAddress(after address: UInt8) -> UInt8? {
        var candidate = Int(address)
        for _ in 0..<252 {
            candidate = (candidate + 1) % 252
            let value = UInt8(candidate)
            if devices[value]?.name == nil && !lost.contains(value) { return value }
        }
        return nil
    }

    // MARK: Requests

    private func request(_ pgn: UInt32, from own: UInt8, to address: UInt8) -> N2KMessage {
        N2KMessage(
            pgn: ISORequest.pgn, priority: 6, source: own, destination: address,
            payload: ISORequest.payload(asking: pgn))
    }

    private mutating func answer(
        _ pgn: UInt32, from requester: UInt8, to destination: UInt8, at now: Double, _ out: inout [Action]
    ) {
        let toUs = address.map { destination == $0 } ?? false
        let global = destination == N2KIdentifier.global
        guard toUs || global else { return }
        if pgn == 60928 {
            // Even while claiming, and from the null address when none is held: the standard asks for a claim.
            switch state {
            case .claiming(let address, _), .claimed(let address): out.append(.send(claimMessage(from: address)))
            case .cannotClaim: out.append(.send(claimMessage(from: Self.nullAddress)))
            case .off: break
            }
            return
        }
        guard let own = address else { return }
        switch pgn {
        case ProductInformation.pgn:
            out.append(.send(N2KMessage(pgn: pgn, priority: 6, source: own, payload: settings.product.payload)))
        case ConfigurationInformation.pgn:
            out.append(.send(N2KMessage(pgn: pgn, priority: 6, source: own, payload: settings.configuration.payload)))
        case PGNList.pgn:
            out.append(
                .send(
                    N2KMessage(
                        pgn: pgn, priority: 6, source: own,
                        payload: PGNList(function: 0, pgns: settings.transmits).payload)))
            out.append(
                .send(
                    N2KMessage(
                        pgn: pgn, priority: 6, source: own,
                        payload: PGNList(function: 1, pgns: settings.receives).payload)))
        default:
            // Not supported: said to a request to this node alone.
            guard toUs else { return }
            out.append(
                .send(
                    N2KMessage(
                        pgn: ISOAcknowledgement.pgn, priority: 6, source: own, destination: requester,
                        payload: ISOAcknowledgement.negative(pgn))))
        }
    }
}
