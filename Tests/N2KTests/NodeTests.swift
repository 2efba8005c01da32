import Testing

@testable import N2K

/// Telltale as a node: the address claim as ISO 11783-5 has it (defended by NAME, moved on losing, silent with no
/// address left), the requests it answers and refuses, the heartbeat, devices known by NAME.
@Suite struct NodeTests {
    static let ours = DeviceName(uniqueNumber: 0x0_BEEF, manufacturer: 2046, function: 130, deviceClass: 25)

    static func node(preferred: UInt8 = 42) -> N2KNode {
        N2KNode(
            settings: N2KNode.Settings(
                name: ours, preferredAddress: preferred,
                product: ProductInformation(
                    productCode: 1, model: "Telltale", software: "0.9.0", modelVersion: "Pi", serial: "7"),
                configuration: ConfigurationInformation(
                    installation1: "Arrow", installation2: "", manufacturer: "Telltale"),
                transmits: [130306, 127257], receives: [130306, 127250]))
    }

    static func sent(_ actions: [N2KNode.Action]) -> [N2KMessage] {
        actions.compactMap { if case .send(let message) = $0 { message } else { nil } }
    }

    static func claim(_ name: DeviceName, from address: UInt8) -> N2KMessage {
        N2KMessage(pgn: 60928, priority: 6, source: address, payload: name.payload)
    }

    static func request(_ pgn: UInt32, from source: UInt8, to destination: UInt8) -> N2KMessage {
        N2KMessage(
            pgn: 59904, priority: 6, source: source, destination: destination, payload: ISORequest.payload(asking: pgn))
    }

    @Test("it claims its address, holds it after 250 ms, keeps it, and sends only then")
    func claims() {
        var node = Self.node()
        let start = Self.sent(node.start(at: 0))
        #expect(start.count == 1 && start[0].pgn == 60928 && start[0].source == 42 && start[0].destination == 255)
        #expect(DeviceName(start[0].payload) == Self.ours)
        #expect(!node.canSend && node.outgoing(pgn: 130306, priority: 2, payload: N2KPayload()) == nil)
        #expect(node.tick(at: 0.2).isEmpty, "no claim holds before 250 ms")
        let held = node.tick(at: 0.26)
        #expect(held.contains(.keepAddress(42)) && node.address == 42)
        #expect(node.outgoing(pgn: 130306, priority: 2, payload: N2KPayload())?.source == 42)
        #expect(node.unsent == 1)
    }

    @Test("a higher NAME claiming our address is answered with our claim; a lower one takes it and we move on")
    func contests() {
        var node = Self.node()
        _ = node.start(at: 0)
        _ = node.tick(at: 0.3)
        let higher = DeviceName(raw: Self.ours.raw + 1)
        let defended = node.received(Self.claim(higher, from: 42), at: 1)
        #expect(Self.sent(defended).map(\.source) == [42] && node.address == 42)
        // Someone holds 43 already.
        _ = node.received(Self.claim(DeviceName(raw: 99), from: 43), at: 1.5)
        let lower = DeviceName(raw: Self.ours.raw - 1)
        let moved = node.received(Self.claim(lower, from: 42), at: 2)
        let claim = Self.sent(moved)
        #expect(claim.count == 1 && claim[0].pgn == 60928 && claim[0].source == 44, "43 is taken: 44")
        #expect(node.address == nil, "claiming: nothing else sent for 250 ms")
        _ = node.tick(at: 2.3)
        #expect(node.address == 44 && node.contests == 2)
        #expect(node.devices[42]?.name == lower, "the winner is known by its NAME")
    }

    @Test("every address held by a lower NAME: a claim from the null address, and silence")
    func noAddressLeft() {
        var node = Self.node(preferred: 0)
        _ = node.start(at: 0)
        var time = 0.0
        var lastClaims: [N2KMessage] = []
        for address in 0..<252 {
            time += 0.01
            lastClaims = Self.sent(
                node.received(Self.claim(DeviceName(raw: UInt64(address)), from: UInt8(address)), at: time))
            if case .cannotClaim = node.state { break }
        }
        #expect(node.state == .cannotClaim)
        #expect(lastClaims.last?.source == 254)
        #expect(node.outgoing(pgn: 130306, priority: 2, payload: N2KPayload()) == nil)
        // Asked for its claim, it says it has none.
        #expect(Self.sent(node.received(Self.request(60928, from: 5, to: 255), at: time + 1)).first?.source == 254)
    }

    @Test(
        "requests answered: its claim, product information, configuration, PGN lists; anything else NAKed to it alone")
    func requests() throws {
        var node = Self.node()
        _ = node.start(at: 0)
        _ = node.tick(at: 0.3)
        let claim = Self.sent(node.received(Self.request(60928, from: 9, to: 255), at: 1))
        #expect(claim.count == 1 && claim[0].pgn == 60928)
        let product = Self.sent(node.received(Self.request(126996, from: 9, to: 42), at: 1))
        var reader = N2KReader(try #require(product.first).payload)
        #expect(ProductInformation(&reader).model == "Telltale")
        let configuration = Self.sent(node.received(Self.request(126998, from: 9, to: 42), at: 1))
        var configurationReader = N2KReader(try #require(configuration.first).payload)
        #expect(ConfigurationInformation(&configurationReader)?.installation1 == "Arrow")
        let lists = Self.sent(node.received(Self.request(126464, from: 9, to: 255), at: 1))
        #expect(lists.compactMap { PGNList($0.payload) }.map(\.function) == [0, 1])
        #expect(PGNList(lists[0].payload)?.pgns == [130306, 127257])
        let refused = Self.sent(node.received(Self.request(127489, from: 9, to: 42), at: 1))
        #expect(refused.count == 1 && refused[0].pgn == 59392 && refused[0].destination == 9)
        #expect(ISOAcknowledgement.read(refused[0].payload)?.control == 1)
        #expect(ISOAcknowledgement.read(refused[0].payload)?.pgn == 127489)
        #expect(Self.sent(node.received(Self.request(127489, from: 9, to: 255), at: 1)).isEmpty, "global: no NAK")
        #expect(Self.sent(node.received(Self.request(126996, from: 9, to: 77), at: 1)).isEmpty, "to another: nothing")
    }

    @Test("the heartbeat every 60 s; devices heard without a claim asked for their NAME, then their product")
    func heartbeatAndDevices() {
        var node = Self.node()
        _ = node.start(at: 0)
        _ = node.tick(at: 0.3)
        _ = node.received(N2KMessage(pgn: 130306, priority: 2, source: 17, payload: N2KPayload()), at: 1)
        let asks = Self.sent(node.tick(at: 1))
        #expect(asks.count == 1 && asks[0].pgn == 59904 && asks[0].destination == 17)
        #expect(ISORequest.requested(asks[0].payload) == 60928)
        #expect(Self.sent(node.tick(at: 2)).isEmpty, "asked once a minute at most")
        _ = node.received(Self.claim(DeviceName(raw: 12345), from: 17), at: 3)
        let product = Self.sent(node.tick(at: 3))
        #expect(product.count == 1 && ISORequest.requested(product[0].payload) == 126996)
        let beats = Self.sent(node.tick(at: 60.1))
        #expect(beats.contains { $0.pgn == 126993 })
    }
}
