import CPosix
import Platform

/// `telltale race start|pause|reset|sync`: tells the running gateway's start timer, through its Signal K server on
/// this machine (a PUT from loopback, which `put_networks` admits by default).
public enum RaceCommand {
    public static let words = ["start", "pause", "reset", "sync"]

    /// Sends `word`; returns what the gateway said, or throws when it cannot be reached or refuses.
    public static func send(_ word: String, host: String = "127.0.0.1", port: Int = 3000) throws(CommandError) -> String
    {
        guard words.contains(word) else { throw CommandError("race: \(word)? say start, pause, reset or sync") }
        guard let address = POSIX.SocketAddress(host: host, port: port) else {
            throw CommandError("race: \(host) is not a numeric address")
        }
        let url = "http://\(Endpoint.bracketed(host)):\(port)"
        let fd: Int32
        do {
            fd = try POSIX.socket(.stream, for: address, naming: url)
        } catch {
            throw CommandError("race: \(error)")
        }
        defer { POSIX.close(fd) }
        let connected: Bool
        do { connected = try POSIX.connect(fd, to: address, naming: url) } catch {
            throw CommandError("race: is telltale running with [web] on? \(error)")
        }
        let deadline = POSIX.monotonic() + 3
        if !connected {
            var fds = [pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)]
            _ = POSIX.poll(&fds, seconds: 3)
            guard POSIX.socketError(fd) == 0 else {
                throw CommandError("race: nothing answers on \(url): is telltale running with [web] on?")
            }
        }
        let body = "{\"value\":\"\(word)\"}"
        let request =
            "PUT /signalk/v1/api/vessels/self/telltale/race/command HTTP/1.1\r\nHost: \(host)\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
        var pending = Array(request.utf8)[...]
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while POSIX.monotonic() < deadline {
            var fds = [pollfd(fd: fd, events: Int16(POLLIN) | (pending.isEmpty ? 0 : Int16(POLLOUT)), revents: 0)]
            _ = POSIX.poll(&fds, seconds: 0.2)
            if !pending.isEmpty, case .bytes(let sent) = pending.withUnsafeBytes({ POSIX.send(fd, $0) }) {
                pending = pending.dropFirst(sent)
            }
            switch buffer.withUnsafeMutableBytes({ POSIX.receive(fd, into: $0) }) {
            case .bytes(let got): answer += buffer[0..<got]
            case .end: return try verdict(answer, word)
            case .wouldBlock: continue
            case .failed(let code): throw CommandError("race: \(POSIX.message(code))")
            }
        }
        return try verdict(answer, word)
    }

    private static func verdict(_ answer: [UInt8], _ word: String) throws(CommandError) -> String {
        let text = String(decoding: answer, as: UTF8.self)
        guard text.hasPrefix("HTTP/1.1 200") else {
            let line = text.split(separator: "\r\n", maxSplits: 1).first.map(String.init) ?? "no answer"
            throw CommandError("race: the gateway refused \(word): \(line)")
        }
        return "race timer: \(word)"
    }
}
