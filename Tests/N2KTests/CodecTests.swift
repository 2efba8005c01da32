import Testing

@testable import N2K

/// The codec's parts against hand-worked frames (the identifiers and bytes of the recordings in ../shared, read by
/// hand from ISO 11783 and canboat's database) and round trips.
@Suite struct CodecTests {
    struct IdentifierCase: Sendable, CustomStringConvertible {
        var id: UInt32
        var priority: UInt8
        var pgn: UInt32
        var source: UInt8
        var destination: UInt8
        var description: String { "0x" + String(id, radix: 16) }
    }

    @Test(
        "identifiers: priority, PGN, source and destination, PDU1 addressed and PDU2 broadcast, and back",
        arguments: [
            // candump -l, a position rapid update from address 0.
            IdentifierCase(id: 0x09F8_0100, priority: 2, pgn: 129025, source: 0, destination: 255),
            // An address claim to everyone (PDU1, PF 0xEE).
            IdentifierCase(id: 0x18EE_FF01, priority: 6, pgn: 60928, source: 1, destination: 255),
            // A group function (126208) from 1 to 0x23: data page 1, PF 0xED, addressed.
            IdentifierCase(id: 0x0DED_2301, priority: 3, pgn: 126208, source: 1, destination: 0x23),
            // An ISO request to 0x23 from 1.
            IdentifierCase(id: 0x18EA_2301, priority: 6, pgn: 59904, source: 1, destination: 0x23),
            // Wind data, PDU2 with its PS in the PGN.
            IdentifierCase(id: 0x09FD_0221, priority: 2, pgn: 130306, source: 0x21, destination: 255),
        ])
    func identifiers(_ c: IdentifierCase) {
        let identifier = N2KIdentifier(c.id)
        #expect(identifier.priority == c.priority && identifier.pgn == c.pgn)
        #expect(identifier.source == c.source && identifier.destination == c.destination)
        #expect(identifier.id == c.id, "composed back: 0x\(String(identifier.id, radix: 16))")
    }

    @Test(
        "a wind message's fields: speed, angle, reference; not available and out of range are nil, the latter counted")
    func windFields() throws {
        // susteranna2020.raw: 130306 from 33, b7 3a 04 28 9e fa ff ff.
        let frame = CANFrame(
            id: N2KIdentifier(priority: 2, pgn: 130306, source: 33).id,
            bytes: [0xB7, 0x3A, 0x04, 0x28, 0x9E, 0xFA, 0xFF, 0xFF])
        let (value, outOfRange) = N2KValue.decode(N2KMessage(frame))
        guard case .wind(let wind) = value else {
            Issue.record("not wind: \(value)")
            return
        }
        #expect(wind.sid == 183 && outOfRange == 0)
        #expect(abs(try #require(wind.speed) - 10.82) < 1e-9)
        #expect(abs(try #require(wind.angle) - 4.0488) < 1e-9)
        #expect(wind.reference == .apparent)
        // Speed "not available" (0xFFFF), angle "out of range" (0xFFFE).
        let odd = CANFrame(
            id: frame.id, bytes: [0x01, 0xFF, 0xFF, 0xFE, 0xFF, 0xFA, 0xFF, 0xFF])
        let (oddValue, oddCount) = N2KValue.decode(N2KMessage(odd))
        guard case .wind(let missing) = oddValue else { return }
        #expect(missing.speed == nil && missing.angle == nil && oddCount == 1)
    }

    @Test("fields written and read back at their resolution; a value too large is 'out of range', never wrapped")
    func fieldRoundTrips() throws {
        let attitude = Attitude(sid: 9, yaw: nil, pitch: -0.0523, roll: 0.3491)
        var reader = N2KReader(attitude.payload)
        let back = Attitude(&reader)
        #expect(back.sid == 9 && back.yaw == nil)
        let pitch = try #require(back.pitch)
        let roll = try #require(back.roll)
        #expect(abs(pitch + 0.0523) < 0.00005 && abs(roll - 0.3491) < 0.00005)
        let fast = WindData(speed: 700, angle: 1, reference: .trueWater)
        var fastReader = N2KReader(fast.payload)
        let clipped = WindData(&fastReader)
        #expect(clipped.speed == nil && fastReader.outOfRange == 1, "700 m/s does not fit in 16 bits of 0.01")
        // Negative angles go out as 0 to 2π.
        var port = N2KReader(WindData(speed: 5, angle: -0.5, reference: .apparent).payload)
        #expect(abs(try #require(WindData(&port).angle) - (2 * Double.pi - 0.5)) < 0.0001)
    }

    @Test("a fast packet split into frames and put back together, out of order and between another sender's frames")
    func fastPackets() throws {
        let product = ProductInformation(
            productCode: 1234, model: "Telltale", software: "0.9.0", modelVersion: "Pi", serial: "0042")
        let message = N2KMessage(pgn: ProductInformation.pgn, priority: 6, source: 42, payload: product.payload)
        let frames = N2KSender.frames(message, sequence: 3)
        #expect(frames.count == 20, "134 bytes: 6 in the first frame, 7 in each of 19 more")
        let other = N2KSender.frames(
            N2KMessage(pgn: ProductInformation.pgn, priority: 6, source: 7, payload: product.payload), sequence: 1)
        var assembler = FastPacketAssembler()
        var whole: [N2KMessage] = []
        // Interleaved, and ours with its second and third frames swapped.
        var ours = frames
        ours.swapAt(1, 2)
        for index in 0..<frames.count {
            if let m = assembler.feed(ours[index], at: Double(index) * 0.001) { whole.append(m) }
            if let m = assembler.feed(other[index], at: Double(index) * 0.001) { whole.append(m) }
        }
        #expect(whole.count == 2 && Set(whole.map(\.source)) == [42, 7])
        var reader = N2KReader(try #require(whole.first { $0.source == 42 }).payload)
        let back = ProductInformation(&reader)
        #expect(back.model == "Telltale" && back.serial == "0042" && back.productCode == 1234)
        // A frame missing: nothing whole, given up after the timeout, counted.
        var missing = FastPacketAssembler()
        for (index, frame) in frames.enumerated() where index != 5 {
            #expect(missing.feed(frame, at: 0) == nil)
        }
        missing.expire(at: 1)
        #expect(missing.counters.abandoned == 1 && missing.underWay == 0)
    }

    @Test("a flood of first frames from one sender and many senders stays within the assembler's bound")
    func reassemblyFlood() {
        var assembler = FastPacketAssembler(capacity: 8)
        for index in 0..<10_000 {
            let source = UInt8(index % 250)
            let frame = CANFrame(
                id: N2KIdentifier(priority: 6, pgn: 126996, source: source).id,
                bytes: [UInt8(index % 8) << 5, 200, 1, 2, 3, 4, 5, 6])
            _ = assembler.feed(frame, at: Double(index) * 0.0001)
        }
        #expect(assembler.underWay <= 8)
        #expect(assembler.counters.abandoned > 9_000)
        // An impossible length, a one-byte frame, an orphan: counted, nothing whole.
        let id = N2KIdentifier(priority: 6, pgn: 126996, source: 1).id
        #expect(assembler.feed(CANFrame(id: id, bytes: [0x00, 250, 0, 0, 0, 0, 0, 0]), at: 2) == nil)
        #expect(assembler.feed(CANFrame(id: id, bytes: [0x00]), at: 2) == nil)
        #expect(assembler.feed(CANFrame(id: id, bytes: [0xE5, 1, 2, 3, 4, 5, 6, 7]), at: 2) == nil)
        #expect(assembler.counters.malformed == 2 && assembler.counters.orphans >= 1)
    }

    @Test("an ISO transport session: broadcast (BAM) put together; to this node (RTS) answered with CTS and its end")
    func isoTransport() throws {
        let bytes = (0..<20).map { UInt8($0) }
        let announce = CANFrame(
            id: N2KIdentifier(priority: 7, pgn: 60416, source: 9, destination: 255).id,
            bytes: [32, 20, 0, 3, 0xFF] + IsoTransport.pgnBytes(126464))
        var receiver = N2KReceiver()
        var got: [N2KMessage] = []
        receiver.feed(announce, at: 0) { got.append($0) }
        for packet in 0..<3 {
            let chunk = (0..<7).map { packet * 7 + $0 < 20 ? bytes[packet * 7 + $0] : 0xFF }
            receiver.feed(
                CANFrame(
                    id: N2KIdentifier(priority: 7, pgn: 60160, source: 9, destination: 255).id,
                    bytes: [UInt8(packet + 1)] + chunk), at: 0.01
            ) { got.append($0) }
        }
        #expect(got.count == 1 && got.first?.pgn == 126464 && got.first?.payload.bytes == bytes)
        // To us at 42: clear to send, then the acknowledgement once it is whole.
        var replies: [CANFrame] = []
        var direct = N2KReceiver()
        direct.feed(
            CANFrame(
                id: N2KIdentifier(priority: 7, pgn: 60416, source: 9, destination: 42).id,
                bytes: [16, 20, 0, 3, 3] + IsoTransport.pgnBytes(126996)), own: 42, at: 0, replies: &replies
        ) { _ in }
        #expect(replies.first?[0] == 17 && replies.first?.identifier.destination == 9)
        for packet in 0..<3 {
            direct.feed(
                CANFrame(
                    id: N2KIdentifier(priority: 7, pgn: 60160, source: 9, destination: 42).id,
                    bytes: [UInt8(packet + 1), 1, 2, 3, 4, 5, 6, 7]), own: 42, at: 0.01, replies: &replies
            ) { _ in }
        }
        #expect(replies.count == 2 && replies.last?[0] == 19)
    }

    @Test("a NAME's fields, and its order: the lower NAME wins an address")
    func names() {
        let name = DeviceName(
            uniqueNumber: 0x1_2345, manufacturer: 2046, deviceInstance: 3, function: 130, deviceClass: 25)
        #expect(name.uniqueNumber == 0x1_2345 && name.manufacturer == 2046 && name.deviceInstance == 3)
        #expect(
            name.function == 130 && name.deviceClass == 25 && name.industryGroup == 4 && name.arbitraryAddressCapable)
        #expect(DeviceName(name.payload) == name && name.hex.count == 16)
        #expect(DeviceName(raw: 5) < DeviceName(raw: 6))
    }

    @Test("a time of more digits than an Int64 holds is no line, not a crash (found by the fuzzer)")
    func longTimes() {
        for line in [
            "(17956834910738071234567) can0 18EEFF23#7DE7D9FF0087 32C0", "(99999999999999999999.1) can0 18EEFF23#00",
            "(1795683491.07380712345678901234) can0 18EEFF23#00",
        ] {
            #expect(N2KLogLine.parse(Array(line.utf8)) == nil, "\(line)")
        }
        #expect(N2KLogLine.parse(Array("(1795683491.073807) can0 18EEFF23#00".utf8)) != nil)
    }

    @Test("recorded lines of every form read into frames or messages; junk is nil")
    func logLines() throws {
        let candump = try #require(N2KLogLine.parse(Array("(1745600961.335462) can0 11FC1063#003DFFFF02000100".utf8)))
        guard case .frame(let frame, let time) = candump else { throw Failure() }
        #expect(frame.identifier.pgn == 130_064 && frame.count == 8 && frame[1] == 0x3D)
        #expect(abs((time ?? 0) - 1_745_600_961.335462) < 1e-6)
        let old = try #require(N2KLogLine.parse(Array("<0x18eeff01> [8] 05 a0 be 1c 00 a0 a0 c0 ".utf8)))
        guard case .frame(let claim, nil) = old else { throw Failure() }
        #expect(claim.identifier.pgn == 60928 && claim[7] == 0xC0)
        let plain = try #require(
            N2KLogLine.parse(Array("2020-08-22T13:52:36.950Z,2,130306,33,255,8,b7,3a,04,28,9e,fa,ff,ff".utf8)))
        guard case .frame(let wind, let windTime) = plain else { throw Failure() }
        #expect(wind.identifier.source == 33 && abs((windTime ?? 0) - 1_598_104_356.95) < 1e-6)
        let fast = try #require(
            N2KLogLine.parse(Array("2016-02-28T19:57:02.364Z,6,126996,7,255,9,01,02,03,04,05,06,07,08,09".utf8)))
        guard case .message(let message, _) = fast else { throw Failure() }
        #expect(message.payload.count == 9 && message.payload[8] == 9)
        let yd = try #require(N2KLogLine.parse(Array("17:33:21.107 R 19F51323 01 2F 30 70 00 2F 30 70".utf8)))
        guard case .frame(let ydFrame, let ydTime) = yd else { throw Failure() }
        #expect(ydFrame.identifier.pgn == 128_275 && abs((ydTime ?? 0) - 63_201.107) < 1e-6)
        for junk in [
            "", "# comment", "interface = can0, family = 29", "(123) can0 XYZ#00", "2016,2,1,2,3,9,00",
            "<0x18eeff01> [9] 00", "17:33:21.107 X 19F51323 01",
        ] {
            #expect(N2KLogLine.parse(Array(junk.utf8)) == nil, "\(junk)")
        }
    }

    struct Failure: Error {}
}
