import Platform
import SignalK

/// The boat's history on the card (#40): once a second the model's values (``HistoryBlock/series``), packed a minute
/// to a block and appended to a file a day (`history/2026-06-21.tth`), synced once a minute: a power cut loses the
/// minute under way, never what was written before (a torn block is cut off before the next is appended, and skipped
/// by readers). Bounded by `keep` bytes: the oldest days are dropped first. Read back by the History API with the files
/// mapped for the query alone, so the daemon's memory does not grow with the history kept.
///
/// One clock: a sample is kept only on a clock that is known, the GNSS time of the fixes (or a replay's), or the system
/// clock once systemd says it is synchronized; before that nothing is kept (a Pi without a real-time clock boots on the
/// time it saved, months wrong, and a sample stamped then would be drawn in the wrong place for ever).
final class HistoryStore {
    let folder: String
    let keep: Int
    let log: Log?
    private var minute: HistoryBlock.Minute?
    private var lastSecond: Int64?
    /// The last minute on the card: a sample at or before it is not kept (the clock stepped back: a replay begun
    /// again, a wrong time corrected), so the history stays one timeline, in order.
    private(set) var lastWritten: Int64 = .min
    private(set) var refusedOlder = 0
    private(set) var written = 0
    private(set) var blocks = 0
    private(set) var held = 0

    init(folder: String, keepMegabytes: Double, log: Log?) {
        self.folder = folder
        keep = Int(keepMegabytes * 1_048_576)
        self.log = log
        try? POSIX.makeDirectories(folder)
        // The newest file: a torn last block (a power cut while it was written) is cut off now, and its last minute is
        // where the history goes on from.
        if let newest = files().last {
            let path = folder + "/" + newest.name
            if let bytes = try? POSIX.map(path, limit: 256 << 20) {
                let intact = HistoryBlock.intactLength(bytes)
                let length = bytes.count
                HistoryBlock.blocks(bytes) { lastWritten = max(lastWritten, $0.minute) }
                POSIX.unmap(bytes)
                if intact < length {
                    _ = POSIX.truncate(path, to: intact)
                    log?.warning(
                        "history.torn",
                        "history: \(newest.name) ended in a torn block (a power cut): \(length - intact) bytes cut",
                        [("path", path)])
                }
            }
        }
    }

    /// The day file of a UNIX minute.
    static func name(minute: Int64) -> String {
        String(SignalKTime.text(unixTime: Double(minute) * 60).prefix(10)) + ".tth"
    }

    /// One look at the model, at `unixTime` on the gateway's clock; `known` says whether that clock can be trusted.
    func record(_ model: SignalKModel, unixTime: Double, known: Bool) {
        guard known else {
            held += 1
            return
        }
        let second = Int64(unixTime.rounded(.down))
        if let lastSecond, second == lastSecond { return }
        // A clock stepped backwards (a new fix's time after a wrong one): the minute under way is written, and the
        // samples go on from the new time.
        lastSecond = second
        let minuteNumber = second >= 0 ? second / 60 : (second - 59) / 60
        guard minuteNumber > lastWritten else {
            if refusedOlder == 0 {
                log?.notice(
                    "history.older",
                    "history: the clock is before the last minute kept (a replay begun again?): not kept until it passes it",
                    [])
            }
            refusedOlder += 1
            return
        }
        if let current = minute, current.minute != minuteNumber { flush() }
        if minute == nil { minute = HistoryBlock.Minute(minute: minuteNumber) }
        let sample = model.historySample()
        let inMinute = Int(second - minuteNumber * 60)
        for (index, value) in sample.enumerated() {
            if let value { minute?.record(index, second: inMinute, value) }
        }
    }

    /// The minute under way, appended and synced (each minute, and when the gateway stops).
    func flush() {
        guard let current = minute else { return }
        minute = nil
        guard !current.isEmpty else { return }
        let path = folder + "/" + Self.name(minute: current.minute)
        let block = current.encode()
        do {
            _ = try POSIX.append(path, block, truncating: false, sync: true)
            written += block.count
            blocks += 1
            lastWritten = current.minute
        } catch {
            log?.error("history.write", "history: cannot write \(path): \(error)", [("path", path)])
        }
        if blocks % 60 == 1 { bound() }
    }

    /// The day files, oldest first, with their sizes.
    func files() -> [(name: String, bytes: Int)] {
        POSIX.list(folder).filter { $0.hasSuffix(".tth") }.sorted().map { ($0, POSIX.fileSize(folder + "/" + $0) ?? 0) }
    }

    /// Drops the oldest days while the history is over its bound (today's file is never dropped).
    func bound() {
        var days = files()
        var total = days.reduce(0) { $0 + $1.bytes }
        while total > keep, days.count > 1 {
            let oldest = days.removeFirst()
            if POSIX.remove(folder + "/" + oldest.name) {
                total -= oldest.bytes
                log?.notice(
                    "history.dropped", "history: \(oldest.name) dropped to stay within keep_mb", [("file", oldest.name)]
                )
            } else {
                break
            }
        }
        POSIX.syncFolder(folder)
    }

    /// A History API query over the files, with the minute under way.
    func answer(_ query: HistoryQuery, context: String) -> String {
        var aggregator = HistoryAggregator(query)
        let firstDay = Self.name(minute: Int64((query.from / 60).rounded(.down)))
        let lastDay = Self.name(minute: Int64((query.to / 60).rounded(.down)))
        for (name, _) in files() where name >= firstDay && name <= lastDay {
            guard let bytes = try? POSIX.map(folder + "/" + name, limit: 256 << 20) else { continue }
            HistoryBlock.blocks(bytes) { decoded in
                if aggregator.wants(minute: decoded.minute) { aggregator.add(decoded) }
            }
            POSIX.unmap(bytes)
        }
        if let minute, aggregator.wants(minute: minute.minute) {
            let bytes = minute.encode()
            bytes.withUnsafeBytes { raw in
                if let (decoded, _) = HistoryBlock.decode(raw, at: 0) { aggregator.add(decoded) }
            }
        }
        return aggregator.json(context: context)
    }

    /// The paths with something kept between `from` and `to` (the History API's `paths`).
    func paths(from: Double, to: Double) -> [String] {
        var present = Set<Int>()
        let firstDay = Self.name(minute: Int64((from / 60).rounded(.down)))
        let lastDay = Self.name(minute: Int64((to / 60).rounded(.down)))
        for (name, _) in files() where name >= firstDay && name <= lastDay {
            guard let bytes = try? POSIX.map(folder + "/" + name, limit: 256 << 20) else { continue }
            HistoryBlock.blocks(bytes) { decoded in
                let start = Double(decoded.minute) * 60
                guard start + 60 > from, start <= to else { return }
                for (index, values) in decoded.values.enumerated() where values.contains(where: { $0 != nil }) {
                    present.insert(index)
                }
            }
            POSIX.unmap(bytes)
        }
        var paths: [String] = []
        if present.contains(0) { paths.append("navigation.position") }
        for index in 2..<HistoryBlock.series.count where present.contains(index) {
            paths.append(HistoryBlock.series[index].path)
        }
        return paths
    }
}
