#if canImport(Glibc)
    import Glibc
#endif

/// An OS thread for tests that must not share Swift's cooperative pool (which has as many threads as cores):
/// a loop that blocks, or a client that must keep reading while other tests run.
public final class TestThread: @unchecked Sendable {
    private var thread = pthread_t()
    private let body: @Sendable () -> Void

    public init(_ body: @escaping @Sendable () -> Void) {
        self.body = body
        let context = Unmanaged.passRetained(self).toOpaque()
        pthread_create(
            &thread, nil,
            { context in
                let me = Unmanaged<TestThread>.fromOpaque(context!).takeRetainedValue()
                me.body()
                return nil
            }, context)
    }

    /// Waits for the thread to finish.
    public func join() {
        pthread_join(thread, nil)
    }
}
