import Marine

extension EngineCommand {
    /// The command in a few words for the log: `route advance`, `acknowledge shallow`, `destination 46.5,6.6`,
    /// `follow "Round the lake" (12 points) from point 3`. A route is named and counted, never written out: a routed
    /// plan's hundreds of points would make one log line of kilobytes at every re-route.
    public var words: String {
        switch self {
        case .race(let command): return "race " + command.rawValue
        case .route(let command): return "route " + command.rawValue
        case .acknowledge(let kind): return "acknowledge " + kind.name
        case .silence(let kind): return "silence " + kind.name
        case .clear(let kind): return "clear " + kind.name
        case .destination(let point): return "destination " + Self.place(point)
        case .follow(let route, let pointIndex, let reverse):
            let name = route.name.map { "\"" + Self.shortened($0) + "\" " } ?? ""
            return "follow \(name)(\(route.waypoints.count) points) from point \(pointIndex)"
                + (reverse ? ", reversed" : "")
        case .arrivalCircle(let radius): return "arrival circle " + FixedDecimal.text(radius, decimals: 0) + " m"
        case .routePoint(let index): return "route point \(index)"
        case .button(let gesture): return "button " + gesture.rawValue
        case .anchor(let command):
            switch command {
            case .position(let point): return "anchor at " + Self.place(point)
            case .restore(let set): return "anchor restored at " + Self.place(set.position)
            default: return "anchor " + (command.words ?? "")
            }
        case .clearTrack: return "clear track"
        }
    }

    /// What the command does without its numbers, names or places: `route advance`, `acknowledge shallow`,
    /// `destination`, `anchor radius`. One of a bounded set (each word from an enum of the engine's), so that the log's
    /// limiter may hold back repeats of one kind (a phone pressing one button again and again) while a command of
    /// another kind, given just after, is said at once, and a client sending places without end makes no new kinds.
    public var kind: String {
        switch self {
        case .race, .route, .acknowledge, .silence, .clear, .button: return words
        case .destination: return "destination"
        case .follow: return "follow"
        case .arrivalCircle: return "arrival circle"
        case .routePoint: return "route point"
        case .clearTrack: return "clear track"
        case .anchor(let command):
            switch command {
            case .drop: return "anchor drop"
            case .raise: return "anchor raise"
            case .radius: return "anchor radius"
            case .rode: return "anchor rode"
            case .position: return "anchor at"
            case .restore: return "anchor restored"
            }
        }
    }

    /// Latitude and longitude in degrees to a metre or so, as the routing's log says a place.
    private static func place(_ point: GeoPoint) -> String {
        FixedDecimal.text(point.latitude, decimals: 5) + "," + FixedDecimal.text(point.longitude, decimals: 5)
    }

    /// A name cut to 40 characters (a route's name comes from a client).
    private static func shortened(_ name: String) -> String {
        name.count <= 40 ? name : String(name.prefix(39)) + "…"
    }
}
