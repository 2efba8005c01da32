import Marine
import Platform

/// The calibration learner on board: `telltale calibrate sailing --history` run as a child process of the gateway
/// (this same program) over the history on the card, so the learning never touches the 10 Hz loop or the daemon's
/// memory. Its report (JSON) and the calibration it learnt wait in the state folder until the crew applies them
/// (``apply()``: the applied file replaced, the one before kept, the engine given it at once) or undoes the applied one.
/// With `[calibration] auto` it learns by itself every few hours and applies what it is sure of (``AutoCalibration``),
/// emitting the calibration for the router (``ServiceEvent/calibrated(_:)``).
final class CalibrationService: Service {
    let name = "calibration"

    enum State {
        case idle
        case running(pid: Int32, started: Double)
        case learnt(json: String, at: Double)
        case failed(message: String, at: Double)
    }

    let history: String
    let folder: String
    /// The calibration the engine applies (`[calibration] file`, else `calibration.toml` beside the state file).
    let applied: String
    let days: Double
    private let log: Log
    private(set) var state = State.idle
    /// The calibration the engine applies, as the applied file says it.
    private(set) var current: SailingCalibration
    /// Why the applied file could not be read at start (the engine then runs uncalibrated), until one is applied or
    /// the file taken off: for the panel.
    private(set) var unreadable: String?
    /// Learning and applying by itself (nil: only when the crew asks), when it started, and when it last learnt.
    let auto: AutoCalibration?
    private var started: Double?
    private var lastLearnt: Double?
    /// Whether the learning running was started by itself (its result then applied by itself).
    private var byItself = false
    /// What it last applied by itself, and when (UNIX seconds), for the panel.
    private(set) var autoApplied: (changes: [String], at: Double)?
    /// Why what it last learnt by itself was not applied, and when (nil once it applies one).
    private(set) var autoHeld: (why: String, at: Double)?
    /// The polar configured (top-level `polar`), and whether the engine sails by the learnt one instead (the crew's
    /// choice, kept as `calibration/use-learnt-polar` in the state folder).
    let configuredPolar: Polar?
    var usesLearntPolar: Bool

    var learnt: String { folder + "/learnt.toml" }
    /// When the calibration now applied was applied or taken off (UNIX seconds on the router's clock, the history's):
    /// the learner reads nothing older, for the history before it holds values corrected otherwise.
    var appliedSince: String { folder + "/applied-since" }
    /// The boat's polar learnt with it (a table, the cells she has sailed steadily): the router takes it.
    static func learntPolar(stateFolder: String) -> String { stateFolder + "/calibration/polar.csv" }
    var previous: String { applied + ".previous" }

    init(
        history: String, stateFolder: String, applied: String, days: Double, current: SailingCalibration,
        auto: AutoCalibration?, configuredPolar: Polar?, unreadable: String? = nil, log: Log
    ) {
        self.history = history
        self.unreadable = unreadable
        self.configuredPolar = configuredPolar
        usesLearntPolar = POSIX.exists(Self.polarChoice(stateFolder: stateFolder))
        self.current = current
        self.auto = auto
        folder = stateFolder + "/calibration"
        self.applied = applied
        self.days = days
        self.log = log
    }

    var isRunning: Bool {
        if case .running = state { return true }
        return false
    }

    /// Starts the learner; the words said when it cannot.
    func start(now: Double) -> String? {
        guard !isRunning else { return "the calibration is being learnt: wait for it" }
        guard let program = POSIX.executablePath() else { return "cannot find this program to learn" }
        do { try POSIX.makeDirectories(folder) } catch { return "\(error)" }
        _ = POSIX.remove(learnt)
        var arguments = [
            program, "calibrate", "sailing", "--history", history, "--days", String(days), "--applied", applied,
            "--output", learnt, "--json", "--polar", Self.learntPolar(stateFolder: POSIX.folder(of: folder)),
        ]
        if let bytes = try? POSIX.readFile(appliedSince, limit: 64),
            let since = Double(String(decoding: bytes, as: UTF8.self).filter { $0 != "\n" })
        {
            arguments += ["--since", FixedDecimal.text(since, decimals: 0)]
        }
        switch POSIX.spawn(arguments, log: folder + "/.report.json") {
        case .success(let pid):
            state = .running(pid: pid, started: now)
            lastLearnt = now
            log.notice("calibration.start", "calibration: learning from the last \(Int(days)) days of the history")
            return nil
        case .failure(let failure):
            return "cannot start the learner: \(failure)"
        }
    }

    func start(_ turn: inout Turn) { started = turn.now }

    func nextDue(now: Double) -> Double? {
        if isRunning { return now + 0.5 }
        guard let auto else { return nil }
        return auto.due(started: started ?? now, lastLearnt: lastLearnt)
    }

    func service(_ turn: inout Turn) {
        if let auto, !isRunning {
            if started == nil { started = turn.now }
            if turn.now >= auto.due(started: started ?? turn.now, lastLearnt: lastLearnt) {
                byItself = true
                if let refused = start(now: turn.now) {
                    byItself = false
                    lastLearnt = turn.now  // tried: again after `every`
                    log.warning("calibration.auto", "calibration: cannot learn by itself: \(refused)")
                }
            }
            return
        }
        guard case .running(let pid, let started) = state, let status = POSIX.reap(pid) else { return }
        let text =
            (try? POSIX.readFile(folder + "/.report.json", limit: 4 << 20)).map { String(decoding: $0, as: UTF8.self) }
            ?? ""
        let seconds = FixedDecimal.text(turn.now - started, decimals: 1)
        if status == 0, text.hasPrefix("{") {
            state = .learnt(json: text, at: turn.unixTime)
            log.notice("calibration.learnt", "calibration: learnt in \(seconds) s", [("seconds", seconds)])
            if byItself { applyByItself(&turn) }
        } else {
            let message = text.split(separator: "\n").last.map { String($0) } ?? "the learner ended with \(status)"
            state = .failed(message: message, at: turn.unixTime)
            log.warning("calibration.failed", "calibration: \(message)", [("status", "\(status)")])
        }
        byItself = false
    }

    /// What was learnt by itself, applied when ``AutoCalibration`` finds a change worth it.
    private func applyByItself(_ turn: inout Turn) {
        guard let auto, let learnt = try? CalibrationFile.load(self.learnt) else { return }
        if case .learnt(let json, _) = state, let why = auto.refusal(CalibrationReportJSON.newestDays(json)) {
            autoHeld = (why, turn.unixTime)
            log.notice("calibration.auto", "calibration: learnt by itself, not applied: \(why)", [("why", why)])
            return
        }
        let changes = auto.changes(from: current, to: learnt)
        guard !changes.isEmpty else {
            log.info("calibration.auto", "calibration: learnt by itself, nothing new sure enough to apply")
            return
        }
        if let refused = apply(at: turn.unixTime) {
            log.warning("calibration.auto", "calibration: cannot apply by itself: \(refused)")
            return
        }
        autoApplied = (changes, turn.unixTime)
        autoHeld = nil
        log.notice(
            "calibration.auto", "calibration: applied by itself: " + changes.joined(separator: ", "),
            [("changes", changes.joined(separator: "; "))])
        turn.emit(.calibrated(current))
    }

    func stop(deadline: Double) {
        guard case .running(let pid, _) = state else { return }
        POSIX.kill(pid)
        _ = POSIX.reap(pid)
        state = .failed(message: "stopped", at: POSIX.unixTime())
    }

    /// The learnt calibration made the applied one (the one before kept beside it); the words when it cannot be.
    func apply(at unixTime: Double) -> String? {
        guard POSIX.exists(learnt) else { return "nothing learnt to apply: learn first" }
        let calibration: SailingCalibration
        do throws(ConfigurationFile.Error) { calibration = try CalibrationFile.load(learnt) } catch {
            return "the learnt calibration cannot be applied: \(error)"
        }
        do throws(POSIX.Failure) {
            if POSIX.exists(applied) { try POSIX.writeFileAtomically(previous, try POSIX.readFile(applied)) }
            try POSIX.writeFileAtomically(applied, try POSIX.readFile(learnt))
        } catch {
            return "cannot apply: \(error)"
        }
        current = calibration
        unreadable = nil
        keepSince(unixTime)
        log.notice("calibration.applied", "calibration: the learnt calibration applied", [("path", applied)])
        return nil
    }

    /// The applied calibration taken off (kept as the one before); the words when there is none.
    func undo(at unixTime: Double) -> String? {
        guard POSIX.exists(applied) else { return "no calibration is applied" }
        do throws(POSIX.Failure) { try POSIX.writeFileAtomically(previous, try POSIX.readFile(applied)) } catch {
            return "cannot keep the calibration before: \(error)"
        }
        _ = POSIX.remove(applied)
        current = SailingCalibration()
        unreadable = nil
        keepSince(unixTime)
        log.notice("calibration.undone", "calibration: the applied calibration taken off", [("path", applied)])
        return nil
    }

    private func keepSince(_ unixTime: Double) {
        try? POSIX.writeFileAtomically(appliedSince, Array((FixedDecimal.text(unixTime, decimals: 0) + "\n").utf8))
    }
}
