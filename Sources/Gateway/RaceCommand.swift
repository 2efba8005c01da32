import CPosix
import Engine
import Marine
import Platform
import SignalK

/// `telltale race start|pause|reset|sync`: tells the running gateway's start timer, through its Signal K server on
/// this machine (a PUT from loopback, which `put_networks` admits by default).
public enum RaceCommand {
    /// The timer's commands, and a ping of either end of the start line from where the bow is now.
    public static let words = ["start", "pause", "reset", "sync", "port", "starboard"]

    /// The start line from a GPX file's waypoints (``StartLine/init(waypoints:)``).
    public static func startLine(from path: String) throws(CommandError) -> StartLine {
        var file = RouteFile(path: path)
        let route: Route
        do { route = try file.load() } catch { throw CommandError("race: \(error)") }
        guard let line = StartLine(waypoints: route.waypoints) else {
            throw CommandError("race: \(path): the start line needs two waypoints (port and starboard ends) apart")
        }
        return line
    }

    /// Sends `word`; returns what the gateway said, or throws when it cannot be reached or refuses.
    public static func send(_ word: String, host: String = "127.0.0.1", port: Int = 3000) throws(CommandError) -> String
    {
        guard words.contains(word) else {
            throw CommandError("race: \(word)? say start, pause, reset, sync, or port or starboard to ping an end")
        }
        let answer = try LocalGateway.request(
            "PUT", "/signalk/v1/api/vessels/self/telltale/race/command", body: "{\"value\":\"\(word)\"}", host: host,
            port: port, what: "race")
        guard answer.status == 200 else { throw CommandError("race: the gateway refused \(word): \(answer.line)") }
        return word == "port" || word == "starboard" ? "start line: \(word) end set" : "race timer: \(word)"
    }
}

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

/// One HTTP request to the gateway's own Signal K server on this machine.
enum LocalGateway {
    struct Answer {
        var status: Int
        /// The status line.
        var line: String
        var body: String
    }

    static func request(
        _ method: String, _ target: String, body: String?, host: String, port: Int, what: String
    ) throws(CommandError) -> Answer {
        guard let address = POSIX.SocketAddress(host: host, port: port) else {
            throw CommandError("\(what): \(host) is not a numeric address")
        }
        let url = "http://\(Endpoint.bracketed(host)):\(port)"
        let fd: Int32
        do {
            fd = try POSIX.socket(.stream, for: address, naming: url)
        } catch {
            throw CommandError("\(what): \(error)")
        }
        defer { POSIX.close(fd) }
        let connected: Bool
        do { connected = try POSIX.connect(fd, to: address, naming: url) } catch {
            throw CommandError("\(what): is telltale running with [web] on? \(error)")
        }
        let deadline = POSIX.monotonic() + 3
        if !connected {
            var fds = [pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)]
            _ = POSIX.poll(&fds, seconds: 3)
            guard POSIX.socketError(fd) == 0 else {
                throw CommandError("\(what): nothing answers on \(url): is telltale running with [web] on?")
            }
        }
        var request = "\(method) \(target) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n"
        if let body {
            request += "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body
        } else {
            request += "\r\n"
        }
        var pending = Array(request.utf8)[...]
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        reading: while POSIX.monotonic() < deadline {
            var fds = [pollfd(fd: fd, events: Int16(POLLIN) | (pending.isEmpty ? 0 : Int16(POLLOUT)), revents: 0)]
            _ = POSIX.poll(&fds, seconds: 0.2)
            if !pending.isEmpty, case .bytes(let sent) = pending.withUnsafeBytes({ POSIX.send(fd, $0) }) {
                pending = pending.dropFirst(sent)
            }
            switch buffer.withUnsafeMutableBytes({ POSIX.receive(fd, into: $0) }) {
            case .bytes(let got): answer += buffer[0..<got]
            case .end: break reading
            case .wouldBlock: continue
            case .failed(let code): throw CommandError("\(what): \(POSIX.message(code))")
            }
        }
        let text = String(decoding: answer, as: UTF8.self)
        let line = text.split(separator: "\r\n", maxSplits: 1).first.map(String.init) ?? "no answer"
        let parts = line.split(separator: " ")
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), let status = Int(parts[1]) else {
            throw CommandError("\(what): no HTTP answer from \(url)")
        }
        var bodyStart = answer.count
        for index in 0..<max(answer.count - 3, 0)
        where answer[index] == 13 && answer[index + 1] == 10 && answer[index + 2] == 13 && answer[index + 3] == 10 {
            bodyStart = index + 4
            break
        }
        return Answer(status: status, line: line, body: String(decoding: answer[bodyStart...], as: UTF8.self))
    }
}
