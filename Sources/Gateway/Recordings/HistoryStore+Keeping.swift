import Platform
import SignalK

/// What the history keeps within its room on the card: the files it has, the oldest day thinned, the bound.
extension HistoryStore {
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
        var total = days.reduce(Int64(0)) { $0 + Int64($1.bytes) }
        while total > keep, days.count > 1 {
            if let index = days.dropLast().firstIndex(where: { !$0.name.hasSuffix(Self.thinned) }) {
                let before = days[index].bytes
                if let after = thin(days[index].name) {
                    days[index] = (String(days[index].name.prefix(10)) + Self.thinned, after)
                    total += Int64(after) - Int64(before)
                    continue
                }
            }
            let oldest = days.removeFirst()
            if POSIX.remove(folder + "/" + oldest.name) {
                total -= Int64(oldest.bytes)
                log?.notice(
                    "history.dropped", "history: \(oldest.name) dropped to stay within keep_mb", [("file", oldest.name)]
                )
            } else {
                break
            }
        }
        POSIX.syncFolder(folder)
    }
}
