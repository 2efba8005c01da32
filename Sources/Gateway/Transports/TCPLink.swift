import Marine

/// The life of a network client's connection, with no I/O (#49): closed and waiting out its backoff, connecting (a
/// non-blocking connect under way, probed each turn), or open. The shell (``TCPClient``) makes the socket and says
/// what happened, with the time; this says when to try again and what is worth a line in the log. Every TCP client
/// of the gateway (a network input, a Yacht Devices gateway, pypilot) keeps its connection through it, so they retry,
/// give up a hung connect and say so alike.
///
/// - A failed attempt (the socket not made, the connect refused, no answer within ``connectLimit``) counts once and
///   pushes the next attempt out by the backoff; only the first of a run is said (``failed(at:)`` returns true).
/// - A connection that worked and then closed is a loss: said each time, and the next attempt after the backoff's
///   first delay.
/// - Connected after failures or a loss is "again" (said as a reconnect).
struct TCPLink: Sendable {
    enum State: Equatable, Sendable {
        case closed
        case connecting(since: Double)
        case open
    }

    private(set) var state = State.closed
    private(set) var backoff: Backoff
    /// Seconds a connect may stay unanswered before it is given up (a host that drops the SYN leaves it pending for
    /// minutes).
    let connectLimit: Double
    /// Connections made, and lost after they were made.
    private(set) var connects = 0
    private(set) var losses = 0

    init(backoff: Backoff, connectLimit: Double = 10) {
        self.backoff = backoff
        self.connectLimit = connectLimit
    }

    /// Whether an attempt is due at `now` (closed, its backoff over).
    func isDue(_ now: Double) -> Bool { state == .closed && backoff.isDue(now) }

    /// When the next attempt is due while closed, for the poll's timeout.
    var retryAt: Double? { state == .closed ? backoff.retryAt : nil }

    /// A non-blocking connect began (the socket is made, the answer not yet in).
    mutating func connecting(at now: Double) { state = .connecting(since: now) }

    /// Whether the connect under way has gone unanswered past its limit.
    func hasTimedOut(at now: Double) -> Bool {
        if case .connecting(let since) = state { return now - since > connectLimit }
        return false
    }

    /// The connection is made (at once, or its connect answered). True when it comes after failures or a loss.
    mutating func connected(at now: Double) -> Bool {
        state = .open
        connects += 1
        // A loss went through the backoff too: after one, as after failures, it is a reconnect.
        return backoff.succeeded()
    }

    /// An attempt failed (the socket not made, the connect refused or given up). True for the first of a run.
    @discardableResult
    mutating func failed(at now: Double) -> Bool {
        state = .closed
        return backoff.failed(at: now)
    }

    /// The open connection closed or failed: a loss, the next attempt after the backoff.
    mutating func lost(at now: Double) {
        guard state == .open else {
            failed(at: now)
            return
        }
        state = .closed
        losses += 1
        backoff.failed(at: now)
    }

    /// Closed on purpose (stopping, or a service looking for its peer elsewhere): no retry is pushed off.
    mutating func close() { state = .closed }

    /// The backoff started again (a new address for the peer).
    mutating func reset(backoff: Backoff) {
        self.backoff = backoff
    }
}
