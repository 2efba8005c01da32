/// The one-line status on a terminal, redrawn in place every second, and kept apart from the log: a log line
/// first clears the status line, then the status line is drawn again under it, so neither ends up on the end of
/// the other.
final class StatusLine {
    private let write: (String) -> Void
    private(set) var text = ""
    private(set) var isShown = false

    /// `write` puts bytes on the terminal (standard error).
    init(write: @escaping (String) -> Void) {
        self.write = write
    }

    func show(_ text: String) {
        self.text = text
        isShown = true
        write("\r" + text + "\u{1B}[K")
    }

    /// Writes a log line (through `body`) with the status line out of its way.
    func interrupt(_ body: () -> Void) {
        guard isShown else { return body() }
        write("\r\u{1B}[K")
        body()
        write("\r" + text + "\u{1B}[K")
    }

    /// Leaves the status line where it is and moves to the next line (on stopping).
    func finish() {
        guard isShown else { return }
        isShown = false
        write("\n")
    }
}
