import N2K
import TestSupport
import Testing

@testable import Bridge

/// The autopilots heard on the bus (#41): a Raymarine EV-1 with its ACU200 recorded on a real bus, and each mode a
/// Raymarine pilot and a standard 127237 pilot say, in payloads laid out by hand from canboat's field layouts.
@Suite struct PilotWatchTests {
    /// Raymarine's proprietary header: manufacturer 1851, marine industry (4), in the first two bytes.
    static let raymarine: [UInt8] = [0x3B, 0x9F]

    static func message(_ pgn: UInt32, _ source: UInt8, _ payload: [UInt8]) -> N2KMessage {
        N2KMessage(pgn: pgn, priority: 2, source: source, payload: N2KPayload(payload))
    }

    /// 65379 with `mode` (little-endian 16 bits), sub-mode 0.
    static func mode(_ mode: Int, from source: UInt8 = 204) -> N2KMessage {
        message(65379, source, raymarine + [UInt8(mode & 0xFF), UInt8(mode >> 8), 0, 0, 2, 0xFF])
    }

    static func u16(_ radians: Double) -> [UInt8] {
        let raw = Int((radians / 0.0001).rounded())
        return [UInt8(raw & 0xFF), UInt8(raw >> 8)]
    }

    @Test("Raymarine: standby, auto on the compass, wind, track and no drift, with the heading or wind angle held")
    func raymarineModes() {
        var watch = PilotWatch()
        let changed1 = watch.received(Self.mode(0), at: 0)
        #expect(changed1)
        #expect(watch.pilots[204]?.state == "standby" && watch.pilots[204]?.engaged == false)
        let changed2 = watch.received(Self.mode(0), at: 1)
        #expect(!changed2, "the same said again is no change")
        let changed3 = watch.received(Self.mode(64), at: 2)
        #expect(changed3)
        #expect(watch.pilots[204]?.state == "auto" && watch.pilots[204]?.mode == "compass")
        // 65360: true 1.5708, magnetic 1.6 rad: the magnetic one is what the pilot holds.
        let changed4 = watch.received(
            Self.message(65360, 204, Self.raymarine + [7] + Self.u16(1.5708) + Self.u16(1.6) + [0xFF]), at: 3)
        #expect(changed4)
        #expect(abs((watch.pilots[204]?.target ?? 0) - 1.6) < 1e-4 && watch.pilots[204]?.targetIsMagnetic == true)
        _ = watch.received(Self.mode(256), at: 4)
        #expect(watch.pilots[204]?.mode == "wind")
        // 65345: wind datum 5.5 rad from the bow, that is −0.783 rad: 45° to port.
        _ = watch.received(
            Self.message(65345, 204, Self.raymarine + Self.u16(5.5) + Self.u16(5.4) + [0xFF, 0xFF]), at: 5)
        #expect(abs((watch.pilots[204]?.target ?? 0) - (5.5 - 2 * Double.pi)) < 1e-4)
        _ = watch.received(Self.mode(384), at: 6)
        #expect(watch.pilots[204]?.mode == "route")
        _ = watch.received(Self.mode(385), at: 7)
        #expect(watch.pilots[204]?.mode == "gps")
        _ = watch.received(Self.mode(0), at: 8)
        #expect(watch.pilots[204]?.state == "standby" && watch.pilots[204]?.mode == "gps", "the mode it was in stays")
        #expect(watch.isOnline(204, at: 18) && !watch.isOnline(204, at: 18.5), "off-line after 10 s of silence")
        // Another maker's 65379 is not Raymarine's pilot mode.
        let changed5 = watch.received(Self.message(65379, 30, [0x41, 0x9F, 64, 0, 0, 0, 2, 0xFF]), at: 9)
        #expect(!changed5)
        #expect(watch.pilots[30] == nil)
    }

    @Test("127237: standby on main steering or follow-up, auto on heading control, route on track control")
    func standardPilot() {
        var watch = PilotWatch()
        // Steering mode in bits 8-10, heading reference (1 magnetic) in bits 14-15; heading to steer at byte 5.
        func control(_ steering: Int, heading: Double) -> N2KMessage {
            var payload: [UInt8] = Array(repeating: 0xFF, count: 21)
            payload[0] = 0
            payload[1] = UInt8(steering) | UInt8(1 << 6)
            payload[3] = 0xFF
            payload[4] = 0x7F
            let raw = Self.u16(heading)
            payload[5] = raw[0]
            payload[6] = raw[1]
            return Self.message(127237, 16, payload)
        }
        _ = watch.received(control(0, heading: 1), at: 0)
        #expect(watch.pilots[16]?.state == "standby" && watch.pilots[16]?.kind == .nmea2000)
        _ = watch.received(control(4, heading: 2), at: 1)
        #expect(watch.pilots[16]?.state == "auto" && watch.pilots[16]?.mode == "compass")
        #expect(abs((watch.pilots[16]?.target ?? 0) - 2) < 1e-4 && watch.pilots[16]?.targetIsMagnetic == true)
        _ = watch.received(control(5, heading: 2), at: 2)
        #expect(watch.pilots[16]?.mode == "route")
    }

    @Test(
        "the recorded EV-1 and ACU200 bus: Raymarine's pilot at 204 in standby, the ACU's 127237 the same pilot once its claim says Raymarine"
    )
    func recordedBus() throws {
        guard let shared = sharedFixtures() else {
            print("PilotWatchTests: ../shared/fixtures is absent: the recorded EV-1 bus is skipped")
            return
        }
        let text = try #require(readFile(shared + "/n2k/candumpSample3.txt"))
        var receiver = N2KReceiver()
        var watch = PilotWatch()
        var claims: [UInt8: Int] = [:]
        var last = 0.0
        var changes = 0
        for line in text.split(separator: UInt8(ascii: "\n")) {
            guard let parsed = N2KLogLine.parse(line) else { continue }
            var messages: [N2KMessage] = []
            switch parsed {
            case .frame(let frame, let time):
                last = time ?? last + 0.005
                receiver.feed(frame, at: last) { messages.append($0) }
            case .message(let message, let time):
                last = time ?? last
                messages.append(message)
            }
            for message in messages {
                if message.pgn == 60928, let name = DeviceName(message.payload) {
                    claims[message.source] = name.manufacturer
                }
                if watch.received(message, manufacturer: claims[message.source], at: last) { changes += 1 }
            }
        }
        #expect(watch.pilots[204]?.kind == .raymarine && watch.pilots[204]?.state == "standby")
        #expect(watch.pilots[172]?.state == "standby", "the ACU's 127237: main steering")
        // The recording holds no claim from the ACU (172): its maker unknown, it is listed after Raymarine's pilot.
        #expect(watch.listed.map(\.address) == [204, 172])
        // On a live bus the node asks every device for its claim: the ACU's says Raymarine, and it is the same pilot.
        let acu = Self.message(
            127237, 172, [0, 0, 0xF8, 0xFF, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF] + Array(repeating: 0xFF, count: 12))
        _ = watch.received(acu, manufacturer: 1851, at: last)
        #expect(watch.listed.map(\.address) == [204])
        #expect(changes == 2, "each said its state once and then repeated it")
        #expect(watch.isOnline(204, at: last))
    }
}
