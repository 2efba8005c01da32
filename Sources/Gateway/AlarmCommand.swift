import Engine
import SignalK

/// `telltale alarm list|ack ALARM`: the running gateway's alarms, through its Signal K server on this machine.
public enum AlarmCommand {
    /// The Signal K path below `notifications.` of an alarm named by its configuration name (`shallow`), its ALR
    /// number (`131`; the heel alarms' configured numbers are not known here: name them) or its path.
    public static func path(of alarm: String) -> String? {
        if let kind = AlarmKind.named(alarm) { return kind.path }
        if let number = Int(alarm), let kind = AlarmKind.allCases.first(where: { $0.defaultNumber == number }) {
            return kind.path
        }
        if let kind = AlarmKind.allCases.first(where: { $0.path == alarm || "notifications." + $0.path == alarm }) {
            return kind.path
        }
        return nil
    }

    /// Acknowledges an active alarm; returns what to print.
    public static func acknowledge(_ alarm: String, host: String = "127.0.0.1", port: Int = 3000)
        throws(CommandError) -> String
    {
        guard let path = path(of: alarm) else {
            throw CommandError(
                "alarm: \(alarm)? name one of " + AlarmKind.allCases.map { $0.name }.joined(separator: ", ")
                    + ", or its ALR number")
        }
        let answer = try LocalGateway.request(
            "PUT", "/signalk/v1/api/vessels/self/notifications/" + path.split(separator: ".").joined(separator: "/"),
            body: "{\"value\":\"acknowledge\"}", host: host, port: port, what: "alarm")
        if answer.status == 409 { throw CommandError("alarm: \(alarm) is not active, or already acknowledged") }
        guard answer.status == 200 else { throw CommandError("alarm: the gateway refused: \(answer.line)") }
        return "alarm \(alarm): acknowledged"
    }

    /// The gateway's alarms, one line each: state, path, message.
    public static func list(host: String = "127.0.0.1", port: Int = 3000) throws(CommandError) -> String {
        let answer = try LocalGateway.request(
            "GET", "/signalk/v1/api/vessels/self/notifications", body: nil, host: host, port: port, what: "alarm")
        if answer.status == 404 { return "no alarms configured\n" }
        guard answer.status == 200, let json = JSONValue.parse(answer.body) else {
            throw CommandError("alarm: the gateway answered \(answer.line)")
        }
        var lines: [String] = []
        func walk(_ value: JSONValue, _ path: String) {
            if let state = value["value"]?["state"]?.string {
                let message = value["value"]?["message"]?.string ?? ""
                lines.append(state.padding(7) + " " + path.padding(40) + " " + message)
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
    fileprivate func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
