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
    let keep: Int
    let log: Log?
    /// The series kept: the defaults and those `[history] paths` adds.
    let catalog: [HistoryBlock.Series]
    let vesselInterval: Double
    let vesselCount: Int
    private var minute: HistoryBlock.Minute?
    /// The vessels' samples of the minute under way: few (a station is kept every `vesselInterval` seconds at most),
    /// made into blocks when the minute is written.
    private var vesselSamples: [(context: String, second: Int, values: [Double?])] = []
    /// When each station was last heard and last kept, by its context; forgotten after ten minutes of silence.
    private var vesselsSeen: [String: (heard: Double, kept: Int64)] = [:]
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

    init(
        folder: String, keepMegabytes: Double, log: Log?, paths: [String] = [], vesselInterval: Double = 30,
        vesselCount: Int = 100
    ) {
        self.folder = folder
        keep = Int(keepMegabytes * 1_048_576)
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
    private func recordVessels(_ stations: [SignalKTraffic.Station], second: Int64, inMinute: Int) {
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
    private func vesselBlocks(minute number: Int64) -> [UInt8] {
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

    /// The day files, oldest first, with their sizes.
    func files() -> [(name: String, bytes: Int)] {
        POSIX.list(folder).filter { $0.hasSuffix(".tth") }.sorted().map { ($0, POSIX.fileSize(folder + "/" + $0) ?? 0) }
    }

    /// The ending of a thinned day's file (`2026-06-21.thin.tth`).
    static let thinned = ".thin.tth"
    /// A thinned day keeps a sample of each series every `thinStep` seconds (the first of each ten).
    static let thinStep = 10

    /// Thins a day's file: each of this boat's minutes keeps the first sample of every ten seconds of each series (about
    /// a third of the bytes), the vessels' minutes as they are (a sample every `vessel_interval` already). Written
    /// beside it, synced, renamed into place as `<day>.thin.tth`, and only then the whole day removed: a power cut
    /// leaves the day whole, or both (the whole one removed at the next start), never neither. A series no longer in
    /// `[history] paths` is not carried over. The thinned file's size, or nil when it could not be written.
    func thin(_ name: String) -> Int? {
        let path = folder + "/" + name
        let target = String(name.prefix(10)) + Self.thinned
        let temporary = folder + "/" + target + ".tmp"
        guard let bytes = try? POSIX.map(path, limit: 256 << 20) else { return nil }
        var out: [UInt8] = []
        var size = 0
        var failed = false
        _ = POSIX.remove(temporary)
        func write(sync: Bool) {
            guard !failed else { return }
            do {
                size = try POSIX.append(temporary, out, truncating: size == 0, sync: sync)
            } catch {
                failed = true
            }
            out.removeAll(keepingCapacity: true)
        }
        HistoryBlock.blocks(bytes, catalog: catalog) { decoded in
            var minute = HistoryBlock.Minute(minute: decoded.minute, context: decoded.context, catalog: catalog)
            for index
                in 0..<min(decoded.values.count, decoded.context == nil ? catalog.count : HistoryBlock.vesselSeries)
            {
                var window = -1
                for second in 0..<60 {
                    guard let value = decoded.values[index][second] else { continue }
                    if decoded.context != nil {
                        minute.record(index, second: second, value)
                    } else if index == 1 {
                        // The position's two halves thinned alike: where the latitude was kept.
                        if minute.has(0, second: second) { minute.record(index, second: second, value) }
                    } else if second / Self.thinStep != window {
                        window = second / Self.thinStep
                        minute.record(index, second: second, value)
                    }
                }
            }
            if !minute.isEmpty { out += minute.encode() }
            if out.count >= 64 * 1024 { write(sync: false) }
        }
        POSIX.unmap(bytes)
        write(sync: true)
        guard !failed, (try? POSIX.rename(temporary, to: folder + "/" + target)) != nil else {
            _ = POSIX.remove(temporary)
            log?.error("history.thin", "history: cannot thin \(name)", [("file", name)])
            return nil
        }
        POSIX.syncFolder(folder)
        _ = POSIX.remove(path)
        POSIX.syncFolder(folder)
        log?.notice(
            "history.thinned", "history: \(name) thinned to a sample every \(Self.thinStep) s to stay within keep_mb",
            [("file", name)])
        return size
    }

    /// Keeps the history within its bound: the oldest day kept whole is thinned (``thin(_:)``), and once every day but
    /// the newest is thinned, the oldest days are dropped (the newest file is never thinned or dropped).
    func bound() {
        var days = files()
        var total = days.reduce(0) { $0 + $1.bytes }
        while total > keep, days.count > 1 {
            if let index = days.dropLast().firstIndex(where: { !$0.name.hasSuffix(Self.thinned) }) {
                let before = days[index].bytes
                if let after = thin(days[index].name) {
                    days[index] = (String(days[index].name.prefix(10)) + Self.thinned, after)
                    total += after - before
                    continue
                }
            }
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

    /// Each intact block between two times (UNIX seconds), this boat's and the vessels', the minute under way last.
    private func visit(from: Double, to: Double, _ body: (HistoryBlock.Decoded) -> Void) {
        let firstDay = Self.name(minute: Int64((from / 60).rounded(.down))).prefix(10)
        let lastDay = Self.name(minute: Int64((to / 60).rounded(.down))).prefix(10)
        func wanted(_ minute: Int64) -> Bool { Double(minute) * 60 + 60 > from && Double(minute) * 60 <= to }
        for (name, _) in files() where name.prefix(10) >= firstDay && name.prefix(10) <= lastDay {
            guard let bytes = try? POSIX.map(folder + "/" + name, limit: 256 << 20) else { continue }
            HistoryBlock.blocks(bytes, catalog: catalog) { decoded in
                if wanted(decoded.minute) { body(decoded) }
            }
            POSIX.unmap(bytes)
        }
        if let minute, wanted(minute.minute) {
            let bytes = minute.encode() + vesselBlocks(minute: minute.minute)
            bytes.withUnsafeBytes { raw in HistoryBlock.blocks(raw, catalog: catalog, body) }
        }
    }

    /// A History API query over the files, with the minute under way; `context` is what the answer says the boat's
    /// own context is.
    func answer(_ query: HistoryQuery, context: String) -> String {
        var aggregator = HistoryAggregator(query, catalog: catalog)
        visit(from: query.from, to: query.to) { aggregator.add($0) }
        return aggregator.json(context: query.context ?? context)
    }

    /// The paths with something kept between `from` and `to` for a context (nil: this boat), as the History API
    /// names them.
    func paths(from: Double, to: Double, context: String? = nil) -> [String] {
        var present = Set<Int>()
        visit(from: from, to: to) { decoded in
            guard decoded.context == context else { return }
            for (index, values) in decoded.values.enumerated() where values.contains(where: { $0 != nil }) {
                present.insert(index)
            }
        }
        var paths: [String] = []
        if present.contains(0) { paths.append("navigation.position") }
        for index in 2..<catalog.count where present.contains(index) { paths.append(catalog[index].path) }
        return paths
    }

    /// The contexts with something kept between `from` and `to`: the vessels heard on AIS, this boat's as nil.
    func contexts(from: Double, to: Double) -> [String?] {
        var own = false
        var others = Set<String>()
        visit(from: from, to: to) { decoded in
            if let context = decoded.context { others.insert(context) } else { own = true }
        }
        return (own ? [nil] : []) + others.sorted().map { Optional($0) }
    }

    /// The blocks of the minutes from `from` up to (not including) `to`, as they lie on the card, for a playback; at
    /// most `limit` bytes (the vessels' blocks are left out past it, never the boat's). Nil when nothing is kept at
    /// or after `from`: the playback is over.
    func blocks(from: Double, to: Double, limit: Int = 512 * 1024) -> [UInt8]? {
        var out: [UInt8] = []
        var any = false
        let firstMinute = Int64((from / 60).rounded(.down))
        let lastMinute = Int64((to / 60).rounded(.up))
        let firstDay = Self.name(minute: firstMinute).prefix(10)
        let lastDay = Self.name(minute: lastMinute).prefix(10)
        func take(_ raw: UnsafeRawBufferPointer) {
            HistoryBlock.spans(raw, catalog: catalog) { minute, isVessel, span in
                guard minute >= firstMinute else { return }
                any = true
                guard minute < lastMinute else { return }
                if isVessel && out.count + span.count > limit { return }
                out += raw[span]
            }
        }
        for (name, _) in files() where name.prefix(10) >= firstDay {
            guard let bytes = try? POSIX.map(folder + "/" + name, limit: 256 << 20) else { continue }
            take(bytes)
            POSIX.unmap(bytes)
            if any && name.prefix(10) >= lastDay { break }
        }
        if let minute {
            let bytes = minute.encode() + vesselBlocks(minute: minute.minute)
            bytes.withUnsafeBytes { take($0) }
        }
        return any ? out : nil
    }
}
