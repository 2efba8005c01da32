import Platform
import SignalK

/// The uplink's store and forward: every batch of samples is appended to a segment file in the state folder
/// (`uplink/`) before it is sent, and stays there until the broker has acknowledged it, so a link that drops (4G out
/// of coverage, the marina's Wi-Fi) loses nothing, nor does a restart.
///
/// Records are appended whole and synced (`UplinkRecord`: length and CRC-32); a power cut loses at most the batch
/// being gathered and leaves at most a torn last record, which is cut off when the queue is opened. Nothing else is
/// rewritten in place: a segment fully acknowledged is deleted; past `limit` bytes the oldest segment not yet sent is
/// thinned (every second sample of each value, alarms never) and written again whole, atomically. What was sent and
/// acknowledged is kept in `acked` (the last sequence number), written at most every few seconds.
final class UplinkQueue {
    struct Segment {
        var path: String
        var first: UInt64
        var last: UInt64
        var bytes: Int
    }

    let folder: String
    let limit: Int
    /// Segments closed at this size.
    static let segmentBytes = 256 * 1024
    private(set) var segments: [Segment] = []
    /// The last sequence number the broker acknowledged, and the next one to give.
    private(set) var acked: UInt64 = 0
    private(set) var next: UInt64 = 1
    /// Samples thinned away in all (each batch says how many of its own went).
    private(set) var thinnedTotal = 0
    /// Bytes written (records and thinned segments), for the figures of SD card wear.
    private(set) var written = 0
    private var ackedSaved: UInt64 = 0
    private var ackedSavedAt = -Double.infinity

    /// The queue in `folder`, as a restart finds it: torn records cut off, what is acknowledged dropped.
    init(folder: String, limit: Int, log: Log) {
        self.folder = folder
        self.limit = max(limit, 2 * Self.segmentBytes)
        try? POSIX.makeDirectories(folder)
        if let text = try? POSIX.readFile(folder + "/acked", limit: 64),
            let value = UInt64(String(decoding: text, as: UTF8.self).trimmingSpaces)
        {
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
    var waiting: UInt64 { next - 1 - acked }

    /// A new sequence number.
    func take() -> UInt64 {
        defer { next += 1 }
        return next
    }

    /// Appends a batch (synced: a power cut after this loses it not); thins the oldest when over the limit.
    func append(_ batch: UplinkBatch) throws(POSIX.Failure) {
        let record = UplinkRecord.encode(Array(batch.json.utf8))
        if segments.last.map({ $0.bytes + record.count > Self.segmentBytes }) ?? true {
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
    /// every 5 s, and when asked with `force`).
    func acknowledge(through sequence: UInt64, at now: Double, force: Bool = false) {
        if sequence > acked { acked = sequence }
        while let first = segments.first, first.last <= acked, first.last != 0 {
            _ = POSIX.remove(first.path)
            segments.removeFirst()
        }
        guard acked != ackedSaved, force || now - ackedSavedAt >= 5 else { return }
        ackedSaved = acked
        ackedSavedAt = now
        try? POSIX.writeFileAtomically(folder + "/acked", String(acked) + "\n")
    }

    /// Thins the oldest segment holding unsent batches: every second sample of each value, alarms kept; written again
    /// whole. False when there was nothing left to thin.
    private func thinOldest() -> Bool {
        for index in segments.indices {
            let segment = segments[index]
            guard segment.last > acked, index < segments.count - 1,
                let bytes = try? POSIX.readFile(segment.path, limit: 64 << 20)
            else { continue }
            var out: [UInt8] = []
            var dropped = 0
            for range in UplinkRecord.decode(bytes).records {
                guard let batch = UplinkBatch.parse(bytes[range]) else { continue }
                let (thinned, count) = batch.thinning()
                dropped += count
                out += UplinkRecord.encode(Array(thinned.json.utf8))
            }
            guard dropped > 0 else { continue }
            do throws(POSIX.Failure) { try POSIX.writeFileAtomically(segment.path, out) } catch { return false }
            segments[index].bytes = out.count
            written += out.count
            thinnedTotal += dropped
            return true
        }
        return false
    }

    static func padded(_ sequence: UInt64) -> String {
        let text = String(sequence)
        return String(repeating: "0", count: max(0, 12 - text.count)) + text
    }
}
