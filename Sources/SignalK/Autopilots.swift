import Engine

/// The autopilots the gateway knows (#41), as Signal K's Autopilot API v2 shows them
/// (`/signalk/v2/api/vessels/self/autopilots`, signalk-server's `docs/develop/rest-api/autopilot_api.md`): the device
/// list with its `_default`, each pilot's status (`options` with the states and modes it has, `state`, `mode`,
/// `target`, `engaged`), and the same under `steering.autopilot.*` for the default one. Read from the pilot's own
/// messages by the shell (a Raymarine Evolution's SeaTalkng PGNs, a standard 127237); a pilot no longer heard is
/// `off-line`. Commands are checked here and carried out by the shell (``SignalKServer/ShellRequest/Kind/autopilot``).
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
    /// What a command can do with such a pilot (the API's `options.actions`).
    public var actions: [String]

    public init(
        id: String, provider: String, state: String?, mode: String?, target: Double?, targetIsMagnetic: Bool,
        engaged: Bool?, modes: [String], actions: [String]? = nil
    ) {
        self.id = id
        self.provider = provider
        self.state = state
        self.mode = mode
        self.target = target
        self.targetIsMagnetic = targetIsMagnetic
        self.engaged = engaged
        self.modes = modes
        self.actions =
            actions
            ?? (modes.contains("route")
                ? ["dodge", "tack", "gybe", "courseCurrentPoint", "courseNextPoint"] : ["dodge", "tack", "gybe"])
    }

    /// The `options` object alone.
    public func optionsJSON() -> String {
        var json = JSONWriter()
        writeOptions(&json, key: nil)
        return json.text
    }

    /// The status object the API answers for a device.
    public func json() -> String {
        var json = JSONWriter()
        json.beginObject()
        writeOptions(&json, key: "options")
        if let state { json.value("state", state) } else { json.null("state") }
        if let mode { json.value("mode", mode) } else { json.null("mode") }
        if let target { json.value("target", target) } else { json.null("target") }
        if let engaged { json.value("engaged", engaged) } else { json.null("engaged") }
        json.endObject()
        return json.text
    }

    func writeOptions(_ json: inout JSONWriter, key: String?) {
        json.beginObject(key)
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
        for action in actions {
            json.beginObject(nil)
            json.value("id", action)
            json.value("name", action)
            json.value("available", provider == "telltale-0183" || (state != nil && state != "off-line"))
            json.endObject()
        }
        json.endArray()
        json.endObject()
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

    /// The Autopilot API: the devices, the default, a device's status and each of its values; the commands as
    /// signalk-server takes them (`src/api/autopilot/index.ts`: `PUT` state, mode, target, target/adjust, dodge;
    /// `POST` engage, disengage, tack, gybe, dodge, courseCurrentPoint, courseNextPoint; `DELETE` dodge; angles in
    /// radians or `"units": "deg"`), checked here (400 for what no pilot could take) and handed to the shell, which
    /// sends them to the pilot and answers. Only from a device that may change things (401/403, nothing sent); 501
    /// where the gateway cannot write to the bus.
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
            return autopilotCommand(request, parts, id, &connection, keepAlive: keepAlive, act)
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
        if parts.count == 2 && parts[0] == "_providers" && parts[1] == "_default" {
            return reply(200, #"{"id":"# + (autopilots.first.map { JSONWriter.quoted($0.id) } ?? "null") + "}")
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
        case "options": return reply(200, device.optionsJSON())
        default: return refuse(404, "not found")
        }
        json.endObject()
        reply(200, json.text)
    }

    /// A command: checked, then to the shell (``ShellRequest/Kind/autopilot(_:_:)``).
    private mutating func autopilotCommand(
        _ request: HTTPRequest, _ parts: [String], _ id: Int, _ connection: inout Connection, keepAlive: Bool,
        _ act: (Action) -> Void
    ) {
        func refuse(_ status: Int, _ message: String) {
            reply(id, &connection, status, message, keepAlive: keepAlive, act)
        }
        guard configuration.commandsPilots else {
            return refuse(
                501,
                "Telltale is not writing to an NMEA 2000 bus here ([n2k] absent or listen_only): it reads the pilot "
                    + "and cannot command it")
        }
        if let refused = refusal(connection, token: Self.token(of: request)) {
            counters.refused += 1
            return refuse(refused.status, refused.message)
        }
        if request.method == "POST" && parts.count == 3 && parts[0] == "_providers" && parts[1] == "_default" {
            guard autopilots.contains(where: { $0.id == parts[2] }) else { return refuse(400, "no such autopilot") }
            counters.puts += 1
            return ask(.autopilot(parts[2], .makeDefault), id, &connection, keepAlive: keepAlive, act)
        }
        guard parts.count >= 2 else { return refuse(405, "commands go to a device: .../autopilots/<id>/<command>") }
        let device = parts[0] == "_default" ? autopilots.first : autopilots.first { $0.id == parts[0] }
        guard let device else { return refuse(404, "no such autopilot") }
        let body = JSONValue.parse(request.body)
        // An angle in the body: radians, or degrees with "units": "deg"; nil when it is not a finite number.
        func angle() -> Double? {
            guard let value = body?["value"]?.number, value.isFinite else { return nil }
            let units = body?["units"]?.string?.lowercased() ?? "rad"
            return units == "deg" ? value * Double.pi / 180 : value
        }
        let action = parts.dropFirst().joined(separator: "/")
        let command: AutopilotCommand
        switch (request.method, action) {
        case ("POST", "engage"): command = .engage
        case ("POST", "disengage"): command = .disengage
        case ("PUT", "state"):
            guard let value = body?["value"]?.string, AutopilotCommand.states.contains(value) else {
                return refuse(400, "state: \"auto\" or \"standby\"")
            }
            command = .state(value)
        case ("PUT", "mode"):
            guard let value = body?["value"]?.string, device.modes.contains(value) else {
                return refuse(400, "mode: one of " + device.modes.joined(separator: ", "))
            }
            command = .mode(value)
        case ("PUT", "target"):
            // A heading 0 to 2π, or a wind angle ±π; signalk-server takes −π to 2π.
            guard let value = angle(), value >= -Double.pi, value <= 2 * Double.pi else {
                return refuse(400, "target: {\"value\": a number, radians from −π to 2π (or \"units\": \"deg\")}")
            }
            command = .target(value)
        case ("PUT", "target/adjust"):
            guard let value = angle(), abs(value) <= Double.pi / 2, value != 0 else {
                return refuse(400, "adjust: {\"value\": a number, ±90° at most, not 0}")
            }
            command = .adjust(value)
        case ("POST", "tack/port"): command = .tack(toPort: true)
        case ("POST", "tack/starboard"): command = .tack(toPort: false)
        case ("POST", "gybe/port"): command = .gybe(toPort: true)
        case ("POST", "gybe/starboard"): command = .gybe(toPort: false)
        case ("POST", "dodge"): command = .dodgeEnter
        case ("DELETE", "dodge"): command = .dodgeLeave
        case ("PUT", "dodge"):
            guard let value = angle(), abs(value) <= Double.pi / 2 else {
                return refuse(400, "dodge: {\"value\": a number, ±90° at most (negative to port)}")
            }
            command = .dodge(offset: value)
        case ("POST", "courseCurrentPoint"): command = .courseCurrentPoint
        case ("POST", "courseNextPoint"): command = .courseNextPoint
        default:
            return refuse(404, "no such autopilot command: \(request.method) \(action)")
        }
        counters.puts += 1
        ask(.autopilot(device.id, command), id, &connection, keepAlive: keepAlive, act)
    }
}
