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
        case .route, .destination, .arrivalCircle, .routePoint, .follow: what = "route"
        case .acknowledge, .silence, .clear: what = "alarm"
        case .anchor: what = "anchor"
        case .clearTrack: what = "track"
        }
        let answer = try LocalGateway.request(
            "PUT", "/signalk/v1/api/vessels/self/" + put.path, body: "{\"value\":\(put.value)}", host: host,
            port: port, what: what)
        let message = JSONValue.parse(Array(answer.body.utf8))?["message"]?.string ?? answer.line
        guard answer.status == 200 else { throw CommandError("\(what): the gateway refused: \(message)") }
        return message
    }

    /// `telltale access`: the requests and devices listed, or one approved, denied or revoked.
    public static func access(_ options: AccessOptions, host: String = "127.0.0.1") throws(CommandError) -> String {
        let path = "/telltale/v1/access"
        let listing = try LocalGateway.request("GET", path, body: nil, host: host, port: options.port, what: "access")
        guard listing.status == 200, let json = JSONValue.parse(Array(listing.body.utf8)) else {
            let message = JSONValue.parse(Array(listing.body.utf8))?["message"]?.string ?? listing.line
            throw CommandError("access: the gateway answered \(message)")
        }
        let requests = json["requests"]?.array ?? []
        let devices = json["devices"]?.array ?? []
        switch options.action ?? .list {
        case .list:
            var lines: [String] = []
            for request in requests {
                let id = request["requestId"]?.string ?? ""
                lines.append(
                    (request["state"]?.string ?? "").padded(9) + " " + String(id.prefix(8)).padded(9)
                        + (request["permissions"]?.string ?? "").padded(10) + " "
                        + (request["address"]?.string ?? "").padded(16) + " " + (request["description"]?.string ?? ""))
            }
            for device in devices {
                lines.append(
                    "device".padded(9) + " " + String((device["clientId"]?.string ?? "").prefix(8)).padded(9)
                        + (device["permissions"]?.string ?? "").padded(10) + " " + "".padded(16) + " "
                        + (device["description"]?.string ?? ""))
            }
            return lines.isEmpty ? "no device has asked\n" : lines.joined(separator: "\n") + "\n"
        case .approve, .deny:
            let target = options.target ?? ""
            let matching = requests.filter {
                $0["state"]?.string == "pending" && ($0["requestId"]?.string ?? "").hasPrefix(target)
            }
            guard matching.count == 1, let id = matching[0]["requestId"]?.string else {
                throw CommandError(
                    "access: \(matching.isEmpty ? "no request waiting is" : "more than one request waiting is") \(target)"
                )
            }
            let word = options.action == .approve ? "approve" : "deny"
            return try answer("PUT", path + "/requests/" + id, body: "{\"value\":\"\(word)\"}", options, host)
        case .revoke:
            let target = options.target ?? ""
            let matching = devices.filter { ($0["clientId"]?.string ?? "").hasPrefix(target) }
            guard matching.count == 1, let clientId = matching[0]["clientId"]?.string else {
                throw CommandError("access: \(matching.isEmpty ? "no device is" : "more than one device is") \(target)")
            }
            return try answer("DELETE", path + "/devices/" + clientId, body: nil, options, host)
        }
    }

    private static func answer(
        _ method: String, _ path: String, body: String?, _ options: AccessOptions, _ host: String
    ) throws(CommandError) -> String {
        let answer = try LocalGateway.request(method, path, body: body, host: host, port: options.port, what: "access")
        let message = JSONValue.parse(Array(answer.body.utf8))?["message"]?.string ?? answer.line
        guard answer.status == 200 else { throw CommandError("access: the gateway refused: \(message)") }
        return message + "\n"
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
