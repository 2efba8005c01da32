import CPosix
import Fleet
import Platform

/// An ingest worker's journal: every message the broker hands over is appended here (a record: its length and
/// CRC-32, `UplinkRecord`) from inside libmosquitto's callback, before the worker acknowledges it, and the file is
/// emptied once the store has committed them. A worker killed between the two finds them at its next start and
/// stores them (a batch already there is kept once). Survives SIGKILL (the kernel has the bytes); a power cut on the
/// worker's machine may lose the last ones not yet in the store.
final class FleetJournal {
    let path: String
    private var fd: Int32 = -1
    private(set) var bytes = 0

    init(path: String) throws(POSIX.Failure) {
        self.path = path
        fd = try POSIX.open(path, O_WRONLY | O_CREAT | O_APPEND, mode: 0o600, operation: "cannot open the journal")
    }

    deinit { POSIX.close(fd) }

    /// What a killed worker left: each message's (topic, payload).
    func leftOver() -> [(String, [UInt8])] {
        guard let data = try? POSIX.readFile(path, limit: 1 << 30) else { return [] }
        return UplinkRecord.decode(data).records.compactMap { range in
            let record = data[range]
            guard let zero = record.firstIndex(of: 0) else { return nil }
            return (String(decoding: record[record.startIndex..<zero], as: UTF8.self), Array(record[(zero + 1)...]))
        }
    }

    func append(topic: String, payload: UnsafeRawBufferPointer) {
        var record = Array(topic.utf8)
        record.append(0)
        record.append(contentsOf: payload)
        let encoded = UplinkRecord.encode(record)
        POSIX.writeAll(fd, encoded)
        bytes += encoded.count
    }

    /// The store has everything in it.
    func empty() {
        guard bytes > 0 || POSIX.fileSize(path).map({ $0 > 0 }) == true else { return }
        _ = POSIX.truncate(path, to: 0)
        bytes = 0
    }
}
