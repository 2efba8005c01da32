// The autopilot desk's commands on the Pi's own build (Embedded Swift, -Osize, qemu-user): a command's delivery, its
// words and its answer, a tack's countdown and its delivery, wind mode's angle. Swift 6.3 miscompiled the desk's
// deliveries there (the words read back as garbage and the gateway trapped on the first command to a pilot, #49):
// this program replays it. Built by `Tests/Pi/build.sh ARCH OUT Tests/Pi/EmbeddedDesk`, run by Tests/Pi/qemu-check.sh;
// prints `ok`/`FAIL` a line and exits 1 on a failure.
import Bridge
import Engine
import Marine
import N2K

@_extern(c, "write") func write(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int
@_extern(c, "exit") func exit(_ status: Int32)

var failures = 0

func say(_ text: String) {
    let bytes = Array(text.utf8) + [10]
    bytes.withUnsafeBytes { _ = write(1, $0.baseAddress!, $0.count) }
}

func expect(_ ok: Bool, _ what: String) {
    say((ok ? "  ok   " : "  FAIL ") + what)
    if !ok { failures += 1 }
}

/// A Raymarine pilot at 204 in `mode` (65379), holding `heading` radians magnetic (65360).
func heard(mode: Int = 64, heading: Double = 1.0, at time: Double = 0) -> AutopilotDesk.Heard {
    var watch = PilotWatch()
    let raymarine: [UInt8] = [0x3B, 0x9F]
    func message(_ pgn: UInt32, _ payload: [UInt8]) -> N2KMessage {
        N2KMessage(pgn: pgn, priority: 2, source: 204, payload: N2KPayload(payload))
    }
    let raw = Int((heading / 0.0001).rounded())
    let u16 = [UInt8(raw & 0xFF), UInt8(raw >> 8)]
    _ = watch.received(message(65379, raymarine + [UInt8(mode & 0xFF), UInt8(mode >> 8), 0, 0, 2, 0xFF]), at: time)
    _ = watch.received(message(65360, raymarine + [7] + u16 + u16 + [0xFF]), at: time)
    return AutopilotDesk.Heard(bus: watch)
}

func delivery(_ reply: AutopilotDesk.Reply) -> AutopilotDesk.Delivery? {
    if case .deliver(let delivery) = reply { return delivery }
    return nil
}

@main struct EmbeddedDesk {
    static func main() {
        var desk = AutopilotDesk(settings: .init())
        let pilot = heard(mode: 0)
        let (engage, _) = desk.command("raymarine-204", .engage, pilot, values: nil, at: 1)
        let sent = delivery(engage)
        expect(
            sent?.words == "engage" && sent?.device == "raymarine-204" && sent?.messages != .bus([]),
            "engage: a delivery to raymarine-204, its words \"engage\", its messages for the bus")
        if let sent {
            let (status, text, _) = desk.delivered(sent, sent: true, at: 1)
            expect(status == 200 && text == "sent to raymarine-204: engage", "delivered: 200, \"\(text)\"")
        }
        let (adjust, _) = desk.command("raymarine-204", .adjust(-12 * Double.pi / 180), heard(), values: nil, at: 2)
        expect(delivery(adjust)?.words == "adjust -12.0°", "adjust −12°: \"\(delivery(adjust)?.words ?? "none")\"")
        var values = InstrumentValues()
        values.trueWind = RelativeWind(angle: 45, speed: 7)
        values.trueWindDirection = 45
        values.headingTrue = 0
        values.speedThroughWater = 3
        let (tack, said) = desk.command(
            "raymarine-204", .tack(toPort: false), heard(heading: 0), values: values, at: 10)
        expect(
            tack == .answer(200, "tacking to starboard in 5 s (any command to the pilot before then calls it off)")
                && said.contains(.say("tacking to starboard in 5 seconds")),
            "a tack: answered and said before it is sent")
        let due = desk.second(heard(heading: 0, at: 15), values: values, at: 15).compactMap { action in
            if case .deliver(let delivery) = action { delivery } else { nil }
        }
        expect(due.count == 1 && due.first?.words == "tacking to starboard", "the countdown over: the tack delivered")
        if let turn = due.first {
            let (status, _, after) = desk.delivered(turn, sent: false, at: 15)
            expect(status == 503 && after.contains(.say("tacking to starboard: not sent")), "not sent: said so")
        }
        say("embedded-desk: \(failures == 0 ? "all passed" : "\(failures) failed")")
        exit(failures == 0 ? 0 : 1)
    }
}
