/// Reads routes from GPX 1.1: the first `<rte>` with its `<rtept>`s, or else the `<wpt>` list in file order.
/// `<name>` becomes the waypoint ID (`WP1`, `WP2`... when a point has none).
///
/// A small scanner, not a general XML parser: it knows elements, attributes, comments, CDATA, processing
/// instructions and the five predefined entities, which is what GPX files from chartplotters and planners use.
/// A bad file is rejected with the line and what is wrong.
public enum GPX {
    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        public var line: Int
        public var message: String

        public init(line: Int, message: String) {
            self.line = line
            self.message = message
        }

        public var description: String { "line \(line): \(message)" }
    }

    public static func route(from text: String) throws(ParseError) -> Route {
        var scanner = Scanner(Array(text.utf8))
        var routePoints: [Waypoint] = []
        var waypoints: [Waypoint] = []
        var routeName: String?
        var inRoute = false
        var routesSeen = 0
        var current: (lat: Double, lon: Double, line: Int, isRoutePoint: Bool)?
        var currentName: String?
        var captureName = false
        var nameText = ""
        var sawGPX = false
        var depth: [String] = []

        while let token = try scanner.next() {
            switch token.kind {
            case .open(let name, let attributes, let selfClosing):
                let local = localName(name)
                if depth.isEmpty && local != "gpx" {
                    throw ParseError(line: token.line, message: "the root element is <\(name)>, not <gpx>")
                }
                if local == "gpx" { sawGPX = true }
                if !selfClosing { depth.append(name) }
                switch local {
                case "rte":
                    routesSeen += 1
                    inRoute = routesSeen == 1
                case "rtept", "wpt":
                    let isRoutePoint = local == "rtept"
                    guard !isRoutePoint || inRoute || routesSeen > 1 else {
                        throw ParseError(line: token.line, message: "<rtept> outside a <rte>")
                    }
                    guard let latText = attributes["lat"], let lonText = attributes["lon"] else {
                        throw ParseError(line: token.line, message: "<\(local)> without lat and lon attributes")
                    }
                    guard let lat = Double(latText), (-90...90).contains(lat) else {
                        throw ParseError(
                            line: token.line, message: "latitude \"\(latText)\" is not a number in -90...90")
                    }
                    guard let lon = Double(lonText), (-180...180).contains(lon) else {
                        throw ParseError(
                            line: token.line, message: "longitude \"\(lonText)\" is not a number in -180...180")
                    }
                    current = (lat, lon, token.line, isRoutePoint)
                    currentName = nil
                    if selfClosing {
                        append(&current, &currentName, &routePoints, &waypoints, inRoute: inRoute)
                    }
                case "name":
                    captureName = !selfClosing
                    nameText = ""
                default:
                    break
                }
            case .close(let name):
                guard let open = depth.last else {
                    throw ParseError(line: token.line, message: "</\(name)> closes nothing")
                }
                guard open == name else {
                    throw ParseError(line: token.line, message: "</\(name)> found where </\(open)> was expected")
                }
                depth.removeLast()
                switch localName(name) {
                case "name":
                    captureName = false
                    let trimmed = trim(nameText)
                    if current != nil {
                        currentName = trimmed
                    } else if inRoute && routeName == nil {
                        routeName = trimmed
                    }
                case "rtept", "wpt":
                    append(&current, &currentName, &routePoints, &waypoints, inRoute: inRoute)
                case "rte":
                    inRoute = false
                default:
                    break
                }
            case .text(let text):
                if captureName { nameText += text }
            }
        }
        guard sawGPX else { throw ParseError(line: 1, message: "no <gpx> element") }
        if let open = depth.last { throw ParseError(line: scanner.line, message: "<\(open)> is never closed") }
        let chosen = routePoints.isEmpty ? waypoints : routePoints
        guard chosen.count >= 2 else {
            throw ParseError(line: scanner.line, message: "a route needs at least two points (found \(chosen.count))")
        }
        var numbered: [Waypoint] = []
        for (index, point) in chosen.enumerated() {
            var point = point
            if point.id.isEmpty { point.id = "WP\(index + 1)" }
            numbered.append(point)
        }
        return Route(name: routeName, waypoints: numbered)
    }

    private static func append(
        _ current: inout (lat: Double, lon: Double, line: Int, isRoutePoint: Bool)?, _ name: inout String?,
        _ routePoints: inout [Waypoint], _ waypoints: inout [Waypoint], inRoute: Bool
    ) {
        guard let point = current else { return }
        let waypoint = Waypoint(id: name ?? "", position: GeoPoint(latitude: point.lat, longitude: point.lon))
        if point.isRoutePoint {
            if inRoute { routePoints.append(waypoint) }
        } else {
            waypoints.append(waypoint)
        }
        current = nil
        name = nil
    }

    private static func localName(_ name: String) -> String {
        guard let colon = name.lastIndex(of: ":") else { return name }
        return String(name[name.index(after: colon)...])
    }

    private static func trim(_ text: String) -> String {
        let scalars = text.unicodeScalars
        let isSpace: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
            let last = scalars.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(scalars[first...last])
    }

    struct Token {
        enum Kind {
            case open(String, [String: String], selfClosing: Bool)
            case close(String)
            case text(String)
        }

        var kind: Kind
        var line: Int
    }

    struct Scanner {
        let bytes: [UInt8]
        var index = 0
        var line = 1

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
            // A UTF-8 byte-order mark.
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        }

        mutating func next() throws(ParseError) -> Token? {
            guard index < bytes.count else { return nil }
            let startLine = line
            if bytes[index] != UInt8(ascii: "<") {
                var text: [UInt8] = []
                while index < bytes.count && bytes[index] != UInt8(ascii: "<") {
                    text.append(advance())
                }
                return Token(kind: .text(try decodeEntities(text, line: startLine)), line: startLine)
            }
            if matches("<!--") {
                guard skip(past: "-->") else { throw ParseError(line: startLine, message: "a comment is never closed") }
                return try next()
            }
            if matches("<![CDATA[") {
                index += 9
                var text: [UInt8] = []
                while index < bytes.count && !matches("]]>") { text.append(advance()) }
                guard matches("]]>") else { throw ParseError(line: startLine, message: "CDATA is never closed") }
                index += 3
                return Token(kind: .text(String(decoding: text, as: UTF8.self)), line: startLine)
            }
            if matches("<?") || matches("<!") {
                guard skip(past: ">") else {
                    throw ParseError(line: startLine, message: "a declaration is never closed")
                }
                return try next()
            }
            _ = advance()  // "<"
            let closing = peek() == UInt8(ascii: "/")
            if closing { _ = advance() }
            let name = readName()
            guard !name.isEmpty else { throw ParseError(line: startLine, message: "a tag without a name") }
            if closing {
                skipSpace()
                guard peek() == UInt8(ascii: ">") else {
                    throw ParseError(line: startLine, message: "</\(name) is not closed with >")
                }
                _ = advance()
                return Token(kind: .close(name), line: startLine)
            }
            var attributes: [String: String] = [:]
            while true {
                skipSpace()
                guard let byte = peek() else {
                    throw ParseError(line: startLine, message: "<\(name) is never closed")
                }
                if byte == UInt8(ascii: "/") {
                    _ = advance()
                    guard peek() == UInt8(ascii: ">") else {
                        throw ParseError(line: line, message: "expected > after / in <\(name)>")
                    }
                    _ = advance()
                    return Token(kind: .open(name, attributes, selfClosing: true), line: startLine)
                }
                if byte == UInt8(ascii: ">") {
                    _ = advance()
                    return Token(kind: .open(name, attributes, selfClosing: false), line: startLine)
                }
                let attribute = readName()
                guard !attribute.isEmpty else {
                    throw ParseError(line: line, message: "unexpected character in <\(name)>")
                }
                skipSpace()
                guard peek() == UInt8(ascii: "=") else {
                    throw ParseError(line: line, message: "attribute \(attribute) of <\(name)> has no value")
                }
                _ = advance()
                skipSpace()
                guard let quote = peek(), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
                    throw ParseError(line: line, message: "attribute \(attribute) of <\(name)> is not quoted")
                }
                _ = advance()
                var value: [UInt8] = []
                while let byte = peek(), byte != quote { value.append(advance()) }
                guard peek() == quote else {
                    throw ParseError(line: line, message: "attribute \(attribute) of <\(name)> is never closed")
                }
                _ = advance()
                attributes[attribute] = try decodeEntities(value, line: line)
            }
        }

        private func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

        private mutating func advance() -> UInt8 {
            let byte = bytes[index]
            index += 1
            if byte == 0x0A { line += 1 }
            return byte
        }

        private func matches(_ text: StaticString) -> Bool {
            text.withUTF8Buffer { pattern in
                index + pattern.count <= bytes.count && zip(pattern, bytes[index...]).allSatisfy { $0 == $1 }
            }
        }

        private mutating func skip(past text: StaticString) -> Bool {
            while index < bytes.count {
                if matches(text) {
                    index += text.utf8CodeUnitCount
                    return true
                }
                _ = advance()
            }
            return false
        }

        private mutating func skipSpace() {
            while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { _ = advance() }
        }

        private mutating func readName() -> String {
            var name: [UInt8] = []
            while let byte = peek(),
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                    || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: ":")
                    || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            {
                name.append(advance())
            }
            return String(decoding: name, as: UTF8.self)
        }

        private func decodeEntities(_ bytes: [UInt8], line: Int) throws(ParseError) -> String {
            guard bytes.contains(UInt8(ascii: "&")) else { return String(decoding: bytes, as: UTF8.self) }
            var out: [UInt8] = []
            var i = 0
            while i < bytes.count {
                guard bytes[i] == UInt8(ascii: "&") else {
                    out.append(bytes[i])
                    i += 1
                    continue
                }
                guard let end = bytes[i...].firstIndex(of: UInt8(ascii: ";")), end - i <= 10 else {
                    throw ParseError(line: line, message: "an & that does not start an entity")
                }
                let entity = String(decoding: bytes[(i + 1)..<end], as: UTF8.self)
                switch entity {
                case "amp": out.append(UInt8(ascii: "&"))
                case "lt": out.append(UInt8(ascii: "<"))
                case "gt": out.append(UInt8(ascii: ">"))
                case "quot": out.append(UInt8(ascii: "\""))
                case "apos": out.append(UInt8(ascii: "'"))
                default:
                    if entity.hasPrefix("#"),
                        let code = UInt32(
                            entity.dropFirst().hasPrefix("x")
                                ? String(entity.dropFirst(2)) : String(entity.dropFirst()),
                            radix: entity.dropFirst().hasPrefix("x") ? 16 : 10), let scalar = Unicode.Scalar(code)
                    {
                        out.append(contentsOf: Array(String(Character(scalar)).utf8))
                    } else {
                        throw ParseError(line: line, message: "unknown entity &\(entity);")
                    }
                }
                i = end + 1
            }
            return String(decoding: out, as: UTF8.self)
        }
    }
}
