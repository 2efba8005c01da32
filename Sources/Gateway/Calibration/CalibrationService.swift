import Marine
import Platform

/// The calibration learner on board: `telltale calibrate sailing --history` run as a child process of the gateway
/// (this same program) over the history on the card, so the learning never touches the 10 Hz loop or the daemon's
/// memory. Its report (JSON) and the calibration it learnt wait in the state folder until the crew applies them
/// (``apply()``: the applied file replaced, the one before kept, the gateway restarted on it) or undoes the applied one.
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

    var learnt: String { folder + "/learnt.toml" }
    /// The boat's polar learnt with it (a table, the cells she has sailed steadily): the router takes it.
    static func learntPolar(stateFolder: String) -> String { stateFolder + "/calibration/polar.csv" }
    var previous: String { applied + ".previous" }

    init(history: String, stateFolder: String, applied: String, days: Double, log: Log) {
        self.history = history
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
        let arguments = [
            program, "calibrate", "sailing", "--history", history, "--days", String(days), "--applied", applied,
            "--output", learnt, "--json", "--polar", Self.learntPolar(stateFolder: POSIX.folder(of: folder)),
        ]
        switch POSIX.spawn(arguments, log: folder + "/.report.json") {
        case .success(let pid):
            state = .running(pid: pid, started: now)
            log.notice("calibration.start", "calibration: learning from the last \(Int(days)) days of the history")
            return nil
        case .failure(let failure):
            return "cannot start the learner: \(failure)"
        }
    }

    func nextDue(now: Double) -> Double? { isRunning ? now + 0.5 : nil }

    func service(_ turn: inout Turn) {
        guard case .running(let pid, let started) = state, let status = POSIX.reap(pid) else { return }
        let text =
            (try? POSIX.readFile(folder + "/.report.json", limit: 4 << 20)).map { String(decoding: $0, as: UTF8.self) }
            ?? ""
        let seconds = FixedDecimal.text(turn.now - started, decimals: 1)
        if status == 0, text.hasPrefix("{") {
            state = .learnt(json: text, at: turn.unixTime)
            log.notice("calibration.learnt", "calibration: learnt in \(seconds) s", [("seconds", seconds)])
        } else {
            let message = text.split(separator: "\n").last.map { String($0) } ?? "the learner ended with \(status)"
            state = .failed(message: message, at: turn.unixTime)
            log.warning("calibration.failed", "calibration: \(message)", [("status", "\(status)")])
        }
    }

    func stop(deadline: Double) {
        guard case .running(let pid, _) = state else { return }
        POSIX.kill(pid)
        _ = POSIX.reap(pid)
        state = .failed(message: "stopped", at: POSIX.unixTime())
    }

    /// The learnt calibration made the applied one (the one before kept beside it); the words when it cannot be.
    func apply() -> String? {
        guard POSIX.exists(learnt) else { return "nothing learnt to apply: learn first" }
        do throws(ConfigurationFile.Error) { _ = try CalibrationFile.load(learnt) } catch {
            return "the learnt calibration cannot be applied: \(error)"
        }
        do throws(POSIX.Failure) {
            if POSIX.exists(applied) { try POSIX.writeFileAtomically(previous, try POSIX.readFile(applied)) }
            try POSIX.writeFileAtomically(applied, try POSIX.readFile(learnt))
        } catch {
            return "cannot apply: \(error)"
        }
        log.notice("calibration.applied", "calibration: the learnt calibration applied", [("path", applied)])
        return nil
    }

    /// The applied calibration taken off (kept as the one before); the words when there is none.
    func undo() -> String? {
        guard POSIX.exists(applied) else { return "no calibration is applied" }
        do throws(POSIX.Failure) { try POSIX.writeFileAtomically(previous, try POSIX.readFile(applied)) } catch {
            return "cannot keep the calibration before: \(error)"
        }
        _ = POSIX.remove(applied)
        log.notice("calibration.undone", "calibration: the applied calibration taken off", [("path", applied)])
        return nil
    }
}
