import CPosix
import Engine
import Marine
import Platform

/// The race timer's button on a GPIO line (`[race] button`): wired from the line to ground, pulled up and debounced
/// by the kernel. Its presses and holds reach the loop as ``InputEvent/button(_:)``; a line that cannot be had (no
/// GPIO chip, the line in use) is reported once and tried again every 30 s, and the gateway runs on.
final class GPIOButton: InputTransport {
    let name = "button"
    let chip: String
    let line: Int
    private let log: Log
    private var fd: Int32 = -1
    private var slot = PollSlot()
    /// A line that cannot be had is tried again every 30 s.
    private var backoff = Backoff(first: 30, limit: 30)
    private var gesture = ButtonGesture()
    private(set) var presses = 0

    init(chip: String, line: Int, log: Log) {
        self.chip = chip
        self.line = line
        self.log = log
    }

    /// An already open line's descriptor (a test plays edges down a pipe).
    init(descriptor: Int32, log: Log) {
        chip = "test"
        line = 0
        self.log = log
        fd = descriptor
    }

    func prepare(now: Double, into set: inout PollSet) {
        slot.clear()
        if fd < 0 && backoff.isDue(now) {
            do {
                fd = try POSIX.gpioLine(chip: chip, line: line)
                log.info("button.open", "race button on line \(line) of \(chip)", [("device", chip)])
                backoff.succeeded()
            } catch {
                if backoff.failed(at: now) {
                    log.warning(
                        "button.open-failed", "race button: \(error); trying again every 30 s", [("device", chip)])
                }
            }
        }
        if fd >= 0 { slot.register(fd, into: &set) }
    }

    func nextDue(now: Double) -> Double? { gesture.holdDue ?? (fd < 0 ? backoff.retryAt : nil) }

    func service(now: Double, polled set: PollSet, _ body: (InputEvent) -> Void) {
        if fd >= 0 && !slot.readiness(in: set).isEmpty {
            while true {
                switch POSIX.gpioEdge(fd) {
                case .success(let edge?):
                    // Pulled up: the line falls when the button goes down.
                    if let made = gesture.edge(pressed: !edge.rising, at: edge.time) { emit(made, body) }
                    continue
                case .success(nil):
                    break
                case .failure(let failure):
                    log.warning("button.read-failed", "race button: \(failure)", [("device", chip)])
                    POSIX.close(fd)
                    fd = -1
                    backoff.failed(at: now)
                }
                break
            }
        }
        if let made = gesture.check(at: now) { emit(made, body) }
    }

    private func emit(_ made: ButtonGesture.Gesture, _ body: (InputEvent) -> Void) {
        presses += 1
        body(.button(made))
    }

    var counts: String { presses > 0 ? ", \(presses) presses" : "" }

    func close() {
        if fd >= 0 { POSIX.close(fd) }
        fd = -1
    }
}
