/// Where an input reads from or an output writes to, from a URL such as `tcp://0.0.0.0:10110`.
public enum Endpoint: Hashable, Sendable, CustomStringConvertible {
    /// A recorded log replayed in real time (`file:///path.nmea`, or a path relative to the configuration file).
    case file(path: String)
    /// Listen for TCP clients (outputs) or connect to a TCP server (inputs).
    case tcp(host: String, port: Int)
    /// UDP: listen (inputs, `udp://:10110`) or send (outputs, `udp://192.168.1.255:10110`).
    case udp(host: String, port: Int)
    /// A serial port, `serial:///dev/ttyUSB0?baud=4800`.
    case serial(path: String, baud: Int)
    /// gpsd, `gpsd://localhost:2947`.
    case gpsd(host: String, port: Int)
    /// Standard output.
    case standardOutput

    public struct ParseError: Error, Hashable, CustomStringConvertible {
        public var url: String
        public var reason: String
        public var description: String { "\(url): \(reason)" }
    }

    /// Parses a URL; relative file paths are resolved against `base` (the configuration file's folder).
    public static func parse(_ url: String, base: String = ".") throws(ParseError) -> Endpoint {
        if url == "stdout:" || url == "stdout://" || url == "-" { return .standardOutput }
        guard let schemeEnd = url.firstIndex(of: ":") else {
            throw ParseError(url: url, reason: "no scheme (file, tcp, udp, serial, gpsd, stdout)")
        }
        let scheme = String(url[..<schemeEnd])
        var rest = String(url[url.index(after: schemeEnd)...])
        if rest.hasPrefix("//") { rest.removeFirst(2) }
        var query: [String: String] = [:]
        if let mark = rest.firstIndex(of: "?") {
            for pair in rest[rest.index(after: mark)...].split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                query[parts[0]] = parts.count > 1 ? parts[1] : ""
            }
            rest = String(rest[..<mark])
        }
        func hostPort(defaultPort: Int?) throws(ParseError) -> (String, Int) {
            var host = rest
            var portText: String?
            if let colon = rest.lastIndex(of: ":"), !rest.hasSuffix("]") {
                host = String(rest[..<colon])
                portText = String(rest[rest.index(after: colon)...])
            }
            if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            let parsed: Int? = portText.map { Int($0) } ?? defaultPort
            guard let port = parsed, (1...65535).contains(port) else {
                throw ParseError(url: url, reason: "a port from 1 to 65535 is needed")
            }
            return (host.isEmpty ? "0.0.0.0" : host, port)
        }
        switch scheme {
        case "file":
            guard !rest.isEmpty else { throw ParseError(url: url, reason: "no path") }
            return .file(path: rest.hasPrefix("/") ? rest : base + "/" + rest)
        case "tcp":
            let (host, port) = try hostPort(defaultPort: nil)
            return .tcp(host: host, port: port)
        case "udp":
            let (host, port) = try hostPort(defaultPort: nil)
            return .udp(host: host, port: port)
        case "gpsd":
            let (host, port) = try hostPort(defaultPort: 2947)
            return .gpsd(host: host == "0.0.0.0" ? "localhost" : host, port: port)
        case "serial":
            guard rest.hasPrefix("/") else { throw ParseError(url: url, reason: "a device path such as /dev/ttyUSB0") }
            let baudText = query["baud"] ?? "4800"
            guard let baud = Int(baudText), baud > 0 else {
                throw ParseError(url: url, reason: "baud \(baudText) is not a number")
            }
            return .serial(path: rest, baud: baud)
        default:
            throw ParseError(url: url, reason: "unknown scheme \(scheme) (file, tcp, udp, serial, gpsd, stdout)")
        }
    }

    public var description: String {
        switch self {
        case .file(let path): "file://" + path
        case .tcp(let host, let port): "tcp://\(Self.bracketed(host)):\(port)"
        case .udp(let host, let port): "udp://\(Self.bracketed(host)):\(port)"
        case .serial(let path, let baud): "serial://\(path)?baud=\(baud)"
        case .gpsd(let host, let port): "gpsd://\(Self.bracketed(host)):\(port)"
        case .standardOutput: "stdout:"
        }
    }

    /// An IPv6 address in a URL goes in brackets: `tcp://[::1]:10110`.
    static func bracketed(_ host: String) -> String { host.contains(":") ? "[" + host + "]" : host }
}
