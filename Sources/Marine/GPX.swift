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
                    guard let lat = DecimalText.value(latText), (-90...90).contains(lat) else {
                        throw ParseError(
                            line: token.line, message: "latitude \"\(latText)\" is not a number in -90...90")
                    }
                    guard let lon = DecimalText.value(lonText), (-180...180).contains(lon) else {
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

    static func append(
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

    static func localName(_ name: String) -> String {
        guard let colon = name.lastIndex(of: ":") else { return name }
        return String(name[name.index(after: colon)...])
    }

    static func trim(_ text: String) -> String {
        let scalars = text.unicodeScalars
        let isSpace: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
            let last = scalars.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(scalars[first...last])
    }
}
