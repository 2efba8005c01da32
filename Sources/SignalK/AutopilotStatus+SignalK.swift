import Engine

/// The autopilots as Signal K's Autopilot API v2 shows them (`/signalk/v2/api/vessels/self/autopilots`,
/// signalk-server's `docs/develop/rest-api/autopilot_api.md`): the device list with its `_default`, each pilot's status
/// (`options` with the states and modes it has, `state`, `mode`, `target`, `engaged`), and the same under
/// `steering.autopilot.*` for the default one. Commands are checked here and carried out by the shell
/// (``SignalKServer/ShellRequest/Kind/autopilot``).
extension AutopilotStatus {
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
