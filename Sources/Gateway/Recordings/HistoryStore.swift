import Platform
import SignalK

/// The boat's history on the card (#40): once a second the model's values (``HistoryBlock/series``), packed a minute
/// to a block and written into a file a day (`history/2026-06-21.tth`), synced once a minute: a power cut loses the
/// minute under way, never what was written before (a torn block is zeroed at the next start, and skipped by
/// readers). Gentle on the card: a day file is laid out ahead in zeros, 256 KB at a time, and each minute's block
/// overwrites its place and syncs its data alone (fdatasync), so a minute costs the card a data block, not a journal
/// commit for a file that grew. Bounded by `keep` bytes: the oldest days are dropped first. Read back by the History API with the files
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
    /// The file written into, and where its data ends.
    private var current: (name: String, end: Int, size: Int)?
    static let layout = 256 * 1024

    init(folder: String, keepMegabytes: Double, log: Log?) {
        self.folder = folder
        keep = Int(keepMegabytes * 1_048_576)
        self.log = log
        try? POSIX.makeDirectories(folder)
        // The newest file: a torn last block (a power cut while it was written) is zeroed now, and its last minute is
        // where the history goes on from.
        if let newest = files().last {
            let path = folder + "/" + newest.name
            if let bytes = try? POSIX.map(path, limit: 256 << 20) {
                let intact = HistoryBlock.intactLength(bytes)
                let remains = HistoryBlock.remainsLength(bytes, from: intact)
                let size = bytes.count
                HistoryBlock.blocks(bytes) { lastWritten = max(lastWritten, $0.minute) }
                POSIX.unmap(bytes)
                if remains > 0 {
                    try? POSIX.overwrite(path, Array(repeating: 0, count: remains), at: intact)
                    log?.warning(
                        "history.torn",
                        "history: \(newest.name) ended in a torn block (a power cut): \(remains) bytes zeroed",
                        [("path", path)])
                }
                current = (newest.name, intact, size)
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
        if let open = minute, open.minute != minuteNumber { flush() }
        if minute == nil { minute = HistoryBlock.Minute(minute: minuteNumber) }
        let sample = model.historySample()
        let inMinute = Int(second - minuteNumber * 60)
        for (index, value) in sample.enumerated() {
            if let value { minute?.record(index, second: inMinute, value) }
        }
    }

    /// The minute under way, appended and synced (each minute, and when the gateway stops).
    func flush() {
        guard let minute else { return }
        self.minute = nil
        guard !minute.isEmpty else { return }
        let name = Self.name(minute: minute.minute)
        let path = folder + "/" + name
        let block = minute.encode()
        do {
            if current?.name != name {
                // A new day: its file laid out ahead (or, written before by another run, found as it was).
                if POSIX.exists(path), let bytes = try? POSIX.map(path, limit: 256 << 20) {
                    current = (name, HistoryBlock.intactLength(bytes), bytes.count)
                    POSIX.unmap(bytes)
                } else {
                    _ = try POSIX.append(path, Array(repeating: 0, count: Self.layout), truncating: true, sync: true)
                    POSIX.syncFolder(folder)
                    current = (name, 0, Self.layout)
                }
            }
            guard var place = current else { return }
            while place.end + block.count + 4 > place.size {
                place.size = try POSIX.append(
                    path, Array(repeating: 0, count: Self.layout), truncating: false, sync: true)
            }
            try POSIX.overwrite(path, block, at: place.end)
            place.end += block.count
            current = place
            written += block.count
            blocks += 1
            lastWritten = minute.minute
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
