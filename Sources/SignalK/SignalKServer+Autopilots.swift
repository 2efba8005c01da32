import Engine

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
        // `_default` is the default pilot itself, for every route (signalk-server's `src/api/autopilot/index.ts`
        // maps it to the default device); its id is at `_providers/_default`.
        if parts.count == 1 { return reply(200, device.json()) }
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
