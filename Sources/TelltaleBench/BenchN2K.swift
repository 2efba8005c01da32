import ArgumentParser
import CPosix
import N2K

/// `telltale-bench n2k-decode FILE`: a recorded NMEA 2000 bus read line by line (the recording's text form parsed,
/// fast packets and transport sessions put back together, every message of a PGN Telltale reads decoded into its
/// typed value), as the gateway reads a bus, without printing; the messages a second over the whole file.
struct N2KDecode: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "n2k-decode",
        abstract: "Time reading a recorded NMEA 2000 bus into typed messages (no output): messages a second.")

    @Option(help: "Passes over the file; the median and the best are reported.")
    var iterations = 5

    @Argument(help: "A recorded bus: candump -l, canboat's plain or fast format, Yacht Devices RAW.")
    var file: String

    func run() throws {
        var times: [Double] = []
        var lines = 0
        var messages = 0
        var typed = 0
        for _ in 0..<max(iterations, 1) {
            let start = monotonicSeconds()
            var receiver = N2KReceiver()
            lines = 0
            messages = 0
            typed = 0
            var pending: [UInt8] = []
            var last = 0.0
            func line(_ text: UnsafeBufferPointer<UInt8>) {
                guard let parsed = N2KLogLine.parse(text) else { return }
                lines += 1
                func take(_ message: N2KMessage) {
                    messages += 1
                    if case .other = N2KValue.decode(message).value {} else { typed += 1 }
                }
                switch parsed {
                case .frame(let frame, let time):
                    last = time ?? last
                    receiver.feed(frame, at: last) { take($0) }
                case .message(let message, _):
                    take(message)
                }
            }
            _ = try readChunks(file) { chunk in
                var from = chunk.startIndex
                while from < chunk.endIndex,
                    let found = memchr(chunk.baseAddress! + from, 10, chunk.endIndex - from)
                {
                    let index = chunk.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
                    if pending.isEmpty {
                        line(UnsafeBufferPointer(rebasing: chunk[from..<index]))
                    } else {
                        pending += chunk[from..<index]
                        pending.withUnsafeBufferPointer { line($0) }
                        pending.removeAll(keepingCapacity: true)
                    }
                    from = index + 1
                }
                pending += chunk[from..<chunk.endIndex]
            }
            if !pending.isEmpty { pending.withUnsafeBufferPointer { line($0) } }
            times.append(monotonicSeconds() - start)
        }
        let sorted = times.sorted()
        let median = sorted[sorted.count / 2]
        print(
            "n2k-decode: \(lines) lines, \(messages) messages (\(typed) of the PGNs Telltale reads) in "
                + "\(Int(median * 1000)) ms median, \(Int(sorted[0] * 1000)) ms best: "
                + "\(Int(Double(messages) / median)) messages a second")
    }
}
