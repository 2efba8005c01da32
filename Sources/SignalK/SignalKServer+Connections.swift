/// Connections that clean themselves: who is let in when the slots are full, and the clocks that close what a client
/// left behind (a request never finished, a keep-alive never used again, a stream whose phone went to sleep).
///
/// Phones that sleep with a socket open, and slow-loris clients, used to hold every slot: 32 of them kept every app
/// out. Now an idle HTTP connection gives its slot to a newcomer, a request has `requestTimeout` seconds, an idle
/// keep-alive `idleTimeout`, a stream is pinged after `pingInterval` of silence and dropped after as long again, and
/// no one address may hold more than its share of connections or streams.
extension SignalKServer {
    public enum Admission: Equatable, Sendable {
        case accept
        /// Accept, once this connection (an idle one) has been closed to make room.
        case evict(Int)
        /// Answer 503 and close.
        case refuse
    }

    /// Whether a client connecting from `peer` is let in. Over a limit, the connection that has waited longest
    /// without a request (one already closing first) makes room; streams and requests being answered are never
    /// evicted, so a flood of connections can only push out idle sockets.
    public func admission(of peer: [UInt8]) -> Admission {
        let fromPeer = connections.filter { $0.value.peer == peer }
        if fromPeer.count >= configuration.maximumPerAddress {
            return Self.evictable(fromPeer).map(Admission.evict) ?? .refuse
        }
        if connections.count >= configuration.maximumConnections {
            return Self.evictable(connections).map(Admission.evict) ?? .refuse
        }
        return .accept
    }

    /// The connection to close to make room: one closing already, else the HTTP connection idle longest.
    static func evictable(_ candidates: [Int: Connection]) -> Int? {
        let idle = candidates.filter { $0.value.closing || ($0.value.socket == nil && !$0.value.awaiting) }
        return idle.min { a, b in
            if a.value.closing != b.value.closing { return a.value.closing }
            return (a.value.lastHeard, a.key) < (b.value.lastHeard, b.key)
        }?.key
    }

    /// Notes that the shell closed `id` to make room (see ``admission(of:)``).
    public mutating func evicted(_ id: Int) {
        counters.evicted += 1
        closed(id)
    }

    /// Whether another stream may open for `peer`.
    func streamAllowed(for peer: [UInt8]) -> Bool {
        let streams = connections.values.filter { $0.socket != nil && !$0.closing }
        return streams.count < configuration.maximumStreams
            && streams.filter({ $0.peer == peer }).count < configuration.maximumStreamsPerAddress
    }

    /// The clocks, run by the shell about once a second: requests that took too long (408), idle HTTP connections
    /// closed, silent streams pinged and, still silent a ping interval later, dropped (close 1001).
    public mutating func housekeep(at now: Double, _ act: (Action) -> Void) {
        for id in connections.keys.sorted() {
            guard var connection = connections[id], !connection.closing, !connection.awaiting else { continue }
            if connection.socket != nil {
                if let ping = connection.pingSent {
                    if now - ping >= configuration.pingInterval {
                        counters.timedOut += 1
                        act(.send(connection: id, bytes: WebSocket.closeFrame(1001)))
                        close(id, &connection, act)
                    }
                } else if now - connection.lastHeard >= configuration.pingInterval {
                    connection.pingSent = now
                    act(.send(connection: id, bytes: WebSocket.frame(.ping, Array("telltale".utf8))))
                }
            } else if let started = connection.requestStarted {
                if now - started >= configuration.requestTimeout {
                    counters.timedOut += 1
                    act(.send(connection: id, bytes: HTTPResponse.error(408, "the request took too long")))
                    close(id, &connection, act)
                }
            } else if now - connection.lastHeard >= configuration.idleTimeout {
                counters.timedOut += 1
                close(id, &connection, act)
            }
            connections[id] = connection
        }
    }
}
