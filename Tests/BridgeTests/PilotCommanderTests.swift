import N2K
import TestSupport
import Testing

@testable import Bridge

/// What Telltale sends each pilot (#41), byte for byte against the layouts in canboat's database (and the bytes a p70
/// and Simnet's controllers send), and what a pilot cannot take refused with nothing sent. The frames these make are
/// read by PyPI's `nmea2000` in `Tests/Interop/autopilot-check.sh`.
@Suite struct PilotCommanderTests {
    static func pilot(_ kind: PilotWatch.Kind, mode: String? = "compass", target: Double? = 1.0) -> PilotWatch.Pilot {
        var pilot = PilotWatch.Pilot(address: 204, kind: kind, lastHeard: 0)
        pilot.state = "auto"
        pilot.mode = mode
        pilot.target = target
        pilot.targetIsMagnetic = true
        return pilot
    }

    static func hex(_ text: String) -> [UInt8] {
        text.split(separator: " ").map { UInt8($0, radix: 16) ?? 0 }
    }

    func sent(_ order: PilotCommander.Order, _ pilot: PilotWatch.Pilot) -> [N2KOutbound.Outgoing] {
        if case .success(let messages) = PilotCommander.messages(order, for: pilot) { return messages }
        return []
    }

    @Test("Raymarine: modes through 126208 into 65379, addressed to the pilot, as a p70 sends them")
    func raymarineModes() {
        let pilot = Self.pilot(.raymarine)
        for (mode, low, high) in [
            ("compass", "40", "00"), ("wind", "00", "01"), ("route", "80", "01"), ("gps", "81", "01"),
        ] {
            let messages = sent(.engage(mode: mode), pilot)
            #expect(messages.count == 1 && messages.first?.pgn == 126208 && messages.first?.destination == 204)
            #expect(
                messages.first?.payload.bytes
                    == Self.hex("01 63 FF 00 F8 04 01 3B 07 03 04 04 \(low) \(high) 05 FF FF"), "\(mode)")
        }
        #expect(
            sent(.standby, pilot).first?.payload.bytes == Self.hex("01 63 FF 00 F8 04 01 3B 07 03 04 04 00 00 05 FF FF")
        )
        #expect(
            sent(.heading(1.0), pilot).first?.payload.bytes == Self.hex("01 50 FF 00 F8 03 01 3B 07 03 04 06 10 27"),
            "the locked heading, magnetic, 1.0 rad = 10000")
        // A heading past 2π or below 0 goes as its direction.
        #expect(sent(.heading(-1.0), pilot).first?.payload.bytes.suffix(2) == [0x60, 0xCE], "2π − 1 rad = 52832")
        if case .failure = PilotCommander.messages(.engage(mode: "banana"), for: pilot) {} else { Issue.record() }
        if case .failure = PilotCommander.messages(.windAngle(0.5), for: pilot) {
        } else {
            Issue.record("a wind angle to a pilot on the compass")
        }
        let wind = Self.pilot(.raymarine, mode: "wind")
        #expect(
            sent(.windAngle(-0.5), wind).first?.payload.bytes
                == Self.hex("01 41 FF 00 F8 03 01 3B 07 03 04 04 E8 E1"), "2π − 0.5 rad = 57832")
    }

    @Test("Raymarine: a turn is the p70's keys, tens then ones, broadcast; whole degrees, at most 90")
    func raymarineKeys() {
        let pilot = Self.pilot(.raymarine, target: nil)
        let keys = sent(.turn(-12 * Double.pi / 180), pilot)
        #expect(keys.map(\.pgn) == [126720, 126720, 126720] && keys.allSatisfy { $0.destination == 255 })
        #expect(keys.map { $0.payload[6] } == [6, 5, 5] && keys.map { $0.payload[7] } == [0xF9, 0xFA, 0xFA])
        #expect(keys.first?.payload.bytes.prefix(6) == [0x3B, 0x9F, 0xF0, 0x81, 0x86, 0x21])
        #expect(keys.first?.payload.count == 22)
        #expect(sent(.turn(21 * Double.pi / 180), pilot).map { $0.payload[6] } == [8, 8, 7])
        if case .failure = PilotCommander.messages(.turn(0.001), for: pilot) {} else { Issue.record() }
        if case .failure = PilotCommander.messages(.turn(1.7), for: pilot) {} else { Issue.record() }
    }

    @Test("Simnet: its AP events and changes of course in 130850, the pilot's address in the payload")
    func simnet() {
        let pilot = Self.pilot(.simrad)
        #expect(sent(.standby, pilot).first?.payload.bytes == Self.hex("41 9F CC FF 01 0A 06 FF FF FF FF FF"))
        for (mode, event) in [("compass", 9), ("route", 10), ("gps", 12), ("wind", 15)] as [(String, UInt8)] {
            #expect(sent(.engage(mode: mode), pilot).first?.payload[6] == event, "\(mode)")
        }
        #expect(sent(.turn(-0.1), pilot).first?.payload.bytes == Self.hex("41 9F CC FF 01 0A 1A FF 02 E8 03 FF"))
        // A heading is a change of course from the one held: 1.0 to 1.2 rad is 0.2 to starboard.
        #expect(sent(.heading(1.2), pilot).first?.payload.bytes.suffix(4) == [0x03, 0xD0, 0x07, 0xFF])
        #expect(sent(.heading(1.2), pilot).first?.pgn == 130850)
        if case .failure = PilotCommander.messages(.heading(1.2), for: Self.pilot(.simrad, target: nil)) {
        } else {
            Issue.record("a heading with the one held unknown")
        }
    }

    @Test("a standard pilot: 126208 into 127237's steering mode and heading to steer; no wind mode")
    func standard() {
        let pilot = Self.pilot(.nmea2000)
        #expect(sent(.standby, pilot).first?.payload.bytes == Self.hex("01 05 F1 01 F8 01 05 00"))
        #expect(sent(.engage(mode: "route"), pilot).first?.payload.bytes == Self.hex("01 05 F1 01 F8 01 05 05"))
        #expect(sent(.turn(0.5), pilot).first?.payload.bytes == Self.hex("01 05 F1 01 F8 02 07 01 0B 98 3A"))
        if case .failure = PilotCommander.messages(.engage(mode: "wind"), for: pilot) {} else { Issue.record() }
        if case .failure = PilotCommander.messages(.turn(0.1), for: Self.pilot(.nmea2000, target: nil)) {
        } else {
            Issue.record()
        }
    }

    @Test("a B&G/Simrad pilot heard by its own 65305 (susteranna's NAC): standby, then its modes")
    func simnetWatch() {
        var watch = PilotWatch()
        func report(_ bytes: [UInt8]) -> N2KMessage {
            N2KMessage(pgn: 65305, priority: 7, source: 16, payload: N2KPayload([0x41, 0x9F] + bytes))
        }
        _ = watch.received(report([0x64, 0x02, 0x02, 0, 0, 0]), at: 0)
        #expect(watch.pilots[16]?.kind == .simrad && watch.pilots[16]?.state == "standby")
        _ = watch.received(report([0x64, 0x02, 0x10, 0, 0, 0]), at: 1)
        _ = watch.received(report([0x64, 0x0A, 0x10, 0x00, 0, 0]), at: 1)
        #expect(watch.pilots[16]?.state == "auto" && watch.pilots[16]?.mode == "compass")
        _ = watch.received(report([0x64, 0x0A, 0x00, 0x04, 0, 0]), at: 2)
        #expect(watch.pilots[16]?.mode == "wind")
        // A display's 65305 (model 1, "other device") is not a pilot.
        _ = watch.received(
            N2KMessage(
                pgn: 65305, priority: 7, source: 27, payload: N2KPayload([0x41, 0x9F, 0x01, 0x17, 0x9C, 0, 0, 0])),
            at: 3)
        #expect(watch.pilots[27] == nil)
        #expect(watch.listed.first?.id == "simrad-16")
    }
}
