import Marine
import N2K
import Testing

@testable import Bridge
@testable import Engine

/// The autopilot's policy (#41, #49), with no bus and no clock: a Raymarine EV-1 heard as its own PGNs say, pypilot as
/// its lines say, an NMEA 0183 pilot on an output, the engine's values as a tick leaves them; every rule
/// docs/nmea2000.md states, one test each.
@Suite struct AutopilotDeskTests {
    static let raymarine: [UInt8] = [0x3B, 0x9F]

    /// A Raymarine pilot at 204 saying its mode (65379) at `time`, and the magnetic heading it holds (65360).
    static func heard(mode: Int = 64, heading: Double = 1.0, at time: Double = 0, on watch: inout PilotWatch) {
        func message(_ pgn: UInt32, _ payload: [UInt8]) -> N2KMessage {
            N2KMessage(pgn: pgn, priority: 2, source: 204, payload: N2KPayload(payload))
        }
        let raw = Int((heading / 0.0001).rounded())
        let u16 = [UInt8(raw & 0xFF), UInt8(raw >> 8)]
        _ = watch.received(message(65379, raymarine + [UInt8(mode & 0xFF), UInt8(mode >> 8), 0, 0, 2, 0xFF]), at: time)
        _ = watch.received(message(65360, raymarine + [7] + u16 + u16 + [0xFF]), at: time)
    }

    static func bus(mode: Int = 64, heading: Double = 1.0, at time: Double = 0) -> AutopilotDesk.Heard {
        var watch = PilotWatch()
        heard(mode: mode, heading: heading, at: time, on: &watch)
        return AutopilotDesk.Heard(bus: watch)
    }

    /// The engine on starboard tack, close-hauled: true wind 45° starboard from 045, heading 000, a polar's beat of
    /// 42° and run of 150°.
    static func values(twa: Double = 45, twd: Double = 45, heading: Double = 0, leg: Bool = false) -> InstrumentValues {
        var values = InstrumentValues()
        values.trueWind = RelativeWind(angle: twa, speed: 7)
        values.trueWindDirection = twd
        values.headingTrue = heading
        values.speedThroughWater = 3
        values.performance = Performance(
            polarSpeed: 3, polarRatio: 1, beat: .init(angle: 42, speed: 3, windwardSpeed: 2.2),
            run: .init(angle: 150, speed: 3.5, windwardSpeed: -3), upwind: abs(twa) < 90)
        if leg {
            values.navigationLeg = NavigationLeg(
                origin: Waypoint(id: "start", position: GeoPoint(latitude: 50.7, longitude: -1.3)),
                destination: Waypoint(id: "mark", position: GeoPoint(latitude: 50.8, longitude: -1.3)))
        }
        return values
    }

    func said(_ actions: [AutopilotDesk.Action]) -> [String] {
        actions.compactMap { if case .say(let text) = $0 { text } else { nil } }
    }

    func deliveries(_ actions: [AutopilotDesk.Action]) -> [AutopilotDesk.Delivery] {
        actions.compactMap { if case .deliver(let delivery) = $0 { delivery } else { nil } }
    }

    @Test("a tack: onto the polar's beat angle on the other side, said aloud 5 s before it is sent, sent once")
    func tackCountdown() throws {
        var desk = AutopilotDesk(settings: .init())
        let heard = Self.bus(heading: 0.0)
        let (reply, actions) = desk.command("raymarine-204", .tack(toPort: false), heard, values: Self.values(), at: 10)
        #expect(
            reply == .answer(200, "tacking to starboard in 5 s (any command to the pilot before then calls it off)"))
        #expect(said(actions) == ["tacking to starboard in 5 seconds"])
        #expect(
            deliveries(desk.second(heard, values: Self.values(), at: 14.9)).isEmpty, "not before the countdown ends")
        let due = deliveries(desk.second(Self.bus(heading: 0, at: 15), values: Self.values(), at: 15))
        let delivery = try #require(due.first)
        #expect(due.count == 1 && delivery.device == "raymarine-204" && delivery.words == "tacking to starboard")
        // The heading held (0 rad, magnetic) plus the change: from 000 onto 42° on port tack, wind from 045: 087.
        let expected = PilotCommander.messages(
            .heading(87 * Double.pi / 180), for: try #require(heard.bus.pilot(named: "raymarine-204")))
        #expect(delivery.messages == .bus(try expected.get()))
        #expect(deliveries(desk.second(heard, values: Self.values(), at: 16)).isEmpty, "sent once")
        // The bus took it: logged; had it not, said.
        let (status, _, after) = desk.delivered(delivery, sent: false, at: 15)
        #expect(status == 503 && said(after) == ["tacking to starboard: not sent"])
    }

    @Test("a tack the wrong way, or with the pilot in standby, is refused with why and nothing is sent")
    func tackRefused() {
        var desk = AutopilotDesk(settings: .init())
        var (reply, _) = desk.command("raymarine-204", .tack(toPort: true), Self.bus(), values: Self.values(), at: 0)
        #expect(reply == .answer(409, "the wind is on the starboard side: a tack turns to starboard"))
        (reply, _) = desk.command(
            "raymarine-204", .tack(toPort: false), Self.bus(mode: 0), values: Self.values(), at: 0)
        #expect(reply == .answer(409, "the pilot is in standby: engage it before a tack"))
        (reply, _) = desk.command("raymarine-204", .gybe(toPort: false), Self.bus(), values: nil, at: 0)
        #expect(reply == .answer(409, "the engine has no values yet"))
    }

    @Test("any other command to the pilot in the countdown calls the tack off, said; the tack is never sent")
    func calledOff() throws {
        var desk = AutopilotDesk(settings: .init())
        let heard = Self.bus()
        _ = desk.command("raymarine-204", .tack(toPort: false), heard, values: Self.values(), at: 0)
        let (reply, actions) = desk.command("raymarine-204", .disengage, heard, values: Self.values(), at: 2)
        #expect(said(actions) == ["tacking to starboard called off"])
        guard case .deliver(let standby) = reply else {
            Issue.record("standby not sent")
            return
        }
        let expected = PilotCommander.messages(.standby, for: try #require(heard.bus.pilot(named: "raymarine-204")))
        #expect(standby.messages == .bus(try expected.get()))
        #expect(deliveries(desk.second(heard, values: Self.values(), at: 6)).isEmpty)
    }

    @Test("a tack to a pilot gone off-line in its countdown is not sent, and that is said")
    func tackToSilence() {
        var desk = AutopilotDesk(settings: .init())
        _ = desk.command("raymarine-204", .tack(toPort: false), Self.bus(), values: Self.values(), at: 0)
        // Heard last at 0: off-line from 10 s.
        let actions = desk.second(Self.bus(), values: Self.values(), at: 11)
        #expect(
            deliveries(actions).isEmpty && said(actions) == ["tacking to starboard: the pilot is not heard, not sent"])
    }

    @Test("a dodge: from the target held when it began, offset each time from that, and back to it")
    func dodge() {
        var desk = AutopilotDesk(settings: .init())
        let heard = Self.bus(heading: 1.0)
        var (reply, _) = desk.command("raymarine-204", .dodgeEnter, heard, values: nil, at: 0)
        guard case .deliver(let enter) = reply, enter.messages == .bus([]) else {
            Issue.record("\(reply)")
            return
        }
        // The pilot now holds 1.2 rad; a second offset is still from where the dodge began.
        let moved = Self.bus(heading: 1.2)
        _ = desk.command("raymarine-204", .dodge(offset: 0.2), moved, values: nil, at: 1)
        (reply, _) = desk.command("raymarine-204", .dodge(offset: -0.3), moved, values: nil, at: 2)
        let pilot = moved.bus.pilot(named: "raymarine-204")!
        guard case .deliver(let second) = reply else {
            Issue.record("\(reply)")
            return
        }
        #expect(second.messages == .bus(try! PilotCommander.messages(.heading(0.7), for: pilot).get()))
        (reply, _) = desk.command("raymarine-204", .dodgeLeave, moved, values: nil, at: 3)
        guard case .deliver(let back) = reply else {
            Issue.record("\(reply)")
            return
        }
        #expect(back.messages == .bus(try! PilotCommander.messages(.heading(1.0), for: pilot).get()))
        (reply, _) = desk.command("raymarine-204", .dodgeLeave, moved, values: nil, at: 4)
        #expect(reply == .answer(409, "no dodge under way"))
        // A dodge offset with no dodge begun starts one from the target held then.
        var fresh = AutopilotDesk(settings: .init())
        _ = fresh.command("raymarine-204", .dodge(offset: 0.2), heard, values: nil, at: 5)
        (reply, _) = fresh.command("raymarine-204", .dodge(offset: 0.1), moved, values: nil, at: 6)
        guard case .deliver(let again) = reply else {
            Issue.record("\(reply)")
            return
        }
        #expect(again.messages == .bus(try! PilotCommander.messages(.heading(1.1), for: pilot).get()))
    }

    @Test("the default pilot: a maker's before one known by 127237 alone, then the crew's choice while it is there")
    func defaultPilot() {
        var desk = AutopilotDesk(settings: .init(sentencePilots: ["helm"]))
        var watch = PilotWatch()
        Self.heard(on: &watch)
        // A standard pilot at 16: 127237 with steering mode 4 (heading control).
        var control = [UInt8](repeating: 0xFF, count: 21)
        control[0] = 0x00
        control[1] = 0x04
        _ = watch.received(N2KMessage(pgn: 127237, priority: 2, source: 16, payload: N2KPayload(control)), at: 0)
        let heard = AutopilotDesk.Heard(bus: watch)
        let ids = desk.statuses(heard, at: 1).map(\.id)
        #expect(ids == ["raymarine-204", "nmea2000-16", "nmea0183-helm"])
        let (reply, actions) = desk.command("nmea2000-16", .makeDefault, heard, values: nil, at: 1)
        #expect(reply == .answer(200, "nmea2000-16 is the default pilot"))
        #expect(actions.contains(.listed(desk.listed)) && desk.listed.first?.id == "nmea2000-16")
        let values = desk.second(heard, values: nil, at: 2)
        #expect(values.contains { if case .defaultPilot(let s) = $0 { s.id == "nmea2000-16" } else { false } })
    }

    @Test("a pilot not heard for 10 s is off-line: said once when it goes and once when it comes back; refused")
    func offline() {
        var desk = AutopilotDesk(settings: .init())
        func logs(_ actions: [AutopilotDesk.Action]) -> [String] {
            actions.compactMap { if case .log(let notice) = $0 { notice.id } else { nil } }
        }
        #expect(logs(desk.second(Self.bus(at: 0), values: nil, at: 1)) == ["autopilot.heard"])
        #expect(logs(desk.second(Self.bus(at: 0), values: nil, at: 11)) == ["autopilot.offline"])
        #expect(logs(desk.second(Self.bus(at: 0), values: nil, at: 12)).isEmpty, "said once")
        let (reply, _) = desk.command("raymarine-204", .engage, Self.bus(at: 0), values: nil, at: 12)
        #expect(reply == .answer(409, "raymarine-204 is off-line (not heard for 10 s): nothing sent"))
        #expect(logs(desk.second(Self.bus(at: 13), values: nil, at: 13)) == ["autopilot.heard"])
        let (unknown, _) = desk.command("raymarine-99", .engage, Self.bus(at: 13), values: nil, at: 13)
        #expect(unknown == .answer(404, "no such autopilot heard"))
    }

    @Test("the alarm watches the pilot last seen steering, with a standby the crew asked for in the last 5 s")
    func watched() throws {
        var desk = AutopilotDesk(settings: .init())
        func watch(_ actions: [AutopilotDesk.Action]) -> PilotReport? {
            for case .watch(let report) in actions { return report }
            return nil
        }
        #expect(watch(desk.second(Self.bus(mode: 64, at: 0), values: nil, at: 0))?.state == "auto")
        let (reply, _) = desk.command("raymarine-204", .disengage, Self.bus(mode: 64, at: 0), values: nil, at: 1)
        guard case .deliver(let standby) = reply else {
            Issue.record("\(reply)")
            return
        }
        _ = desk.delivered(standby, sent: true, at: 1)
        let asked = try #require(watch(desk.second(Self.bus(mode: 0, at: 2), values: nil, at: 2)))
        #expect(asked.state == "standby" && asked.standbyAsked)
        let later = try #require(watch(desk.second(Self.bus(mode: 0, at: 7), values: nil, at: 7)))
        #expect(!later.standbyAsked, "5 s later a standby is the pilot's own again")
    }

    @Test("wind mode close-hauled: the polar's angle once the pilot says wind, said; on a reach nothing more")
    func windTarget() throws {
        var desk = AutopilotDesk(settings: .init())
        let (reply, _) = desk.command("raymarine-204", .mode("wind"), Self.bus(), values: Self.values(), at: 0)
        guard case .deliver(let engage) = reply else {
            Issue.record("\(reply)")
            return
        }
        _ = desk.delivered(engage, sent: true, at: 0)
        #expect(deliveries(desk.second(Self.bus(mode: 64, at: 1), values: Self.values(), at: 1)).isEmpty)
        let target = try #require(
            deliveries(desk.second(Self.bus(mode: 256, at: 2), values: Self.values(), at: 2)).first)
        #expect(target.words == "the polar's angle, 42° true")
        let (status, _, after) = desk.delivered(target, sent: true, at: 2)
        #expect(status == 200 && said(after).first?.hasPrefix("wind mode, 42 degrees true on the polar") == true)
        // On a reach (TWA 100°) the pilot holds the angle it has.
        var reach = AutopilotDesk(settings: .init())
        let (r, _) = reach.command("raymarine-204", .mode("wind"), Self.bus(), values: Self.values(twa: 100), at: 0)
        guard case .deliver(let d) = r else {
            Issue.record("\(r)")
            return
        }
        _ = reach.delivered(d, sent: true, at: 0)
        #expect(deliveries(reach.second(Self.bus(mode: 256, at: 1), values: Self.values(twa: 100), at: 1)).isEmpty)
    }

    @Test("an NMEA 0183 pilot: the route's next point through the engine, everything else refused with why")
    func sentencePilot() {
        var desk = AutopilotDesk(settings: .init(sentencePilots: ["helm"]))
        let heard = AutopilotDesk.Heard()
        var (reply, _) = desk.command("nmea0183-helm", .courseNextPoint, heard, values: Self.values(), at: 0)
        #expect(reply == .answer(409, "no route is followed: set one first"))
        (reply, _) = desk.command("nmea0183-helm", .courseNextPoint, heard, values: Self.values(leg: true), at: 0)
        #expect(reply == .advanceRoute(device: "nmea0183-helm"))
        (reply, _) = desk.routeAdvanced(CommandOutcome.done("on to mark 2"), device: "nmea0183-helm", heard, at: 0)
        #expect(reply == .answer(200, "the route's next point: the pilot on helm is sent APB/RMB/XTE to it"))
        (reply, _) = desk.command("nmea0183-helm", .engage, heard, values: Self.values(leg: true), at: 0)
        guard case .answer(409, let why) = reply else {
            Issue.record("\(reply)")
            return
        }
        #expect(why.hasPrefix("an NMEA 0183 pilot on helm steers by the route"))
    }

    @Test("pypilot: orders as its lines; not connected, 503 and nothing kept to send later")
    func pypilot() {
        var desk = AutopilotDesk(settings: .init())
        var link = PypilotLink()
        _ = link.received("ap.enabled=true", at: 0)
        _ = link.received("ap.mode=\"compass\"", at: 0)
        _ = link.received("ap.heading_command=100", at: 0)
        let heard = AutopilotDesk.Heard(pypilot: link, pypilotConnected: true)
        let (reply, _) = desk.command("pypilot", .adjust(0.1), heard, values: nil, at: 1)
        guard case .deliver(let delivery) = reply, case .pypilot(let lines) = delivery.messages else {
            Issue.record("\(reply)")
            return
        }
        #expect(lines == (try? link.lines(.turn(0.1)).get()))
        #expect(desk.delivered(delivery, sent: false, at: 1).status == 503)
        let gone = AutopilotDesk.Heard(pypilot: link, pypilotConnected: false)
        #expect(
            desk.command("pypilot", .engage, gone, values: nil, at: 2).0
                == .answer(409, "pypilot is off-line (not heard for 10 s): nothing sent"))
    }

    @Test("a command the pilot cannot take whole sends nothing: a wind angle past ±π in wind mode")
    func notWhole() {
        var desk = AutopilotDesk(settings: .init())
        let (reply, _) = desk.command("raymarine-204", .target(4), Self.bus(mode: 256), values: nil, at: 0)
        #expect(reply == .answer(409, "in wind mode the target is a wind angle, ±π"))
    }
}
