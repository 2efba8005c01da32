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
///
/// The vessels heard on AIS are kept beside the boat (#40), each in a block of its own context a minute: a sample when
/// the station was heard anew and at most every `vesselInterval` seconds, for at most `vesselCount` stations a minute.
final class HistoryStore {
    let folder: String
    /// The bound in bytes, counted in 64 bits: `keep_mb` may be 100 GB, and on the 32-bit Pi (armhf) `Int` ends at 2 GB
    /// (`keep_mb = 4000` stopped the gateway there at start until 2026-12-03).
    let keep: Int64
    let log: Log?
    /// The series kept: the defaults and those `[history] paths` adds.
    let catalog: [HistoryBlock.Series]
    let vesselInterval: Double
    let vesselCount: Int
    var minute: HistoryBlock.Minute?
    /// The vessels' samples of the minute under way: few (a station is kept every `vesselInterval` seconds at most),
    /// made into blocks when the minute is written.
    var vesselSamples: [(context: String, second: Int, values: [Double?])] = []
    /// When each station was last heard and last kept, by its context; forgotten after ten minutes of silence.
    var vesselsSeen: [String: (heard: Double, kept: Int64)] = [:]
    var lastSecond: Int64?
    /// The last minute on the card: a sample at or before it is not kept (the clock stepped back: a replay begun
    /// again, a wrong time corrected), so the history stays one timeline, in order.
    var lastWritten: Int64 = .min
    var refusedOlder = 0
    var written = 0
    var blocks = 0
    var held = 0
    /// The file written into, and where its data ends.
    var current: (name: String, end: Int, size: Int)?
    static let layout = 256 * 1024

    init(
        folder: String, keepMegabytes: Double, log: Log?, paths: [String] = [], vesselInterval: Double = 30,
        vesselCount: Int = 100
    ) {
        self.folder = folder
        keep = Int64(min(max(keepMegabytes, 0), 1e12) * 1_048_576)
        self.log = log
        catalog = HistoryBlock.catalog(
            adding: paths.map { HistoryBlock.named($0, isAngle: SignalKPaths.info($0).units == "rad") })
        self.vesselInterval = vesselInterval
        self.vesselCount = vesselCount
        try? POSIX.makeDirectories(folder)
        // A thinning cut short: its half-written file goes; a day both whole and thinned keeps the thinned one (it was
        // renamed into place, complete, before the whole one was to be removed).
        for name in POSIX.list(folder) where name.hasSuffix(".tmp") { _ = POSIX.remove(folder + "/" + name) }
        for name in POSIX.list(folder) where name.hasSuffix(Self.thinned) {
            _ = POSIX.remove(folder + "/" + String(name.prefix(10)) + ".tth")
        }
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
        if minute == nil { minute = HistoryBlock.Minute(minute: minuteNumber, catalog: catalog) }
        let sample = model.historySample(catalog: catalog)
        let inMinute = Int(second - minuteNumber * 60)
        for (index, value) in sample.enumerated() {
            if let value { minute?.record(index, second: inMinute, value) }
        }
        recordVessels(model.traffic.stations, second: second, inMinute: inMinute)
    }

    /// The stations heard anew since the last look, each at most every `vesselInterval` seconds.
    func recordVessels(_ stations: [SignalKTraffic.Station], second: Int64, inMinute: Int) {
        guard vesselCount > 0 else { return }
        var kept = Set(vesselSamples.map { $0.context }).count
        for station in stations where station.isKeptInHistory {
            let seen = vesselsSeen[station.context]
            if let seen, seen.heard == station.lastHeard { continue }
            let due = seen.map { Double(second - $0.kept) >= vesselInterval } ?? true
            guard due else { continue }
            let sample = station.historySample
            guard sample[0] != nil, sample[1] != nil else { continue }
            let new = !vesselSamples.contains { $0.context == station.context }
            if new {
                guard kept < vesselCount else { continue }
                kept += 1
            }
            vesselSamples.append((station.context, inMinute, sample))
            vesselsSeen[station.context] = (station.lastHeard, second)
        }
        if vesselsSeen.count > 2 * max(vesselCount, 50) {
            vesselsSeen = vesselsSeen.filter { second - $0.value.kept < 600 }
        }
    }

    /// The vessels' blocks of a minute.
    func vesselBlocks(minute number: Int64) -> [UInt8] {
        var bytes: [UInt8] = []
        var contexts: [String] = []
        for sample in vesselSamples where !contexts.contains(sample.context) { contexts.append(sample.context) }
        for context in contexts {
            var block = HistoryBlock.Minute(minute: number, context: context, catalog: catalog)
            for sample in vesselSamples where sample.context == context {
                for (index, value) in sample.values.enumerated() {
                    if let value { block.record(index, second: sample.second, value) }
                }
            }
            bytes += block.encode()
        }
        return bytes
    }

    /// The minute under way, appended and synced (each minute, and when the gateway stops).
    func flush() {
        guard let minute else { return }
        self.minute = nil
        let vessels = vesselBlocks(minute: minute.minute)
        vesselSamples.removeAll()
        guard !minute.isEmpty || !vessels.isEmpty else { return }
        let name = Self.name(minute: minute.minute)
        let path = folder + "/" + name
        let block = (minute.isEmpty ? [] : minute.encode()) + vessels
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

}
