import TestSupport
import Testing

@testable import SignalK

/// The Autopilot API v2's read side (#41): devices, `_default`, status and values from what the shell read off the
/// bus; commands refused with 501; the default pilot under `steering.autopilot.*`.
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

    @Test("devices, _default, a device's status and values; an unknown one 404; any command 501, nothing asked")
    func readSide() {
        var h = Harness()
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
        (status, body) = get(&h, base + "/_default")
        #expect(body?["id"]?.string == "raymarine-204")
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
        #expect(status == 501 && h.commands.isEmpty)
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
