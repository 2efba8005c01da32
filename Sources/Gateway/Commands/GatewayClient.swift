import Engine
import SignalK

/// `telltale race|route|alarm ...`: the running gateway's commands, through its Signal K server on this machine (a
/// PUT from loopback, which `put_networks` admits by default). What the gateway answers is what is printed.
public enum GatewayClient {
    /// Sends `command`; what the gateway says it did, or throws with why it could not.
    public static func send(_ command: EngineCommand, host: String = "127.0.0.1", port: Int = 3000)
        throws(CommandError) -> String
    {
        guard let put = command.signalKPut else { throw CommandError("that command is the race button's alone") }
        let what: String
        switch command {
        case .race, .button: what = "race"
        case .route, .destination: what = "route"
        case .acknowledge, .silence, .clear: what = "alarm"
        }
        let answer = try LocalGateway.request(
            "PUT", "/signalk/v1/api/vessels/self/" + put.path, body: "{\"value\":\"\(put.value)\"}", host: host,
            port: port, what: what)
        let message = JSONValue.parse(Array(answer.body.utf8))?["message"]?.string ?? answer.line
        guard answer.status == 200 else { throw CommandError("\(what): the gateway refused: \(message)") }
        return message
    }

    /// The gateway's alarms, one line each: state, path, message.
    public static func alarms(host: String = "127.0.0.1", port: Int = 3000) throws(CommandError) -> String {
        let answer = try LocalGateway.request(
            "GET", "/signalk/v1/api/vessels/self/notifications", body: nil, host: host, port: port, what: "alarm")
        if answer.status == 404 { return "no alarms configured\n" }
        guard answer.status == 200, let json = JSONValue.parse(Array(answer.body.utf8)) else {
            throw CommandError("alarm: the gateway answered \(answer.line)")
        }
        var lines: [String] = []
        func walk(_ value: JSONValue, _ path: String) {
            if let state = value["value"]?["state"]?.string {
                let message = value["value"]?["message"]?.string ?? ""
                lines.append(state.padded(7) + " " + path.padded(40) + " " + message)
                return
            }
            guard case .object(let members) = value else { return }
            for (key, member) in members where key != "meta" && key != "$source" && key != "timestamp" {
                walk(member, path.isEmpty ? key : path + "." + key)
            }
        }
        walk(json, "")
        return lines.isEmpty ? "no alarms configured\n" : lines.joined(separator: "\n") + "\n"
    }
}

extension String {
    fileprivate func padded(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
