import Marine

/// The commands the crew gives (``EngineCommand``), carried out at an engine time.
extension Engine {
    /// Carries out `command` at `time`; what was done, or why it could not be.
    public mutating func apply(_ command: EngineCommand, at time: Double) -> CommandOutcome {
        takePosition(at: time)
        return switch command {
        case .race(let race): apply(race, at: time)
        case .route(let route): apply(route)
        case .acknowledge(let kind): acknowledge(kind)
        case .silence(let kind):
            switch acknowledgeAlarm(kind) {
            case nil: .done("alarm \(kind.name) silenced")
            case .alreadyAcknowledged?: .done("alarm \(kind.name) is silent already")
            case let refusal?: Self.refusal(kind, refusal)
            }
        case .clear(let kind): clear(kind)
        case .destination(let point):
            go(to: point)
                ? .done("going to \(Self.text(point))")
                : .refused("no position: a destination needs a current GPS fix")
        case .follow(let route, let index, let reverse):
            follow(route, pointIndex: index, reverse: reverse)
                ? .done(Self.following(route, index, reverse))
                : .refused("the route's points are 0 to \(route.waypoints.count - 1)")
        case .arrivalCircle(let metres):
            setArrivalRadius(metres)
                ? .done("arrival circle \(Int(metres.rounded())) m")
                : .refused("the arrival circle is 0 to \(Int(Self.maximumArrivalRadius)) m")
        case .routePoint(let index): head(toPoint: index)
        case .button(let gesture): press(gesture, at: time)
        case .anchor(let anchor): apply(anchor, at: time)
        case .clearTrack: clearTrack()
        }
    }

    private mutating func apply(_ command: RaceCommand, at time: Double) -> CommandOutcome {
        switch command {
        case .start:
            if case .running = raceTimer.state { return .refused("the race timer is already running") }
            raceTimer.start(at: time)
            return .done("race timer started")
        case .pause:
            guard let left = raceTimer.timeToStart(at: time), left > 0, case .running = raceTimer.state else {
                return .refused("the race timer is not counting down")
            }
            raceTimer.pause(at: time)
            return .done("race timer paused")
        case .reset:
            raceTimer.reset()
            return .done("race timer reset")
        case .sync:
            raceTimer.sync(at: time)
            return .done("race timer synced to the minute")
        case .port, .starboard:
            guard pingStartLine(command == .port ? .port : .starboard) else {
                return .refused("no position: the bow cannot be placed without a current GPS fix")
            }
            return .done("start line: \(command.rawValue) end set at the bow")
        }
    }

    private mutating func apply(_ command: RouteCommand) -> CommandOutcome {
        let noRoute = CommandOutcome.refused("no route: set route in the configuration, or follow one from a plotter")
        switch command {
        case .start:
            return restartRoute() ? .done("route started from its first leg") : noRoute
        case .pause:
            guard route.route != nil else { return noRoute }
            pauseRoute()
            return .done("route paused")
        case .resume:
            guard route.route != nil else { return noRoute }
            resumeRoute()
            return .done("route resumed")
        case .stop:
            stopRoute()
            return .done("route stopped")
        case .advance:
            guard route.route != nil else { return noRoute }
            return advanceRoute() ? .done("route: leg \(route.leg + 1)") : .refused("the active leg is the last")
        case .back:
            guard route.route != nil else { return noRoute }
            guard hasLocalRoute else { return Self.plotterRoute }
            return backRoute() ? .done("route: leg \(route.leg + 1)") : .refused("the active leg is the first")
        case .rejoin:
            guard route.route != nil, route.phase != .stopped else { return noRoute }
            return rejoinRoute() ? .done("route: leg \(route.leg + 1) from here") : Self.noFix
        case .reverse:
            guard route.route != nil else { return noRoute }
            guard hasLocalRoute else { return Self.plotterRoute }
            guard reverseRoute(), let reversed = self.route.route else { return Self.noFix }
            return .done("route reversed: to \(reversed.waypoints[self.route.leg + 1].id)")
        }
    }

    private mutating func clearTrack() -> CommandOutcome {
        track.clear()
        return .done("track cleared")
    }

    private static let plotterRoute = CommandOutcome.refused("the plotter sets this route: change it there")
    private static let noFix = CommandOutcome.refused("no position: that needs a current GPS fix")

    private static func following(_ route: Route, _ index: Int, _ reverse: Bool) -> String {
        let points = reverse ? Array(route.waypoints.reversed()) : route.waypoints
        return "following route \(route.name ?? "route")" + (reverse ? " reversed" : "") + ", to \(points[index].id)"
    }

    private mutating func head(toPoint index: Int) -> CommandOutcome {
        guard let route = route.route else {
            return .refused("no route: set route in the configuration, or follow one from a plotter")
        }
        guard hasLocalRoute else { return Self.plotterRoute }
        guard index >= 0 && index < route.waypoints.count else {
            return .refused("the route's points are 0 to \(route.waypoints.count - 1)")
        }
        return headRoute(toPoint: index) ? .done("route: to \(route.waypoints[index].id)") : Self.noFix
    }

    private mutating func acknowledge(_ kind: AlarmKind) -> CommandOutcome {
        acknowledgeAlarm(kind).map { Self.refusal(kind, $0) } ?? .done("alarm \(kind.name) acknowledged")
    }

    private static func refusal(_ kind: AlarmKind, _ refusal: AlarmMonitor.AcknowledgeRefusal) -> CommandOutcome {
        switch refusal {
        case .notConfigured: .refused("no such alarm: \(kind.name) (it is not switched on in [alarms])")
        case .notActive: .refused("\(kind.name) is not active")
        case .alreadyAcknowledged: .refused("\(kind.name) is already acknowledged")
        }
    }

    /// A position as a sailor reads it: 50°46.800'N 001°17.000'W.
    static func text(_ point: GeoPoint) -> String {
        func part(_ value: Double, _ width: Int, _ positive: String, _ negative: String) -> String {
            let magnitude = value.magnitude
            var degrees = Int(magnitude)
            var thousandths = Int(((magnitude - Double(degrees)) * 60_000).rounded())
            if thousandths >= 60_000 {
                degrees += 1
                thousandths -= 60_000
            }
            var whole = String(degrees)
            while whole.count < width { whole = "0" + whole }
            var minutes = String(thousandths / 1000)
            if minutes.count < 2 { minutes = "0" + minutes }
            var fraction = String(thousandths % 1000)
            while fraction.count < 3 { fraction = "0" + fraction }
            return whole + "°" + minutes + "." + fraction + "'" + (value < 0 ? negative : positive)
        }
        return part(point.latitude, 2, "N", "S") + " " + part(point.longitude, 3, "E", "W")
    }

    private mutating func clear(_ kind: AlarmKind) -> CommandOutcome {
        guard alarmMonitor.isConfigured(kind) else { return Self.refusal(kind, .notConfigured) }
        guard alarmMonitor.clear(kind, at: lastTickTime ?? 0) else {
            return .done("alarm \(kind.name) is normal already")
        }
        return .done("alarm \(kind.name) cleared: it sounds again if its condition still holds")
    }

    /// The race timer's button, as on a dinghy's stopwatch: a press starts the sequence (or resumes it) and, once it
    /// runs, syncs it to the nearest minute at a flag; a hold resets it.
    private mutating func press(_ gesture: ButtonGesture.Gesture, at time: Double) -> CommandOutcome {
        switch gesture {
        case .hold: return apply(.reset, at: time)
        case .press:
            if case .running = raceTimer.state { return apply(.sync, at: time) }
            return apply(.start, at: time)
        }
    }
}
