/// The autopilots the gateway knows (#41), as Signal K's Autopilot API v2 shows them
/// (`/signalk/v2/api/vessels/self/autopilots`, signalk-server's `docs/develop/rest-api/autopilot_api.md`): the device
/// list with its `_default`, each pilot's status (`options` with the states and modes it has, `state`, `mode`,
/// `target`, `engaged`), and the same under `steering.autopilot.*` for the default one. Read from the pilot's own
/// messages by the shell (a Raymarine Evolution's SeaTalkng PGNs, a standard 127237); a pilot no longer heard is
/// `off-line`. Commands are not sent to pilots yet: the API answers them 501 and says so.
public struct AutopilotStatus: Hashable, Sendable {
    /// The device id the API names it by (`raymarine-204`: its kind and bus address).
    public var id: String
    /// What speaks for it (`telltale-n2k`).
    public var provider: String
    /// `standby`, `auto`, or `off-line` when it is not heard; nil until it says.
    public var state: String?
    public var mode: String?
    /// Radians: a heading (0 to 2π), or in wind mode the apparent wind angle (±π, positive starboard).
    public var target: Double?
    public var targetIsMagnetic: Bool
    public var engaged: Bool?
    /// The modes such a pilot has (`compass`, `gps`, `wind`, `route`).
    public var modes: [String]

    public init(
        id: String, provider: String, state: String?, mode: String?, target: Double?, targetIsMagnetic: Bool,
        engaged: Bool?, modes: [String]
    ) {
        self.id = id
        self.provider = provider
        self.state = state
        self.mode = mode
        self.target = target
        self.targetIsMagnetic = targetIsMagnetic
        self.engaged = engaged
        self.modes = modes
    }

    /// The status object the API answers for a device.
    public func json() -> String {
        var json = JSONWriter()
        json.beginObject()
        json.beginObject("options")
        json.beginArray("states")
        for (name, engaged) in [("auto", true), ("standby", false)] {
            json.beginObject(nil)
            json.value("name", name)
            json.value("engaged", engaged)
            json.endObject()
        }
        json.endArray()
        json.beginArray("modes")
        for mode in modes { json.value(nil, mode) }
        json.endArray()
        json.beginArray("actions")
        json.endArray()
        json.endObject()
        if let state { json.value("state", state) } else { json.null("state") }
        if let mode { json.value("mode", mode) } else { json.null("mode") }
        if let target { json.value("target", target) } else { json.null("target") }
        if let engaged { json.value("engaged", engaged) } else { json.null("engaged") }
        json.endObject()
        return json.text
    }

    /// The pilot's values under `steering.autopilot.*`, as the reference publishes them for the default pilot.
    public var values: [(path: String, value: SignalKValue)] {
        var out: [(path: String, value: SignalKValue)] = [
            ("steering.autopilot.state", state.map(SignalKValue.text) ?? .null),
            ("steering.autopilot.mode", mode.map(SignalKValue.text) ?? .null),
            ("steering.autopilot.engaged", engaged.map(SignalKValue.bool) ?? .null),
        ]
        let targetPath =
            mode == "wind"
            ? "steering.autopilot.target.windAngleApparent"
            : targetIsMagnetic ? "steering.autopilot.target.headingMagnetic" : "steering.autopilot.target.headingTrue"
        out.append((targetPath, target.map(SignalKValue.number) ?? .null))
        return out
    }
}

extension SignalKModel {
    /// The default pilot's status into the model (`$source` its device id).
    public mutating func take(autopilot status: AutopilotStatus, at time: Double, unixTime: Double) {
        let stamp = SignalKTime.text(unixTime: unixTime)
        for (path, value) in status.values { set(path, value, source: status.id, time: time, timestamp: stamp) }
    }
}

extension SignalKServer {
    static let autopilotsPath = "/signalk/v2/api/vessels/self/autopilots"

    /// The Autopilot API: the devices, the default, a device's status and each of its values; a command is 501 (the
    /// gateway reads pilots and does not command them yet), never taken and dropped.
    mutating func autopilotAPI(
        _ request: HTTPRequest, _ id: Int, _ connection: inout Connection, keepAlive: Bool, _ act: (Action) -> Void
    ) {
        func reply(_ status: Int, _ json: String) { respond(id, &connection, status, json, keepAlive: keepAlive, act) }
        func refuse(_ status: Int, _ message: String) {
            self.reply(id, &connection, status, message, keepAlive: keepAlive, act)
        }
        let path = request.path.hasSuffix("/") ? String(request.path.dropLast()) : request.path
        let parts = path.dropFirst(Self.autopilotsPath.count).split(separator: "/").map(String.init)
        guard request.method == "GET" || request.method == "HEAD" else {
            return refuse(
                501,
                "Telltale reads this pilot's state from the bus and does not send it commands yet: use the pilot's own "
                    + "controls")
        }
        if parts.isEmpty {
            var json = JSONWriter()
            json.beginObject()
            for (index, pilot) in autopilots.enumerated() {
                json.beginObject(pilot.id)
                json.value("provider", pilot.provider)
                json.value("isDefault", index == 0)
                json.endObject()
            }
            json.endObject()
            return reply(200, json.text)
        }
        let device = parts[0] == "_default" ? autopilots.first : autopilots.first { $0.id == parts[0] }
        guard let device else { return refuse(404, "no such autopilot") }
        if parts.count == 1 {
            return reply(200, parts[0] == "_default" ? #"{"id":"# + JSONWriter.quoted(device.id) + "}" : device.json())
        }
        guard parts.count == 2 else { return refuse(404, "not found") }
        var json = JSONWriter()
        json.beginObject()
        switch parts[1] {
        case "state": if let state = device.state { json.value("value", state) } else { json.null("value") }
        case "mode": if let mode = device.mode { json.value("value", mode) } else { json.null("value") }
        case "target": if let target = device.target { json.value("value", target) } else { json.null("value") }
        case "engaged": if let engaged = device.engaged { json.value("value", engaged) } else { json.null("value") }
        default: return refuse(404, "not found")
        }
        json.endObject()
        reply(200, json.text)
    }
}
