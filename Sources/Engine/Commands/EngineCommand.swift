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
    /// The arrival circle's radius in metres, from now on (the Course API's `arrivalCircle`).
    case arrivalCircle(Double)
    /// Head for the route's point `index` (0 the first), from the point before it, or for the first from where the
    /// boat is (the Course API's `activeRoute/pointIndex`).
    case routePoint(Int)
    /// The race button was pressed or held.
    case button(ButtonGesture.Gesture)
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
