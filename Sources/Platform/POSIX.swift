import CPosix

/// The one funnel to the C library: every system call the gateway makes goes through here, with EINTR retried in
/// this file and nowhere else, and failures turned into a `Failure` that keeps the errno and says what was being
/// done. Written over `CPosix` rather than Glibc so that it compiles unchanged for the Pi (Embedded Swift).
public enum POSIX {
    /// A failed system call: what was being done, on what, and the errno.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public let operation: String
        public let path: String
        public let code: Int32

        public init(operation: String, path: String, code: Int32) {
            self.operation = operation
            self.path = path
            self.code = code
        }

        public var description: String { "\(operation) \(path): \(POSIX.message(code))" }
    }

    /// What a read or a write did: bytes moved, the end of the file, nothing now (non-blocking), or a failure.
    public enum Transfer: Equatable {
        case bytes(Int)
        case end
        case wouldBlock
        case failed(code: Int32)
    }

    /// The calling thread's errno.
    public static var errno: Int32 { cposix_errno() }

    /// The C library's text for an errno.
    public static func message(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// open(2); `operation` and the path name a failure.
    public static func open(
        _ path: String, _ flags: Int32, mode: UInt32 = 0o644, operation: String = "cannot open"
    ) throws(Failure) -> Int32 {
        while true {
            let fd = cposix_open(path, flags | O_CLOEXEC, mode)
            if fd >= 0 { return fd }
            let code = errno
            if code != EINTR { throw Failure(operation: operation, path: path, code: code) }
        }
    }

    public static func close(_ fd: Int32) { _ = CPosix.close(fd) }

    /// Starts `arguments[0]` (looked up on PATH) with its standard streams on /dev/null; nil with the errno when it
    /// cannot start. The caller reaps it with ``reap(_:)``.
    public static func spawn(_ arguments: [String]) -> Result<Int32, Failure> {
        guard let program = arguments.first else {
            return .failure(Failure(operation: "spawn", path: "", code: EINVAL))
        }
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { $0.withCString { strdup($0) } }
        argv.append(nil)
        defer { for pointer in argv { free(pointer) } }
        let pid = argv.withUnsafeMutableBufferPointer { cposix_spawn($0.baseAddress) }
        guard pid > 0 else { return .failure(Failure(operation: "spawn", path: program, code: cposix_errno())) }
        return .success(pid)
    }

    /// Starts the program at `arguments[0]` (a path, not looked up) with its output and errors written to the file
    /// `log`, which it truncates; the caller reaps it with ``reap(_:)`` and reads what it said.
    public static func spawn(_ arguments: [String], log: String) -> Result<Int32, Failure> {
        guard let program = arguments.first else {
            return .failure(Failure(operation: "spawn", path: "", code: EINVAL))
        }
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { $0.withCString { strdup($0) } }
        argv.append(nil)
        defer { for pointer in argv { free(pointer) } }
        let pid = argv.withUnsafeMutableBufferPointer { buffer in
            log.withCString { cposix_spawn_logging(buffer.baseAddress, $0) }
        }
        guard pid > 0 else { return .failure(Failure(operation: "spawn", path: program, code: cposix_errno())) }
        return .success(pid)
    }

    /// This program's own path (`/proc/self/exe`), to start a helper of itself.
    public static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = buffer.withUnsafeMutableBufferPointer { readlink("/proc/self/exe", $0.baseAddress!, 4095) }
        guard length > 0 else { return nil }
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Ends a child that has run too long (SIGKILL); it is still to be reaped.
    public static func kill(_ pid: Int32) { _ = CPosix.kill(pid, SIGKILL) }

    /// A folder's files removed, then the folder (one level: its subfolders are left, and so is it then).
    @discardableResult
    public static func removeFolder(_ path: String) -> Bool {
        for name in list(path) { unlink(path + "/" + name) }
        return rmdir(path) == 0
    }

    /// Whether a process of that number is running (Linux's /proc).
    public static func isRunning(_ pid: Int32) -> Bool { pid > 0 && access("/proc/\(pid)", F_OK) == 0 }

    /// A child's exit status once it has ended (128 + the signal that killed it); nil while it runs.
    public static func reap(_ pid: Int32) -> Int32? {
        let status = cposix_reap(pid)
        return status < 0 ? nil : status
    }

    /// read(2) into `buffer`, EINTR retried.
    public static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Transfer {
        transfer(endsAtZero: !buffer.isEmpty) { interrupted() ? -1 : CPosix.read(fd, buffer.baseAddress, buffer.count) }
    }

    /// A test's knob: while armed, every other read the funnel makes on the arming thread answers EINTR before it
    /// reaches the kernel, as a signal arriving in the middle of a read would. The funnel retries it, and counts it
    /// (``interruptedReads``): a reader that goes around the funnel is neither interrupted nor counted, and the test
    /// sees that. Other threads are never touched. Off in the gateway.
    public static func interruptReads(_ on: Bool) {
        interruptingThread = pthread_self()
        interruptsReads = on
    }

    /// Reads the knob has interrupted on its thread since it was first armed.
    public nonisolated(unsafe) private(set) static var interruptedReads = 0
    nonisolated(unsafe) private static var interruptsReads = false
    nonisolated(unsafe) private static var interruptingThread: pthread_t = 0
    nonisolated(unsafe) private static var readsSeen = 0

    /// Whether this read is one the knob interrupts (errno then says EINTR).
    static func interrupted() -> Bool {
        guard interruptsReads, pthread_equal(pthread_self(), interruptingThread) != 0 else { return false }
        readsSeen &+= 1
        guard readsSeen & 1 == 1 else { return false }
        interruptedReads += 1
        cposix_set_errno(EINTR)
        return true
    }

    /// The one loop every read, write, send and receive goes through: EINTR retried, the result as a `Transfer`.
    /// - Parameter endsAtZero: 0 bytes means the end of the stream (reads), not 0 bytes moved (writes).
    static func transfer(endsAtZero: Bool, _ call: () -> Int) -> Transfer {
        while true {
            let count = call()
            if count > 0 || (count == 0 && !endsAtZero) { return .bytes(count) }
            if count == 0 { return .end }
            let code = errno
            if code == EINTR { continue }
            return code == EAGAIN || code == EWOULDBLOCK ? .wouldBlock : .failed(code: code)
        }
    }

    /// pread(2) at `offset`, EINTR retried.
    public static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Transfer {
        transfer(endsAtZero: true) { interrupted() ? -1 : pread(fd, buffer.baseAddress, buffer.count, off_t(offset)) }
    }

    /// write(2) of as much as goes at once, EINTR retried.
    public static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Transfer {
        transfer(endsAtZero: false) { CPosix.write(fd, bytes.baseAddress, bytes.count) }
    }

    /// ioctl(2) with a pointer argument: the result, and the errno when it is negative.
    public static func ioctl(_ fd: Int32, _ request: UInt, _ argument: UnsafeMutableRawPointer?) -> (
        result: Int32, code: Int32
    ) {
        while true {
            let result = cposix_ioctl(fd, request, argument)
            if result >= 0 { return (result, 0) }
            let code = errno
            if code != EINTR { return (result, code) }
        }
    }

    /// Writes all bytes to a descriptor, retrying partial writes; stops at the first failure.
    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < bytes.count {
            guard case .bytes(let written) = write(fd, UnsafeRawBufferPointer(rebasing: bytes[offset...])),
                written > 0
            else { return }
            offset += written
        }
    }

    public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { writeAll(fd, $0) }
    }

    public static func writeAll(_ fd: Int32, _ text: String) {
        var text = text
        text.withUTF8 { writeAll(fd, UnsafeRawBufferPointer($0)) }
    }

    /// Writes a whole file (created or truncated).
    public static func writeFile(_ path: String, _ text: String) throws(Failure) {
        let fd = try open(path, O_WRONLY | O_CREAT | O_TRUNC, operation: "cannot create")
        writeAll(fd, text)
        close(fd)
    }

    /// The names in a folder, without `.` and `..`; empty when it cannot be read.
    public static func list(_ directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = cposix_next_name(dir) {
            let name = String(cString: entry)
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// poll(2) for at most `milliseconds`; an interruption counts as nothing ready.
    public static func poll(_ descriptors: inout [pollfd], milliseconds: Int32) -> Int32 {
        let ready = CPosix.poll(&descriptors, nfds_t(descriptors.count), milliseconds)
        return ready < 0 && errno == EINTR ? 0 : ready
    }

    /// Whether `fd` has something to read now (poll(2) without waiting).
    public static func readable(_ fd: Int32) -> Bool {
        var descriptors = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
        return poll(&descriptors, milliseconds: 0) > 0 && descriptors[0].revents & Int16(POLLIN) != 0
    }

    /// ppoll(2) for at most `seconds` (to the nanosecond); an interruption counts as nothing ready.
    public static func poll(_ descriptors: inout [pollfd], seconds: Double) -> Int32 {
        let timeout = max(0, seconds)
        let whole = timeout.rounded(.down)
        let ready = cposix_ppoll(&descriptors, nfds_t(descriptors.count), Int(whole), Int((timeout - whole) * 1e9))
        return ready < 0 && errno == EINTR ? 0 : ready
    }

    /// UNIX seconds from the system clock.
    public static func unixTime() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Seconds on the monotonic clock.
    public static func monotonic() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Sleeps until the monotonic clock reads `deadline` seconds (returns at once when it is past).
    public static func sleep(until deadline: Double) {
        let whole = deadline.rounded(.down)
        var target = timespec(tv_sec: time_t(whole), tv_nsec: Int((deadline - whole) * 1e9))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, nil) == EINTR {}
    }

    /// Sleeps for `seconds`.
    public static func pause(seconds: Double) {
        sleep(until: monotonic() + seconds)
    }

    public static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// An environment variable's value, when set.
    public static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }
}
