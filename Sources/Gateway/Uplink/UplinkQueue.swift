import Fleet
import Platform
import SignalK

/// The uplink's store and forward: every batch of samples is appended to a segment file in the state folder
/// (`uplink/`) before it is sent, and stays there until the broker has acknowledged it, so a link that drops (4G out
/// of coverage, the marina's Wi-Fi) loses nothing, nor does a restart.
///
/// Records are appended whole and synced (`UplinkRecord`: length and CRC-32); a power cut loses at most the batch
/// being gathered and leaves at most a torn last record, which is cut off when the queue is opened. Nothing else is
/// rewritten in place: a segment fully acknowledged is deleted; past `limit` bytes the oldest segment not yet sent is
/// thinned (every second sample of each value, alarms never; at the last, all but its alarms) and written again
/// whole, atomically. What was sent and acknowledged is kept in `acked` (the last sequence number), written every few
/// seconds and always before a segment goes.
final class UplinkQueue {
    struct Segment {
        var path: String
        var first: UInt64
        var last: UInt64
        var bytes: Int
        /// Whether thinning could still halve it, or empty it (found out once, so that a queue thinned to the bone
        /// is not read through again on every append).
        var halvable = true
        var emptiable = true
    }

    let folder: String
    let limit: Int
    /// Segments closed at this size: 256 KB, or an eighth of a small queue's limit (so that it can be thinned a
    /// segment at a time).
    let segmentBytes: Int
    private(set) var segments: [Segment] = []
    /// The last sequence number the broker acknowledged, and the next one to give.
    private(set) var acked: UInt64 = 0
    private(set) var next: UInt64 = 1
    /// Samples thinned away in all (each batch says how many of its own went).
    private(set) var thinnedTotal = 0
    /// Bytes written (records and thinned segments), for the figures of SD card wear.
    private(set) var written = 0
    /// Batches given up whole (a queue full of alarms and emptied batches), in all.
    private(set) var droppedBatches = 0
    private let log: Log
    private var ackedSaved: UInt64 = 0
    private var ackedSavedAt = -Double.infinity

    /// The queue in `folder`, as a restart finds it: torn records cut off, what is acknowledged dropped.
    init(folder: String, limit: Int, log: Log) {
        self.folder = folder
        self.log = log
        self.limit = max(limit, 16 * 1024)
        segmentBytes = min(256 * 1024, max(2048, limit / 8))
        try? POSIX.makeDirectories(folder)
        if let text = try? POSIX.readFile(folder + "/acked", limit: 64),
            let line = String(decoding: text, as: UTF8.self).split(separator: "\n").first,
            let value = UInt64(String(line).trimmingSpaces), value < 9_000_000_000_000_000
        {
            // A batch's number is below 9e15 (UplinkBatch): a larger one is a broken file, and one more than
            // UInt64's largest would trap.
            acked = value
            ackedSaved = value
        }
        next = acked + 1
        for name in POSIX.list(folder).filter({ $0.hasPrefix("segment-") && $0.hasSuffix(".tq") }).sorted() {
            let path = folder + "/" + name
            guard let bytes = try? POSIX.readFile(path, limit: 64 << 20) else { continue }
            let (records, valid) = UplinkRecord.decode(bytes)
            if valid < bytes.count {
                log.warning(
                    "uplink.torn", "uplink: \(name): \(bytes.count - valid) bytes of a torn record cut off",
                    [("path", path)])
                try? POSIX.writeFileAtomically(path, Array(bytes[0..<valid]))
            }
            var sequences: [UInt64] = []
            for range in records { if let batch = UplinkBatch.parse(bytes[range]) { sequences.append(batch.sequence) } }
            guard let first = sequences.min(), let last = sequences.max(), last > acked else {
                _ = POSIX.remove(path)
                continue
            }
            segments.append(Segment(path: path, first: first, last: last, bytes: valid))
            next = max(next, last + 1)
        }
        segments.sort { $0.first < $1.first }
    }

    /// Bytes the queue holds on disk.
    var size: Int { segments.reduce(0) { $0 + $1.bytes } }

    /// Batches waiting for an acknowledgement.
    var waiting: UInt64 { next - 1 > acked ? next - 1 - acked : 0 }

    /// A new sequence number.
    func take() -> UInt64 {
        defer { next += 1 }
        return next
    }

    /// Appends a batch (synced: a power cut after this loses it not); thins the oldest when over the limit.
    func append(_ batch: UplinkBatch) throws(POSIX.Failure) {
        let record = UplinkRecord.encode(Array(batch.json.utf8))
        if segments.last.map({ $0.bytes + record.count > segmentBytes }) ?? true {
            segments.append(
                Segment(
                    path: folder + "/segment-\(Self.padded(batch.sequence)).tq", first: batch.sequence, last: 0,
                    bytes: 0))
        }
        let index = segments.count - 1
        let length = try POSIX.append(segments[index].path, record, truncating: segments[index].bytes == 0, sync: true)
        segments[index].bytes = length
        segments[index].last = batch.sequence
        written += record.count
        while size > limit, thinOldest() {}
    }

    /// The batches after `sequence` (not yet sent), in order, at most `count`, read from their segment.
    func batches(after sequence: UInt64, count: Int) -> [UplinkBatch] {
        var out: [UplinkBatch] = []
        for segment in segments where segment.last > sequence {
            guard let bytes = try? POSIX.readFile(segment.path, limit: 64 << 20) else { continue }
            for range in UplinkRecord.decode(bytes).records {
                guard let batch = UplinkBatch.parse(bytes[range]), batch.sequence > sequence else { continue }
                out.append(batch)
                if out.count >= count { return out }
            }
        }
        return out
    }

    /// The broker has everything up to `sequence`: segments wholly acknowledged go, the mark is kept (written at most
    /// every 5 s, when a segment is to go, and when asked with `force`). The mark is written before a segment goes: a
    /// restart numbers its batches from the segments and the mark, and neither may be behind the other.
    func acknowledge(through sequence: UInt64, at now: Double, force: Bool = false) {
        // Never past the last number taken (an acknowledgement the broker sent for a batch of an earlier run, or one
        // counted twice, must not make the count of waiting batches wrap).
        let sequence = min(sequence, next - 1)
        if sequence > acked { acked = sequence }
        let done = segments.prefix { $0.last <= acked && $0.last != 0 }.count
        if acked != ackedSaved, force || done > 0 || now - ackedSavedAt >= 5 {
            do throws(POSIX.Failure) { try POSIX.writeFileAtomically(folder + "/acked", String(acked) + "\n") } catch {
                return
            }
            ackedSaved = acked
            ackedSavedAt = now
        }
        guard done > 0, ackedSaved >= segments[done - 1].last else { return }
        for segment in segments.prefix(done) { _ = POSIX.remove(segment.path) }
        segments.removeFirst(done)
    }

    /// Thins the oldest segment holding unsent batches: every second sample of each value, alarms kept; written again
    /// whole. Once no segment has two samples of a value left in a batch, the oldest loses all but its alarms (the
    /// batches stay, numbered, saying how many they lost); once only alarms and emptied batches are left, the oldest
    /// segment goes whole, marked as given up (acknowledged), and said: a queue full for months stays within its
    /// limit. False when there was nothing left to thin.
    private func thinOldest() -> Bool {
        for emptying in [false, true] {
            for index in segments.indices {
                let segment = segments[index]
                guard segment.last > acked, index < segments.count - 1, emptying ? segment.emptiable : segment.halvable,
                    let bytes = try? POSIX.readFile(segment.path, limit: 64 << 20)
                else { continue }
                var out: [UInt8] = []
                var dropped = 0
                for range in UplinkRecord.decode(bytes).records {
                    guard let batch = UplinkBatch.parse(bytes[range]) else { continue }
                    let (thinned, count) = emptying ? batch.emptied() : batch.thinning()
                    dropped += count
                    out += UplinkRecord.encode(Array(thinned.json.utf8))
                }
                guard dropped > 0 else {
                    if emptying { segments[index].emptiable = false } else { segments[index].halvable = false }
                    continue
                }
                do throws(POSIX.Failure) { try POSIX.writeFileAtomically(segment.path, out) } catch { return false }
                segments[index].bytes = out.count
                written += out.count
                thinnedTotal += dropped
                return true
            }
        }
        guard segments.count > 1, let oldest = segments.first, oldest.last > acked else { return false }
        // A segment's numbers are its batches' own (a batch numbered 0, or one past 2^31 on the Pi's 32-bit build,
        // is read from a broken file too).
        let given = oldest.last - max(acked, oldest.first > 0 ? oldest.first - 1 : 0)
        droppedBatches += Int(clamping: given)
        log.error(
            "uplink.full",
            "uplink: the queue on disk is full of alarms and emptied batches; batches \(oldest.first)...\(oldest.last) "
                + "given up (\(droppedBatches) in all): the link has been down too long for queue_mb",
            [("device", "uplink")])
        acknowledge(through: oldest.last, at: 0, force: true)
        return segments.first?.path != oldest.path
    }

    static func padded(_ sequence: UInt64) -> String {
        let text = String(sequence)
        return String(repeating: "0", count: max(0, 12 - text.count)) + text
    }
}
