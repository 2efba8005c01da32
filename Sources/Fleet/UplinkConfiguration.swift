import SignalK

/// `[uplink]`: the shore broker, the boat's name in topics, what goes ashore and how often, the queue's size, and
/// whether (and how) commands from shore are taken.
public struct UplinkConfiguration: Sendable, Equatable {
    /// `mqtt://host:1883` or `mqtts://host:8883`.
    public var host = ""
    public var port = 1883
    public var tls = false
    /// The boat's id in topics (`telltale/<boat>/...`): letters, digits, `-` and `_`.
    public var boat = ""
    public var username: String?
    public var password: String?
    /// A CA file for `mqtts`, and a client certificate and its key when the broker asks for one.
    public var ca: String?
    public var certificate: String?
    public var key: String?
    /// Seconds between samples, per group sent (a group left out is not sent).
    public var groups: [UplinkGroup: Double] = {
        var groups: [UplinkGroup: Double] = [:]
        for group in UplinkGroup.allCases { groups[group] = group.defaultInterval }
        return groups
    }()
    /// Seconds of samples in one history batch.
    /// Every broker configured (`[uplink] broker` as a list); the boat uses the one ``brokerIndex(boat:of:)`` picks.
    public var brokers: [String] = []
    public var batchSeconds = 10.0
    /// Bytes the queue on disk may hold while the link is down before its oldest samples are thinned.
    public var queueBytes = 64 << 20
    /// Backlog batches sent a second at most when the link returns (the live values go on beside them).
    public var backlogRate = 20.0
    /// The broker's keep-alive: a link that goes silent is found within one and a half of it.
    public var keepAlive = 10
    /// Commands from shore (off by default): taken only when signed with `commandKey` (HMAC-SHA256), fresh, and one
    /// of `RemoteCommand`'s few.
    public var commands = false
    public var commandKey: String?

    public init() {}

    /// The topic root of this boat.
    public var root: String { "telltale/" + boat + "/" }

    /// A boat's id as topics want it.
    /// Which of `count` brokers a boat uses: FNV-1a (32 bits) of its name, modulo the count. Stable across restarts,
    /// builds and machines (no seeded hash), so a boat's history stays on one broker; a shore that adds a broker moves
    /// about one boat in N+1, as Victron's VRM assigns its devices.
    public static func brokerIndex(boat: String, of count: Int) -> Int {
        guard count > 1 else { return 0 }
        var hash: UInt32 = 2_166_136_261
        for byte in boat.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 16_777_619
        }
        return Int(hash % UInt32(count))
    }

    public static func isBoatName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 64
            && name.utf8.allSatisfy { byte in
                (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || byte == 45
                    || byte == 95
            }
    }

    /// The broker's URL read: scheme, host and port (1883, or 8883 for `mqtts`); nil when it is not one.
    public static func broker(_ url: String) -> (host: String, port: Int, tls: Bool)? {
        let tls: Bool
        let rest: Substring
        if url.hasPrefix("mqtt://") {
            tls = false
            rest = url.dropFirst(7)
        } else if url.hasPrefix("mqtts://") {
            tls = true
            rest = url.dropFirst(8)
        } else {
            return nil
        }
        let authority = rest.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        var host = Substring(authority)
        var port = tls ? 8883 : 1883
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            let after = host[host.index(after: close)...]
            host = host[host.index(after: host.startIndex)..<close]
            if after.hasPrefix(":") {
                guard let p = Int(after.dropFirst()), (1...65_535).contains(p) else { return nil }
                port = p
            } else if !after.isEmpty {
                return nil
            }
        } else if let colon = host.lastIndex(of: ":") {
            guard let p = Int(host[host.index(after: colon)...]), (1...65_535).contains(p) else { return nil }
            port = p
            host = host[..<colon]
        }
        guard !host.isEmpty else { return nil }
        return (String(host), port, tls)
    }
}
