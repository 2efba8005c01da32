import CPosix

/// SIGINT and SIGTERM ask the running loop to stop, SIGHUP to start again on the configuration file (`systemctl
/// reload telltale`); the handlers only set a flag (all a handler may safely do). SIGPIPE is ignored: a client gone
/// while we write is a failed send, not the end of the gateway.
public enum StopSignal {
    nonisolated(unsafe) private static var raised: sig_atomic_t = 0
    nonisolated(unsafe) private static var reload: sig_atomic_t = 0

    public static func install() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in StopSignal.raised = 1 }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGINT, &action, nil)
        sigaction(SIGTERM, &action, nil)
        var hangUp = sigaction()
        hangUp.__sigaction_handler.sa_handler = { _ in StopSignal.reload = 1 }
        sigemptyset(&hangUp.sa_mask)
        hangUp.sa_flags = 0
        sigaction(SIGHUP, &hangUp, nil)
        cposix_ignore(SIGPIPE)
    }

    /// Whether SIGHUP came since the last call (and forgets it).
    public static func takeReload() -> Bool {
        guard reload != 0 else { return false }
        reload = 0
        return true
    }

    public static var isRaised: Bool { raised != 0 }

    /// Asks the loop to stop from inside the program (tests, a fatal error).
    public static func raise() { raised = 1 }
}

/// A stop for one run of the loop, asked from another thread: a test ending the gateway it started without
/// stopping the others the same process runs (`StopSignal` is the whole process's).
public final class StopRequest: @unchecked Sendable {
    private let flag = UnsafeMutablePointer<Int32>.allocate(capacity: 1)

    public init() { flag.initialize(to: 0) }
    deinit { flag.deallocate() }

    public func raise() { cposix_flag_raise(flag) }
    public var isRaised: Bool { cposix_flag_read(flag) != 0 }
}
