/// The phones that asked for the boat watch's pushes (`shore_push`: a subscription's endpoint, whose account, its
/// keys) and the shore's own keys (`shore_keys`: VAPID's, one for the whole deployment so that every web side hands
/// out the same).
extension FleetStore {
    struct PushSubscription: Equatable {
        var endpoint: String
        var name: String
        var p256dh: String
        var auth: String
    }

    /// A phone's subscription kept for an account (the same endpoint again: its new keys, its new account).
    func keep(_ subscription: PushSubscription, at time: Double) throws(StoreError) {
        try connection.run(
            "INSERT INTO shore_push (endpoint, name, p256dh, auth, created) VALUES ($1, $2, $3, $4, \(sql.time(5))) "
                + "ON CONFLICT (endpoint) DO UPDATE SET name = excluded.name, p256dh = excluded.p256dh, "
                + "auth = excluded.auth",
            [
                .text(subscription.endpoint), .text(subscription.name), .text(subscription.p256dh),
                .text(subscription.auth), .real(time),
            ])
    }

    /// Whether there was one.
    @discardableResult
    func removeSubscription(_ endpoint: String, name: String? = nil) throws(StoreError) -> Bool {
        if let name {
            return
                !(try connection.run(
                    "DELETE FROM shore_push WHERE endpoint = $1 AND name = $2 RETURNING endpoint",
                    [.text(endpoint), .text(name)])).isEmpty
        }
        return !(try connection.run("DELETE FROM shore_push WHERE endpoint = $1 RETURNING endpoint", [.text(endpoint)]))
            .isEmpty
    }

    /// The subscriptions of these accounts.
    func subscriptions(of names: [String]) throws(StoreError) -> [PushSubscription] {
        guard !names.isEmpty else { return [] }
        let wanted = Set(names)
        return try connection.run("SELECT endpoint, name, p256dh, auth FROM shore_push ORDER BY created").compactMap {
            row -> PushSubscription? in
            guard row.count == 4, let endpoint = row[0], let name = row[1], wanted.contains(name), let p256dh = row[2],
                let auth = row[3]
            else { return nil }
            return PushSubscription(endpoint: endpoint, name: name, p256dh: p256dh, auth: auth)
        }
    }

    /// A key of the shore's by name: the one kept, or `make`'s kept first (the first web side to ask makes it; the
    /// others read that one).
    func key(_ name: String, make: () -> String?) throws(StoreError) -> String? {
        if let kept = try connection.run("SELECT value FROM shore_keys WHERE name = $1", [.text(name)]).first?.first {
            return kept
        }
        guard let made = make() else { return nil }
        try connection.run(
            "INSERT INTO shore_keys (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
            [.text(name), .text(made)])
        return try connection.run("SELECT value FROM shore_keys WHERE name = $1", [.text(name)]).first?.first ?? nil
    }
}
