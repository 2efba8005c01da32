import CPosix

/// Files and folders through the funnel: existence, folders, links resolved, change stamps, and the atomic write
/// that keeps a power cut from leaving half a file.
extension POSIX {
    /// Whether something is at `path` (access(2), F_OK).
    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// This process's id.
    public static var processID: Int32 { getpid() }

    /// Whether this process may write to `path` (access(2), W_OK).
    public static func isWritable(_ path: String) -> Bool { access(path, W_OK) == 0 }

    /// mkdir(2); a folder already there is not a failure.
    public static func makeDirectory(_ path: String, mode: UInt32 = 0o755) throws(Failure) {
        guard mkdir(path, mode_t(mode)) != 0 else { return }
        let code = errno
        if code != EEXIST { throw Failure(operation: "cannot create", path: path, code: code) }
    }

    /// A folder and every missing folder above it (mkdir -p).
    public static func makeDirectories(_ path: String, mode: UInt32 = 0o755) throws(Failure) {
        var prefix = ""
        for part in path.split(separator: "/") {
            prefix += (prefix.isEmpty && !path.hasPrefix("/") ? "" : "/") + part
            try makeDirectory(prefix, mode: mode)
        }
    }

    /// The path with every symbolic link resolved (`/dev/serial0` to `/dev/ttyAMA0`); nil when it does not resolve.
    public static func realPath(_ path: String) -> String? {
        var resolved = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard realpath(path, &resolved) != nil else { return nil }
        return resolved.withUnsafeBufferPointer { buffer in
            String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    /// What tells a file has changed: its modification time and size.
    public struct FileStamp: Equatable, Sendable {
        public var seconds: Int
        public var nanoseconds: Int
        public var size: Int
    }

    /// The file's stamp; nil when it cannot be read.
    public static func stamp(_ path: String) -> FileStamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileStamp(
            seconds: Int(info.st_mtim.tv_sec), nanoseconds: Int(info.st_mtim.tv_nsec), size: Int(info.st_size))
    }

    /// Whether `path` is a folder.
    public static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && Int32(info.st_mode) & S_IFMT == S_IFDIR
    }

    /// Back to the start of a file (lseek(2) to 0).
    public static func rewind(_ fd: Int32) { _ = lseek(fd, 0, SEEK_SET) }

    /// fsync(2): what was written is on the disk when it returns.
    public static func sync(_ fd: Int32, naming path: String) throws(Failure) {
        while fsync(fd) != 0 {
            let code = errno
            if code != EINTR { throw Failure(operation: "cannot write", path: path, code: code) }
        }
    }

    /// The folder a path is in (`.` for a bare name).
    public static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = String(path[..<slash])
        return folder.isEmpty ? "/" : folder
    }

    /// The last part of a path: the file's name.
    public static func baseName(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// Writes a whole file so that a power cut leaves either the old file or the new one, never half of either: a
    /// temporary file beside it, written and synced, renamed over it, and the folder synced so the rename itself
    /// reaches the disk.
    public static func writeFileAtomically(_ path: String, _ bytes: [UInt8], mode: UInt32 = 0o644) throws(Failure) {
        let temporary = path + ".tmp-\(getpid())"
        let fd = try open(temporary, O_WRONLY | O_CREAT | O_TRUNC, mode: mode, operation: "cannot create")
        do throws(Failure) {
            try write(fd, bytes, naming: temporary)
            try sync(fd, naming: temporary)
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        close(fd)
        guard CPosix.rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw Failure(operation: "cannot rename to", path: path, code: code)
        }
        if let dir = try? open(folder(of: path), O_RDONLY | O_DIRECTORY) {
            _ = fsync(dir)
            close(dir)
        }
    }

    /// truncate(2): the file cut to `length` bytes (a torn tail left by a power cut); false when it could not be.
    public static func truncate(_ path: String, to length: Int) -> Bool { CPosix.truncate(path, off_t(length)) == 0 }

    /// Writes all of `bytes` at `offset` of the file at `path` (which must be there) and syncs its data alone
    /// (fdatasync(2)): an overwrite inside the file's length changes no metadata, so the card writes the data's blocks
    /// and no journal.
    public static func overwrite(_ path: String, _ bytes: [UInt8], at offset: Int) throws(Failure) {
        let fd = try open(path, O_WRONLY, operation: "cannot write")
        defer { close(fd) }
        var done = 0
        var failure: Int32?
        bytes.withUnsafeBytes { raw in
            while done < raw.count {
                let wrote = pwrite(fd, raw.baseAddress! + done, raw.count - done, off_t(offset + done))
                if wrote > 0 {
                    done += wrote
                } else if wrote < 0 && errno == EINTR {
                    continue
                } else {
                    failure = wrote < 0 ? errno : EIO
                    return
                }
            }
        }
        if let failure { throw Failure(operation: "cannot write", path: path, code: failure) }
        while fdatasync(fd) != 0 {
            let code = errno
            if code != EINTR { throw Failure(operation: "cannot write", path: path, code: code) }
        }
    }

    /// malloc_trim(3): the heap's free pages given back, so a large answer built once does not stay resident.
    public static func trimHeap() { cposix_trim_heap() }

    /// fsync(2) of a folder: a rename or an unlink in it reaches the disk.
    public static func syncFolder(_ path: String) {
        guard let dir = try? open(path, O_RDONLY | O_DIRECTORY) else { return }
        _ = fsync(dir)
        close(dir)
    }

    /// The size of the file at `path` in bytes (stat(2)); nil when there is none.
    public static func fileSize(_ path: String) -> Int? {
        let size = cposix_file_size(path)
        return size >= 0 ? Int(size) : nil
    }

    public static func writeFileAtomically(_ path: String, _ text: String, mode: UInt32 = 0o644) throws(Failure) {
        try writeFileAtomically(path, Array(text.utf8), mode: mode)
    }

    /// Adds `bytes` to the end of the file at `path` (created, or emptied first with `truncating`), on the disk before
    /// it returns with `sync`; the file's length after.
    public static func append(_ path: String, _ bytes: [UInt8], truncating: Bool, sync: Bool = false) throws(Failure)
        -> Int
    {
        let flags = O_WRONLY | O_CREAT | (truncating ? O_TRUNC : O_APPEND)
        let fd = try open(path, flags, operation: "cannot write")
        defer { close(fd) }
        try write(fd, bytes, naming: path)
        if sync { try self.sync(fd, naming: path) }
        return Int(lseek(fd, 0, SEEK_END))
    }

    /// Writes all of `bytes` to `fd`, partial writes continued; the first failure thrown, naming `path`.
    static func write(_ fd: Int32, _ bytes: [UInt8], naming path: String) throws(Failure) {
        var failure: Int32?
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                switch write(fd, UnsafeRawBufferPointer(rebasing: raw[offset...])) {
                case .bytes(let count) where count > 0: offset += count
                case .failed(let code):
                    failure = code
                    return
                default:
                    failure = EIO
                    return
                }
            }
        }
        if let failure { throw Failure(operation: "cannot write", path: path, code: failure) }
    }

    /// Renames a file (both in one file system).
    public static func rename(_ from: String, to: String) throws(Failure) {
        guard CPosix.rename(from, to) == 0 else { throw Failure(operation: "cannot rename to", path: to, code: errno) }
    }

    /// Removes a file; false when it could not be.
    @discardableResult
    public static func remove(_ path: String) -> Bool { unlink(path) == 0 }
}

/// A file written from the start (created or truncated), closed when it goes away.
public struct OutputFile: ~Copyable {
    public let path: String
    private let descriptor: Int32

    public init(path: String) throws(POSIX.Failure) {
        descriptor = try POSIX.open(path, O_WRONLY | O_CREAT | O_TRUNC, operation: "cannot create")
        self.path = path
    }

    deinit { POSIX.close(descriptor) }

    /// Writes every byte, or throws with the errno of the write that failed.
    public func write(_ bytes: [UInt8]) throws(POSIX.Failure) {
        var offset = 0
        while offset < bytes.count {
            let outcome = bytes.withUnsafeBytes {
                POSIX.write(descriptor, UnsafeRawBufferPointer(rebasing: $0[offset...]))
            }
            switch outcome {
            case .bytes(let count) where count > 0: offset += count
            case .failed(let code): throw POSIX.Failure(operation: "cannot write", path: path, code: code)
            default: throw POSIX.Failure(operation: "cannot write", path: path, code: EIO)
            }
        }
    }
}

/// Text to standard output and standard error.
public enum Console {
    public static func out(_ text: String) { POSIX.writeAll(1, text) }
    public static func error(_ text: String) { POSIX.writeAll(2, text) }
}

extension POSIX {
    /// `count` random bytes from the kernel (getrandom(2)): passphrases and tokens.
    public static func randomBytes(_ count: Int) throws(Failure) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let status = bytes.withUnsafeMutableBytes { cposix_random($0.baseAddress, UInt($0.count)) }
        guard status == 0 else { throw Failure(operation: "cannot read", path: "random bytes", code: errno) }
        return bytes
    }

    /// Starts writing what a file holds to the disk, without waiting (a power cut then loses seconds, not the
    /// page cache's half minute); a failure is only a later start.
    public static func startWriteback(_ fd: Int32) { _ = cposix_start_writeback(fd) }
}

extension POSIX {
    /// Gives back the program's own file pages that startup touched and the loop does not use (see
    /// `cposix_release_program_pages`); the mappings released, or nil where the kernel offers no way.
    public static func releaseProgramPages() -> Int? {
        let released = cposix_release_program_pages()
        return released >= 0 ? Int(released) : nil
    }

    /// This process's resident memory in KiB (VmRSS from /proc/self/status), or nil.
    public static func residentKilobytes() -> Int? {
        guard let bytes = try? readFile("/proc/self/status") else { return nil }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.dropFirst(6).filter { $0 >= "0" && $0 <= "9" })
        }
        return nil
    }
}

/// Files mapped into memory, read-only, and C libraries opened at run time.
extension POSIX {
    /// The file at `path` mapped read-only (pages are read from the disk only when touched, and are the kernel's to
    /// drop again); a file longer than `limit` bytes or empty is refused. Give it back with ``unmap(_:)``.
    public static func map(_ path: String, limit: Int) throws(Failure) -> UnsafeRawBufferPointer {
        let fd = try openFile(path)
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Failure(operation: "cannot stat", path: path, code: errno) }
        let length = Int(info.st_size)
        guard length > 0 else { throw Failure(operation: "empty", path: path, code: EINVAL) }
        guard length <= limit else { throw Failure(operation: "too long to map", path: path, code: EFBIG) }
        guard let address = cposix_map_readonly(fd, length) else {
            throw Failure(operation: "cannot map", path: path, code: errno)
        }
        return UnsafeRawBufferPointer(start: address, count: length)
    }

    /// Gives back a mapping made by ``map(_:limit:)``.
    public static func unmap(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        _ = munmap(UnsafeMutableRawPointer(mutating: base), bytes.count)
    }
}
