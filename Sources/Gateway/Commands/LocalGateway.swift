import CPosix
import Platform

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
            var set = PollSet(capacity: 1)
            set.add(fd, read: false, write: true)
            set.wait(seconds: 3)
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
            var set = PollSet(capacity: 1)
            set.add(fd, write: !pending.isEmpty)
            set.wait(seconds: 0.2)
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
