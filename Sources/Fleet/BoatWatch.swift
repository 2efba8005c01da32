import Marine

/// The boat watch ashore (#53): what the shore tells an owner about a boat nobody is watching, worked out from what the
/// boat's uplink says, so that it works when the boat's own alarm reaches no one. Sans-I/O: each message and the time
/// in, alerts out (``Action``); delivery (e-mail, Web Push) is the shell's.
///
/// - **The anchor drags**: the circle the boat set (its anchor's position and radius), checked again from each position
///   the boat sends. One fix outside is not a drag (a bad fix, a multipath jump): the alert comes once the boat has
///   been outside for `grace` seconds and `fixes` fixes in a row, with how far she is from the anchor.
/// - **The boat falls silent**: nothing heard for `silentAfter` seconds. Said differently when the boat said it was
///   shutting down (its uplink's clean goodbye) from when it vanished (the broker's last will, or nothing at all).
/// - **The boat's own alarms** (shallow water, a pressure fall, AIS collision, bilge, battery: every notification in
///   alarm or emergency): each said as it comes.
///
/// Each alert is said once, said again every `repeatEvery` seconds until acknowledged, and followed by an "all clear"
/// when its cause is gone (the boat back inside the circle or the anchor raised, heard again, the alarm over).
public struct BoatWatch: Sendable {
    public struct Settings: Hashable, Sendable {
        public var silentAfter = 900.0
        public var grace = 30.0
        public var fixes = 3
        public var repeatEvery = 900.0

        public init() {}
    }

    public enum Kind: Hashable, Sendable {
        case anchorDrag
        case silent
        /// The boat's own notification at this path.
        case alarm(String)
    }

    public struct Alert: Hashable, Sendable {
        public var boat: String
        public var kind: Kind
        public var message: String
        /// Where the boat was last (the drag's position, the silent boat's last fix).
        public var position: GeoPoint?
        /// The drag's distance from the anchor, metres.
        public var distance: Double?
        public var at: Double
    }

    public enum Action: Hashable, Sendable {
        case raise(Alert)
        case again(Alert)
        case clear(Alert)
    }

    struct Open: Sendable {
        var alert: Alert
        var lastSaid: Double
        var acknowledged = false
    }

    struct Boat: Sendable {
        var heard: Double
        var position: GeoPoint?
        var anchor: (position: GeoPoint, radius: Double)?
        var outsideSince: Double?
        var outsideFixes = 0
        var saidGoodbye = false
        var open: [Kind: Open] = [:]
    }

    public var settings: Settings
    var boats: [String: Boat] = [:]

    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// The alerts open now (said, not yet clear), for the panel.
    public var open: [Alert] {
        boats.values.flatMap { $0.open.values.map { $0.alert } }.sorted { ($0.at, $0.boat) < ($1.at, $1.boat) }
    }

    /// Anything heard from the boat: it is not silent (an open silence is cleared).
    public mutating func heard(_ boat: String, at time: Double) -> [Action] {
        var state = boats[boat] ?? Boat(heard: time)
        state.heard = max(state.heard, time)
        state.saidGoodbye = false
        boats[boat] = state
        return clear(boat, .silent, "heard again", at: time)
    }

    /// The boat's uplink said goodbye (a clean stop: the gateway shutting down) or the broker said it vanished.
    public mutating func online(_ boat: String, _ up: Bool, clean: Bool, at time: Double) -> [Action] {
        if up { return heard(boat, at: time) }
        boats[boat, default: Boat(heard: time)].saidGoodbye = clean
        return []
    }

    /// The boat's anchor as it set it (nil: raised, or none), its radius in metres.
    public mutating func anchor(_ boat: String, at position: GeoPoint?, radius: Double?, time: Double) -> [Action] {
        var state = boats[boat] ?? Boat(heard: time)
        guard let position, let radius, radius > 0, radius < 10_000 else {
            state.anchor = nil
            state.outsideSince = nil
            state.outsideFixes = 0
            boats[boat] = state
            return clear(boat, .anchorDrag, "the anchor is up", at: time)
        }
        state.anchor = (position, radius)
        boats[boat] = state
        return []
    }

    /// A position the boat sent.
    public mutating func position(_ boat: String, _ point: GeoPoint, at time: Double) -> [Action] {
        var actions = heard(boat, at: time)
        guard var state = boats[boat] else { return actions }
        state.position = point
        guard let anchor = state.anchor else {
            boats[boat] = state
            return actions
        }
        let distance = Geodesic.wgs84.inverse(anchor.position, point).distance
        if distance <= anchor.radius {
            state.outsideSince = nil
            state.outsideFixes = 0
            boats[boat] = state
            return actions + clear(boat, .anchorDrag, "back inside the circle", at: time)
        }
        state.outsideSince = state.outsideSince ?? time
        state.outsideFixes += 1
        boats[boat] = state
        guard let since = state.outsideSince, time - since >= settings.grace, state.outsideFixes >= settings.fixes,
            state.open[.anchorDrag] == nil
        else { return actions }
        let metres = Int(distance.rounded())
        actions += raise(
            Alert(
                boat: boat, kind: .anchorDrag,
                message: "\(boat) is dragging its anchor: \(metres) m from it, the circle \(Int(anchor.radius)) m",
                position: point, distance: distance, at: time))
        return actions
    }

    /// The boat's own notifications in alarm or emergency now, by path with their messages (the rest are not).
    public mutating func alarms(_ boat: String, _ now: [String: String], at time: Double) -> [Action] {
        var actions: [Action] = []
        let open = boats[boat]?.open.keys.compactMap { kind -> String? in
            if case .alarm(let path) = kind { return path }
            return nil
        }
        for path in open ?? [] where now[path] == nil {
            actions += clear(boat, .alarm(path), "over", at: time)
        }
        for (path, message) in now.sorted(by: { $0.key < $1.key }) where boats[boat]?.open[.alarm(path)] == nil {
            if boats[boat] == nil { boats[boat] = Boat(heard: time) }
            // The boat's own anchor alarm with the distance the shore makes it from the circle the boat sent.
            var distance: Double?
            if DeliveryFilter.isAnchor(.alarm(path)), let anchor = boats[boat]?.anchor,
                let position = boats[boat]?.position
            {
                distance = Geodesic.wgs84.inverse(anchor.position, position).distance
            }
            actions += raise(
                Alert(
                    boat: boat, kind: .alarm(path), message: "\(boat): \(message)", position: boats[boat]?.position,
                    distance: distance, at: time))
        }
        return actions
    }

    /// Whether the open alert of that boat and kind has been acknowledged.
    public func acknowledged(_ boat: String, _ kind: Kind) -> Bool { boats[boat]?.open[kind]?.acknowledged ?? false }

    /// The owner has seen it: no more repeats (the all clear still comes).
    public mutating func acknowledge(_ boat: String, _ kind: Kind) {
        boats[boat]?.open[kind]?.acknowledged = true
    }

    /// Once a second or so: silences found, open alerts said again when due.
    public mutating func tick(at time: Double) -> [Action] {
        var actions: [Action] = []
        for name in boats.keys.sorted() {
            guard let state = boats[name] else { continue }
            if time - state.heard >= settings.silentAfter && state.open[.silent] == nil {
                let minutes = Int(((time - state.heard) / 60).rounded())
                let message =
                    state.saidGoodbye
                    ? "\(name) was switched off (its gateway said goodbye \(minutes) min ago) and has not come back"
                    : "\(name) has gone silent: nothing heard for \(minutes) min, and no goodbye"
                actions += raise(
                    Alert(
                        boat: name, kind: .silent, message: message, position: state.position, distance: nil,
                        at: time))
            }
            for (kind, open) in boats[name]?.open ?? [:]
            where !open.acknowledged
                && time - open.lastSaid >= settings.repeatEvery
            {
                boats[name]?.open[kind]?.lastSaid = time
                actions.append(.again(open.alert))
            }
        }
        return actions
    }

    private mutating func raise(_ alert: Alert) -> [Action] {
        boats[alert.boat, default: Boat(heard: alert.at)].open[alert.kind] = Open(alert: alert, lastSaid: alert.at)
        return [.raise(alert)]
    }

    private mutating func clear(_ boat: String, _ kind: Kind, _ why: String, at time: Double) -> [Action] {
        guard var open = boats[boat]?.open.removeValue(forKey: kind)?.alert else { return [] }
        open.message = "all clear: \(boat) \(why)"
        open.at = time
        if let position = boats[boat]?.position { open.position = position }
        return [.clear(open)]
    }
}
