import Engine
import Marine
import Platform
import Router

/// What the runtime tells: the periodic summary, the terminal's status line, the counts tests and benchmarks read.
extension Runtime {
    /// The port each listening output listens on (useful when configured as 0).
    public var tcpPorts: [String: Int] { outputs.listeningPorts }

    /// Each client-serving output's counts: clients accepted and dropped, sentences lost to slow clients.
    public var tcpStatistics: [String: TCPServer.Statistics] {
        var result: [String: TCPServer.Statistics] = [:]
        for output in outputs.outputs { if let s = output.transport.clientStatistics { result[output.name] = s } }
        return result
    }

    /// Whether every finite input (a log played once) has played to its end; false when there is none.
    public var fileInputsFinished: Bool { inputs.finished }

    /// The port the Signal K server listens on, when `[web]` is on.
    public var webPort: Int? { web?.port }

    /// One line per input and output: what went through and what went wrong since the start.
    public func summary() -> String {
        var parts: [String] = []
        for input in inputs.inputs {
            let counts = input.source.index < router.sources.count ? router.sources[input.source.index] : .init()
            var text = "\(input.name): \(counts.received) in" + input.transport.counts
            if counts.implausible > 0 { text += ", \(counts.implausible) implausible" }
            parts.append(text)
        }
        for (index, output) in outputs.outputs.enumerated() {
            var text = "\(output.name): \(output.sent) out"
            let limited = router.rateLimitedPerOutput[index]
            if limited > 0 { text += ", \(limited) rate-limited" }
            parts.append(text + output.transport.counts)
        }
        return "summary: " + parts.joined(separator: "; ")
            + "; \(router.counters.invalid) unreadable, \(router.counters.echoes) echoes"
    }

    /// Once a second: the summary when due (never held back), what the log held back once its 30 s are over, the
    /// route file read again when it changed, the status line on a terminal.
    func housekeeping(at now: Double) {
        keepAutopilots(at: now)
        keepRouting()
        if chores.programPagesReleased < Self.releaseAfter.count,
            now - clock.startTime >= Self.releaseAfter[chores.programPagesReleased]
        {
            chores.programPagesReleased += 1
            releaseProgramPages("the startup code's pages")
        }
        if let at = chores.releaseAgainAt, now >= at {
            chores.releaseAgainAt = nil
            releaseProgramPages("the code a forecast, a plan or a calibration paged in")
        } else if chores.programPagesReleased == Self.releaseAfter.count,
            now - chores.lastRelease >= Self.releaseEvery
        {
            // What a rare request paged in (a settings page, a file sent from a phone) does not stay for the voyage.
            releaseProgramPages("the code paged in again", quietly: true)
        }
        if let interval = configuration.summaryInterval, now - chores.lastSummary >= interval {
            chores.lastSummary = now
            let counters = router.counters
            log(
                LogEvent(
                    .info, "summary", summary(),
                    [("in", "\(counters.sentencesIn)"), ("out", "\(counters.sentencesOut)")], throttled: false))
        }
        watchInputs(now: now)
        logGate.sayHeldBack()
        reloadRoute()
        if let weather, let report = lastReport {
            weather.judge(at: report.values.position?.point, time: report.unixTime)
        }
        if configuration.statusLine && POSIX.isTerminal(2) { status.show(statusLine(at: engineTime(now))) }
    }

    /// Once the gateway has settled, the startup code's pages go back to the kernel: what the loop uses comes back
    /// page by page (on a Pi this halves the program's resident memory). `what`: the pages the log line names (the
    /// startup code's only at start). `quietly`: said only at debug level unless it gave back a megabyte or more (the
    /// backstop every ``releaseEvery`` seconds).
    func releaseProgramPages(_ what: String, quietly: Bool = false) {
        chores.lastRelease = POSIX.monotonic()
        let before = POSIX.residentKilobytes()
        guard let released = POSIX.releaseProgramPages(), released > 0, let before,
            let after = POSIX.residentKilobytes()
        else { return }
        let words = "memory: \(what) given back (resident \(before) KiB, now \(after) KiB)"
        let metadata: [(key: String, value: String)] = [("before_kib", "\(before)"), ("after_kib", "\(after)")]
        if quietly && before - after < 1024 {
            log.debug("memory.released", words, metadata)
        } else {
            log.info("memory.released", words, metadata)
        }
    }

    /// One line for the terminal: time, traffic, clients, wind, the next waypoint.
    func statusLine(at elapsed: Double) -> String {
        let counters = router.counters
        var parts = ["telltale \(Int(elapsed))s", "in \(counters.sentencesIn)", "out \(counters.sentencesOut)"]
        let clients = outputs.clientCount
        parts.append("\(clients) client" + (clients == 1 ? "" : "s"))
        guard let v = lastReport?.values else { return parts.joined(separator: " | ") }
        if let wind = v.trueWind {
            let knots = FixedDecimal.text(Units.knots(metresPerSecond: wind.speed), decimals: 1)
            parts.append("TWA \(Int(wind.angle.rounded())) TWS \(knots) kn")
        }
        if let heading = v.headingTrue { parts.append("HDG \(Int(heading.rounded()))") }
        if let nav = v.navigation {
            let side = nav.crossTrack > 0 ? "R" : "L"
            let distance = FixedDecimal.text(nav.distanceToWaypoint / 1852, decimals: 2)
            parts.append("\(nav.destination.id) \(distance) NM XTE \(Int(abs(nav.crossTrack).rounded())) m \(side)")
        }
        return parts.joined(separator: " | ")
    }
}
