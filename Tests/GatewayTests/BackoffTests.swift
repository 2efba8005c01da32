import Marine
import Testing

@testable import Gateway

/// The one backoff every reconnecting input keeps.
@Suite struct BackoffTests {
    @Test("the delays double from the first up to the limit, and start again once a try works")
    func doubling() {
        var backoff = Backoff(first: 0.1, limit: 1)
        #expect(backoff.isDue(0))
        let first = backoff.failed(at: 0)
        #expect(first, "the first failure of a run is the one to say")
        #expect(!backoff.isDue(0.05) && backoff.isDue(0.1))
        var delays: [Double] = [backoff.retryAt]
        var now = 0.1
        for _ in 0..<5 {
            let said = backoff.failed(at: now)
            #expect(!said, "a failure after the first is not said again")
            delays.append(backoff.retryAt - now)
            now = backoff.retryAt
        }
        #expect(delays.map { ($0 * 1000).rounded() / 1000 } == [0.1, 0.2, 0.4, 0.8, 1, 1])
        #expect(backoff.failingSince == 0)
        let recovered = backoff.succeeded()
        #expect(recovered, "working after failures is a reconnect")
        let again = backoff.succeeded()
        #expect(!again)
        #expect(backoff.isDue(now) && backoff.failingSince == nil)
        let firstOfNextRun = backoff.failed(at: now)
        #expect(firstOfNextRun && backoff.retryAt == now + 0.1)
    }
}
