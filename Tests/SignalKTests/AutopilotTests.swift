import Engine
import TestSupport
import Testing

@testable import SignalK

/// The Autopilot API v2 (#41): devices, `_default`, status and values from what the shell read off the bus; the
/// commands checked and handed to the shell (or 501 where it cannot write to a bus); the default pilot under
/// `steering.autopilot.*`.
@Suite struct AutopilotTests {
    typealias Harness = StreamTests.Harness

    static let pilot = AutopilotStatus(
        id: "raymarine-204", provider: "telltale-n2k", state: "auto", mode: "wind", target: -0.7854,
        targetIsMagnetic: false, engaged: true, modes: ["compass", "gps", "wind", "route"])

    func get(_ h: inout Harness, _ path: String, method: String = "GET") -> (Int, JSONValue?) {
        h.sent[1] = []
        h.send(1, "\(method) \(path) HTTP/1.1\r\nContent-Length: 0\r\n\r\n")
        let text = h.text(1)
        let status = Int(text.dropFirst(9).prefix(3)) ?? 0
        let body = text.split(separator: "\r\n\r\n", maxSplits: 1, omittingEmptySubsequences: false).last.map(
            String.init)
        return (status, body.flatMap { JSONValue.parse(Array($0.utf8)) })
    }

    @Test(
        "devices, _default (the default pilot's status), a device's status and values; an unknown one 404; any command 501 without a bus"
    )
    func readSide() {
        var h = Harness { $0.commandsPilots = false }
        h.server.opened(1, peer: [127, 0, 0, 1], at: 0)
        let base = "/signalk/v2/api/vessels/self/autopilots"
        var (status, body) = get(&h, base)
        #expect(status == 200 && body?["raymarine-204"] == nil, "no pilot heard: an empty list")
        var other = Self.pilot
        other.id = "nmea2000-16"
        h.server.autopilots = [Self.pilot, other]
        (status, body) = get(&h, base)
        #expect(status == 200 && body?["raymarine-204"]?["isDefault"]?.bool == true)
        #expect(body?["nmea2000-16"]?["isDefault"]?.bool == false)
        // `_default` is the default pilot's status, as signalk-server answers; its id is under `_providers`.
        (status, body) = get(&h, base + "/_default")
        #expect(status == 200 && body?["id"] == nil && body?["state"]?.string == "auto")
        #expect(body?["mode"]?.string == "wind" && body?["options"]?["modes"]?.array?.count == 4)
        (status, body) = get(&h, base + "/_default/state")
        #expect(status == 200 && body?["value"]?.string == "auto")
        (status, body) = get(&h, base + "/_providers/_default")
        #expect(status == 200 && body?["id"]?.string == "raymarine-204")
        (status, body) = get(&h, base + "/raymarine-204")
        #expect(body?["state"]?.string == "auto" && body?["mode"]?.string == "wind" && body?["engaged"]?.bool == true)
        #expect(abs((body?["target"]?.number ?? 0) + 0.7854) < 1e-9)
        #expect(body?["options"]?["modes"]?.array?.count == 4)
        (status, body) = get(&h, base + "/raymarine-204/mode")
        #expect(body?["value"]?.string == "wind")
        (status, _) = get(&h, base + "/nobody")
        #expect(status == 404)
        (status, _) = get(&h, base + "/raymarine-204/engage", method: "POST")
        #expect(status == 501)
        (status, _) = get(&h, base + "/raymarine-204/target", method: "PUT")
        #expect(status == 501 && h.commands.isEmpty && h.pilotCommands.isEmpty)
        (status, body) = get(&h, "/signalk/v2/features")
        #expect(body?["apis"]?.array?.contains { $0.string == "autopilot" } == false)
    }

    func send(
        _ h: inout Harness, _ method: String, _ path: String, _ body: String = "", connection: Int = 1,
        token: String? = nil
    ) -> Int {
        h.sent[connection] = []
        let authorization = token.map { "Authorization: Bearer \($0)\r\n" } ?? ""
        h.send(
            connection,
            "\(method) /signalk/v2/api/vessels/self/autopilots/\(path) HTTP/1.1\r\n\(authorization)Content-Length: "
                + "\(body.utf8.count)\r\n\r\n\(body)")
        return Int(h.text(connection).dropFirst(9).prefix(3)) ?? 0
    }

    @Test("commands as signalk-server takes them: radians or degrees, to the named or default device, to the shell")
    func commands() {
        var h = Harness { $0.commandsPilots = true }
        h.server.opened(1, peer: [127, 0, 0, 1], at: 0)
        h.server.autopilots = [Self.pilot]
        #expect(send(&h, "POST", "raymarine-204/engage") == 200)
        #expect(send(&h, "PUT", "_default/target", #"{"value":90,"units":"deg"}"#) == 200)
        #expect(send(&h, "PUT", "raymarine-204/target", #"{"value":-0.5}"#) == 200)
        #expect(send(&h, "PUT", "raymarine-204/target/adjust", #"{"value":-10,"units":"DEG"}"#) == 200)
        #expect(send(&h, "PUT", "raymarine-204/mode", #"{"value":"route"}"#) == 200)
        #expect(send(&h, "PUT", "raymarine-204/state", #"{"value":"standby"}"#) == 200)
        #expect(send(&h, "POST", "raymarine-204/tack/port") == 200)
        #expect(send(&h, "POST", "raymarine-204/gybe/starboard") == 200)
        #expect(send(&h, "POST", "raymarine-204/dodge") == 200)
        #expect(send(&h, "PUT", "raymarine-204/dodge", #"{"value":5,"units":"deg"}"#) == 200)
        #expect(send(&h, "DELETE", "raymarine-204/dodge") == 200)
        #expect(send(&h, "POST", "raymarine-204/courseNextPoint") == 200)
        let got = h.pilotCommands.map { $0.1 }
        #expect(h.pilotCommands.allSatisfy { $0.0 == "raymarine-204" })
        #expect(got.count == 12)
        #expect(got.first == .engage)
        #expect(send(&h, "POST", "_providers/_default/raymarine-204") == 200)
        #expect(h.pilotCommands.last?.1 == .makeDefault && h.pilotCommands.last?.0 == "raymarine-204")
        if got.count == 12 {
            if case .target(let value) = got[1] { #expect(abs(value - Double.pi / 2) < 1e-12) } else { Issue.record() }
            #expect(got[2] == .target(-0.5))
            if case .adjust(let value) = got[3] { #expect(abs(value + Double.pi / 18) < 1e-12) } else { Issue.record() }
            #expect(got[4] == .mode("route") && got[5] == .state("standby"))
            #expect(got[6] == .tack(toPort: true) && got[7] == .gybe(toPort: false))
            #expect(got[8] == .dodgeEnter && got[10] == .dodgeLeave && got[11] == .courseNextPoint)
        }
        var body: JSONValue?
        (_, body) = get(&h, "/signalk/v2/features")
        #expect(body?["apis"]?.array?.contains { $0.string == "autopilot" } == true)
        (_, body) = get(&h, "/signalk/v2/api/vessels/self/autopilots/raymarine-204/options")
        #expect(body?["actions"]?.array?.contains { $0["id"]?.string == "tack" } == true)
    }

    @Test("nonsense is 400 and an unknown command or device 404, an unapproved device 401: none reach the shell")
    func refused() {
        var h = Harness(put: []) { $0.commandsPilots = true }
        h.server.opened(1, peer: [192, 168, 4, 7], at: 0)
        h.server.autopilots = [Self.pilot]
        #expect(send(&h, "POST", "raymarine-204/engage") == 401)
        #expect(send(&h, "PUT", "raymarine-204/target", #"{"value":1}"#, token: "not-a-token") == 401)
        var allowed = Harness { $0.commandsPilots = true }
        allowed.server.opened(1, peer: [127, 0, 0, 1], at: 0)
        allowed.server.autopilots = [Self.pilot]
        for (method, path, body) in [
            ("PUT", "raymarine-204/target", #"{"value":"north"}"#),
            ("PUT", "raymarine-204/target", #"{"value":7}"#),
            ("PUT", "raymarine-204/target", #"{"value":-200,"units":"deg"}"#),
            ("PUT", "raymarine-204/target", "not json"),
            ("PUT", "raymarine-204/target/adjust", #"{"value":0}"#),
            ("PUT", "raymarine-204/target/adjust", #"{"value":91,"units":"deg"}"#),
            ("PUT", "raymarine-204/mode", #"{"value":"banana"}"#),
            ("PUT", "raymarine-204/state", #"{"value":true}"#),
            ("PUT", "raymarine-204/dodge", #"{"value":2}"#),
        ] {
            #expect(send(&allowed, method, path, body) == 400, "\(method) \(path) \(body)")
        }
        #expect(send(&allowed, "POST", "raymarine-204/tack/sideways") == 404)
        #expect(send(&allowed, "POST", "nobody/engage") == 404)
        #expect(send(&allowed, "POST", "_providers/_default/nobody") == 400)
        #expect(send(&h, "POST", "_providers/_default/raymarine-204") == 401)
        #expect(h.pilotCommands.isEmpty && allowed.pilotCommands.isEmpty)
    }

    @Test("the default pilot under steering.autopilot.*: the wind angle held in wind mode, a heading otherwise")
    func modelValues() {
        var model = SignalKModel(urn: "urn:mrn:signalk:uuid:6b0e776f-811a-4b35-980e-b93405371bc5")
        model.take(autopilot: Self.pilot, at: 1, unixTime: 1_782_036_000)
        #expect(model.entries["steering.autopilot.state"]?.first?.value == .text("auto"))
        #expect(model.entries["steering.autopilot.engaged"]?.first?.value == .bool(true))
        #expect(model.entries["steering.autopilot.target.windAngleApparent"]?.first?.value == .number(-0.7854))
        #expect(model.entries["steering.autopilot.state"]?.first?.source == "raymarine-204")
        var compass = Self.pilot
        compass.mode = "compass"
        compass.target = 1.6
        compass.targetIsMagnetic = true
        model.take(autopilot: compass, at: 2, unixTime: 1_782_036_001)
        #expect(model.entries["steering.autopilot.target.headingMagnetic"]?.first?.value == .number(1.6))
    }
}
