/// HTTP/1.1 requests as the Signal K server reads them, sans-I/O and bounded: a request head is at most
/// `maximumHead` bytes and a body at most `maximumBody`; anything larger is answered with an error and the
/// connection closed, before the rest is read into memory.
public struct HTTPRequest: Sendable {
    public var method: String
    /// The path without its query, percent-decoded.
    public var path: String
    /// The query's parameters, in order.
    public var query: [(String, String)]
    /// Header names in lower case.
    public var headers: [(String, String)]
    public var body: [UInt8]

    public func header(_ name: String) -> String? { headers.first { $0.0 == name }?.1 }

    public func parameter(_ name: String) -> String? { query.first { $0.0 == name }?.1 }

    /// A header's comma-separated tokens, trimmed and in lower case (`Connection: keep-alive, Upgrade`).
    public func tokens(_ name: String) -> [String] {
        (header(name) ?? "").split(separator: ",").map { HTTPRequestReader.trimmed(String($0)).lowercased() }
    }

    /// Whether the client asked to keep the connection open (HTTP/1.1's default).
    public var keepsAlive = true
}

/// What the parser found.
public enum HTTPParse: Sendable {
    case request(HTTPRequest)
    /// Not enough bytes yet.
    case incomplete
    /// The client broke the protocol or a limit: answer with this status and close.
    case failure(status: Int)
}

/// Reads requests from a connection's bytes, one after another (pipelined requests are kept for the next call).
public struct HTTPRequestReader: Sendable {
    public let maximumHead: Int
    public let maximumBody: Int
    private var buffer: [UInt8] = []

    public init(maximumHead: Int = 16_384, maximumBody: Int = 16_384) {
        self.maximumHead = maximumHead
        self.maximumBody = maximumBody
    }

    public var buffered: Int { buffer.count }

    public mutating func feed(_ bytes: some Collection<UInt8>) { buffer.append(contentsOf: bytes) }

    /// Bytes after the last request (a WebSocket client's first frames, sent with its handshake).
    public mutating func takeRemainder() -> [UInt8] {
        defer { buffer.removeAll() }
        return buffer
    }

    /// The next whole request, if the buffer holds one.
    public mutating func next() -> HTTPParse {
        guard let headEnd = Self.find([0x0D, 0x0A, 0x0D, 0x0A], in: buffer, limit: maximumHead + 4) else {
            return buffer.count > maximumHead ? .failure(status: 431) : .incomplete
        }
        guard headEnd <= maximumHead else { return .failure(status: 431) }
        var lines = Self.split(buffer[0..<headEnd])
        guard !lines.isEmpty else { return .failure(status: 400) }
        let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: false)
        guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/1."), !requestLine[0].isEmpty else {
            return .failure(status: 400)
        }
        let method = String(requestLine[0])
        guard method.utf8.allSatisfy({ $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) else {
            return .failure(status: 400)
        }
        let target = String(requestLine[1])
        guard target.hasPrefix("/") else { return .failure(status: 400) }
        var headers: [(String, String)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { return .failure(status: 400) }
            let name = String(line[..<colon]).lowercased()
            guard !name.isEmpty, !name.contains(" ") else { return .failure(status: 400) }
            let value = Self.trimmed(String(line[line.index(after: colon)...]))
            headers.append((name, value))
            guard headers.count <= 100 else { return .failure(status: 431) }
        }
        var length = 0
        if let text = headers.first(where: { $0.0 == "content-length" })?.1 {
            guard let value = Int(text), value >= 0 else { return .failure(status: 400) }
            length = value
        }
        if headers.contains(where: { $0.0 == "transfer-encoding" }) { return .failure(status: 411) }
        // A resource (a route of a few thousand points) may be larger than anything else a client sends.
        let largest =
            target.hasPrefix(SignalKServer.resourcesPath + "/") ? max(maximumBody, Resources.largestBody) : maximumBody
        guard length <= largest else { return .failure(status: 413) }
        let bodyStart = headEnd + 4
        guard buffer.count >= bodyStart + length else { return .incomplete }
        let body = Array(buffer[bodyStart..<(bodyStart + length)])
        buffer.removeFirst(bodyStart + length)
        let (path, query) = Self.splitTarget(target)
        guard let decodedPath = Self.percentDecoded(path) else { return .failure(status: 400) }
        var request = HTTPRequest(method: method, path: decodedPath, query: query, headers: headers, body: body)
        let connection = request.tokens("connection")
        request.keepsAlive =
            requestLine[2] == "HTTP/1.1" ? !connection.contains("close") : connection.contains("keep-alive")
        return .request(request)
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8], limit: Int) -> Int? {
        let end = min(haystack.count, limit) - needle.count
        guard end >= 0 else { return nil }
        var index = 0
        while index <= end {
            if haystack[index] == needle[0] && haystack[index + 1] == needle[1] && haystack[index + 2] == needle[2]
                && haystack[index + 3] == needle[3]
            {
                return index
            }
            index += 1
        }
        return nil
    }

    static func split(_ head: ArraySlice<UInt8>) -> [Substring] {
        let text = String(decoding: head, as: UTF8.self)
        var lines: [Substring] = []
        var start = text.startIndex
        var index = text.startIndex
        while index < text.endIndex {
            if text[index] == "\r\n" || text[index] == "\n" {
                lines.append(text[start..<index])
                start = text.index(after: index)
            }
            index = text.index(after: index)
        }
        lines.append(text[start..<text.endIndex])
        return lines
    }

    static func trimmed(_ text: String) -> String {
        var scalars = Substring(text)
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }

    static func splitTarget(_ target: String) -> (String, [(String, String)]) {
        guard let mark = target.firstIndex(of: "?") else { return (target, []) }
        var query: [(String, String)] = []
        for pair in target[target.index(after: mark)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = percentDecoded(String(parts[0])) ?? ""
            let value = parts.count > 1 ? percentDecoded(String(parts[1])) ?? "" : ""
            query.append((key, value))
        }
        return (String(target[..<mark]), query)
    }

    /// `%XX` into its byte; `+` a space in a query (`plusIsSpace`), itself elsewhere (a URL's user and password).
    public static func percentDecoded(_ text: String, plusIsSpace: Bool = true) -> String? {
        guard text.contains("%") || (plusIsSpace && text.contains("+")) else { return text }
        var out: [UInt8] = []
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, let high = hex(bytes[index + 1]), let low = hex(bytes[index + 2]) else {
                    return nil
                }
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(plusIsSpace && byte == UInt8(ascii: "+") ? 0x20 : byte)
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// An HTTP/1.1 response's bytes.
public enum HTTPResponse {
    public static func reason(_ status: Int) -> String {
        switch status {
        case 101: "Switching Protocols"
        case 200: "OK"
        case 202: "Accepted"
        case 204: "No Content"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 411: "Length Required"
        case 413: "Content Too Large"
        case 426: "Upgrade Required"
        case 431: "Request Header Fields Too Large"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        default: "Error"
        }
    }

    public static func make(
        status: Int, contentType: String = "application/json", body: [UInt8], keepAlive: Bool = true,
        headers: [(String, String)] = [], headOnly: Bool = false
    ) -> [UInt8] {
        var head = "HTTP/1.1 \(status) \(reason(status))\r\n"
        head += "Content-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n"
        head += "Cache-Control: no-cache\r\nAccess-Control-Allow-Origin: *\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += keepAlive ? "\r\n" : "Connection: close\r\n\r\n"
        var bytes = Array(head.utf8)
        if !headOnly { bytes += body }
        return bytes
    }

    public static func json(status: Int, _ text: String, keepAlive: Bool = true) -> [UInt8] {
        make(status: status, body: Array(text.utf8), keepAlive: keepAlive)
    }

    /// 204 to a CORS preflight: any origin, the methods the server takes, the headers asked for (when they are
    /// plain header names).
    public static func preflight(_ request: HTTPRequest, keepAlive: Bool) -> [UInt8] {
        let asked = request.header("access-control-request-headers") ?? ""
        let plain = asked.utf8.allSatisfy { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: ",") || byte == UInt8(ascii: " ")
        }
        var head = "HTTP/1.1 204 No Content\r\nAccess-Control-Allow-Origin: *\r\n"
        head += "Access-Control-Allow-Methods: GET, HEAD, PUT, POST, DELETE, OPTIONS\r\n"
        head +=
            "Access-Control-Allow-Headers: "
            + (plain && !asked.isEmpty && asked.utf8.count <= 200 ? asked : "Content-Type, Authorization") + "\r\n"
        head += "Access-Control-Max-Age: 600\r\nContent-Length: 0\r\n"
        head += keepAlive ? "\r\n" : "Connection: close\r\n\r\n"
        return Array(head.utf8)
    }

    /// An error with a small JSON body saying what went wrong.
    public static func error(_ status: Int, _ message: String, keepAlive: Bool = false) -> [UInt8] {
        var json = JSONWriter()
        json.beginObject()
        json.value("statusCode", status)
        json.value("message", message)
        json.endObject()
        return make(status: status, body: Array(json.text.utf8), keepAlive: keepAlive)
    }
}
