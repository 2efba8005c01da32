import Marine

/// What the crew can tell the engine, from the panel, a Signal K app, the command line or a button: the words are
/// defined here once, and parsed here for all of them.
public enum EngineCommand: Hashable, Sendable {
    case race(RaceCommand)
    case route(RouteCommand)
    /// Acknowledge an alarm (its ALR then says so, its sound stops).
    case acknowledge(AlarmKind)
    /// Silence an alarm: as `acknowledge`, but one already silent is no refusal (Signal K's `method` without "sound").
    case silence(AlarmKind)
    /// Clear an alarm: back to normal now; raised again, sounding, if its condition still holds past its hold time
    /// (Signal K's `state` set to "normal").
    case clear(AlarmKind)
    /// Go to one point from where the boat is now, instead of the route (Signal K's Course API `destination`).
    case destination(GeoPoint)
    /// Follow a route the crew saved (the Course API's `activeRoute` by href), backwards when `reverse`, heading for
    /// its point `pointIndex`.
    case follow(Route, pointIndex: Int, reverse: Bool)
    /// The arrival circle's radius in metres, from now on (the Course API's `arrivalCircle`).
    case arrivalCircle(Double)
    /// Head for the route's point `index` (0 the first), from the point before it, or for the first from where the
    /// boat is (the Course API's `activeRoute/pointIndex`).
    case routePoint(Int)
    /// The race button was pressed or held.
    case button(ButtonGesture.Gesture)
    /// The anchor watch: drop, raise, the circle's radius, the chain let out.
    case anchor(AnchorCommand)
    /// Forget the track kept so far.
    case clearTrack
}

/// The anchor watch's commands.
public enum AnchorCommand: Hashable, Sendable {
    /// The anchor is down at the bow, now; the circle `radius` metres, or the configured one.
    case drop(radius: Double?)
    /// The anchor is up: the watch ends.
    case raise
    /// The circle's radius in metres; nil: as far as the boat lies from the anchor now, and the margin.
    case radius(Double?)
    /// Metres of chain let out: the circle from the chain's reach (the depth and the bow's height), the bow's
    /// distance to the GPS and the margin. With no anchor set, it is placed that reach ahead of the bow.
    case rode(Double)
    /// The anchor is there (a marker moved on a chart, Signal K's `navigation.anchor.position`).
    case position(GeoPoint)
    /// The watch as it was before a restart (the state folder's `anchor.toml`).
    case restore(AnchorSet)

    /// The words of the command line and the panel.
    public static let words = "drop [RADIUS]|raise|radius [RADIUS]|rode LENGTH"

    /// `drop`, `drop 40`, `raise`, `radius`, `radius 35`, `rode 30` (metres); nil for anything else.
    public static func parse(_ text: String) -> AnchorCommand? {
        let words = text.split(separator: " ")
        guard let word = words.first, words.count <= 2 else { return nil }
        var number: Double?
        if words.count == 2 {
            guard let value = Double(String(words[1])), value.isFinite else { return nil }
            number = value
        }
        switch word {
        case "drop": return .drop(radius: number)
        case "raise": return number == nil ? .raise : nil
        case "radius": return .radius(number)
        case "rode": return number.map { .rode($0) }
        default: return nil
        }
    }

    /// The words that ``parse(_:)`` reads back; nil for a position or a restore, which are not said in words.
    public var words: String? {
        func plain(_ value: Double) -> String {
            value == value.rounded() && value.magnitude < 1e9
                ? String(Int(value)) : FixedDecimal.text(value, decimals: 1)
        }
        switch self {
        case .drop(let radius): return radius.map { "drop " + plain($0) } ?? "drop"
        case .raise: return "raise"
        case .radius(let radius): return radius.map { "radius " + plain($0) } ?? "radius"
        case .rode(let length): return "rode " + plain(length)
        case .position, .restore: return nil
        }
    }
}

/// The race start timer and the start line.
public enum RaceCommand: String, CaseIterable, Hashable, Sendable {
    case start, pause, reset, sync, port, starboard

    /// What the word does, for help texts.
    public var help: String {
        switch self {
        case .start: "start the start sequence (or resume a paused one)"
        case .pause: "hold the countdown"
        case .reset: "stop the timer"
        case .sync: "round the time left to the nearest minute, at a flag"
        case .port: "set the start line's port end at the bow"
        case .starboard: "set the start line's starboard end at the bow"
        }
    }

    /// The words, for a usage line: `start|pause|reset|sync|port|starboard`.
    public static var words: String { allCases.map { $0.rawValue }.joined(separator: "|") }
}

/// The route being followed.
public enum RouteCommand: String, CaseIterable, Hashable, Sendable {
    case start, pause, resume, stop, advance, back, rejoin, reverse

    public var help: String {
        switch self {
        case .start: "follow the route again from its first leg"
        case .pause: "send no guidance until resumed"
        case .resume: "send guidance again"
        case .stop: "stop following"
        case .advance: "skip to the next leg"
        case .back: "go back to the leg before"
        case .rejoin: "start the active leg again from where the boat is (cross-track error from here)"
        case .reverse: "follow the route backwards, to the waypoint last passed, from where the boat is"
        }
    }

    public static var words: String { allCases.map { $0.rawValue }.joined(separator: "|") }
}

/// What came of a command: done, with what was done, or refused, with why, in words for the log, the command line
/// and the panel.
public enum CommandOutcome: Hashable, Sendable {
    case done(String)
    case refused(String)

    public var isDone: Bool { if case .done = self { true } else { false } }

    public var message: String {
        switch self {
        case .done(let text), .refused(let text): text
        }
    }
}
