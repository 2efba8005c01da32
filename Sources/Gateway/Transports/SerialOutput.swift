import Marine
import Platform

/// A serial output: NMEA 0183 at 4800 baud carries about 480 bytes a second. Sentences beyond that budget are
/// thinned, pass-through before computed ones, and counted; nothing is queued without bound.
final class SerialOutput: OutputTransport {
    let name: String
    let port: SerialPort
    private let log: Log
    private var budget: Double
    private var lastRefill = 0.0
    private(set) var thinned = 0
    /// Sentences that found the device closed (missing, or failed and not yet back).
    private(set) var lost = 0
    /// A device that cannot be opened is tried again once a second.
    private var backoff = Backoff(first: 1, limit: 1)
    private var failedOpens = 0

    init(name: String, path: String, baud: Int, log: Log) {
        self.name = name
        self.log = log
        port = SerialPort(path: path, baud: baud)
        budget = Double(baud) / 10
    }

    /// Sends a sentence if the line has room for it now. A device that cannot be opened is tried again once a
    /// second, and the log says why (the runtime's limiter keeps that to one line per 30 s).
    func send(_ bytes: UnsafeRawBufferPointer, computed: Bool, now: Double) {
        if !port.isOpen {
            guard backoff.isDue(now) else {
                lost += 1
                return
            }
            do {
                try port.open()
                if backoff.succeeded() {
                    log.notice(
                        "output.connected", "output \(name): \(port.path) opened after \(failedOpens) failed tries",
                        [("output", name), ("device", port.path)])
                }
                failedOpens = 0
            } catch {
                failedOpens += 1
                backoff.failed(at: now)
                lost += 1
                log.warning(
                    "output.open-failed", "output \(name): \(error); trying again every second",
                    [("output", name), ("device", port.path)])
                return
            }
        }
        let perSecond = Double(port.baud) / 10
        budget = min(perSecond, budget + (now - lastRefill) * perSecond)
        lastRefill = now
        // Computed sentences may use the whole second's budget; pass-through leaves a quarter of it free for them.
        let reserve = computed ? 0 : perSecond / 4
        guard Double(bytes.count) <= budget - reserve else {
            thinned += 1
            return
        }
        budget -= Double(bytes.count)
        if port.write(bytes) == nil {
            port.close()
            log.warning(
                "output.lost", "output \(name): \(port.path) failed; reopening",
                [("output", name), ("device", port.path)])
        }
    }

    var counts: String {
        ", \(thinned) thinned to fit the line" + (lost > 0 ? ", \(lost) lost while the device was closed" : "")
    }
}
