import Fleet

/// Who may look, in the store: `shore_accounts` (name, role, boat, e-mail, the password's Argon2id string) and
/// `shore_sessions` (the SHA-256 of each login's token, whose account, when it began). Every web side of a deployment
/// reads the same sessions, so a login made on one is known to the others within a second.
extension FleetStore {
    /// An account as kept, with its password's hash and when it was made.
    struct KeptAccount {
        var account: ShoreAccount
        var hash: String
        var created: Double
    }

    /// The account made, or replaced when its name is taken (a new password, role, boat or address).
    func keep(_ account: ShoreAccount, hash: String, at time: Double) throws(StoreError) {
        try connection.run(
            "INSERT INTO shore_accounts (name, role, boat, email, hash, created) VALUES ($1, $2, $3, $4, $5, "
                + "\(sql.time(6))) ON CONFLICT (name) DO UPDATE SET role = excluded.role, boat = excluded.boat, "
                + "email = excluded.email, hash = excluded.hash",
            [
                .text(account.name), .text(account.role.rawValue), account.boat.map { .text($0) } ?? .null,
                account.email.map { .text($0) } ?? .null, .text(hash), .real(time),
            ])
    }

    /// The account, its sessions and its phones' push subscriptions gone; whether there was one.
    func removeAccount(_ name: String) throws(StoreError) -> Bool {
        var found = false
        try connection.transaction { () throws(StoreError) in
            try connection.run("DELETE FROM shore_sessions WHERE name = $1", [.text(name)])
            try connection.run("DELETE FROM shore_push WHERE name = $1", [.text(name)])
            found = !(try connection.run("DELETE FROM shore_accounts WHERE name = $1 RETURNING name", [.text(name)]))
                .isEmpty
        }
        return found
    }

    /// How many accounts there are (none: the shore's panel is open).
    func accountCount() throws(StoreError) -> Int {
        try connection.run("SELECT count(*) FROM shore_accounts").first?.first.flatMap { $0 }.flatMap { Int($0) } ?? 0
    }

    /// Every account, by name.
    func accounts() throws(StoreError) -> [KeptAccount] {
        try connection.run(
            "SELECT name, role, boat, email, hash, \(sql.epoch("created")) FROM shore_accounts ORDER BY name"
        ).compactMap(Self.kept)
    }

    /// The accounts of one boat (its owner and crew), whom its alerts go to.
    func accounts(ofBoat boat: String) throws(StoreError) -> [ShoreAccount] {
        try connection.run(
            "SELECT name, role, boat, email, hash, \(sql.epoch("created")) FROM shore_accounts WHERE boat = $1 "
                + "ORDER BY name", [.text(boat)]
        ).compactMap(Self.kept).map(\.account)
    }

    func account(named name: String) throws(StoreError) -> KeptAccount? {
        try connection.run(
            "SELECT name, role, boat, email, hash, \(sql.epoch("created")) FROM shore_accounts WHERE name = $1",
            [.text(name)]
        ).compactMap(Self.kept).first
    }

    static func kept(_ row: [String?]) -> KeptAccount? {
        guard row.count == 6, let name = row[0], let role = row[1].flatMap({ ShoreAccount.Role(rawValue: $0) }),
            let hash = row[4]
        else { return nil }
        return KeptAccount(
            account: ShoreAccount(name: name, role: role, boat: row[2], email: row[3]), hash: hash,
            created: row[5].flatMap { Double($0) } ?? 0)
    }

    /// A login's session kept by its token's digest.
    func keepSession(_ digest: String, name: String, at time: Double) throws(StoreError) {
        try connection.run(
            "INSERT INTO shore_sessions (token, name, created, seen) VALUES ($1, $2, \(sql.time(3)), \(sql.time(3)))",
            [.text(digest), .text(name), .real(time)])
    }

    func removeSession(_ digest: String) throws(StoreError) {
        try connection.run("DELETE FROM shore_sessions WHERE token = $1", [.text(digest)])
    }

    /// The sessions begun before `time` deleted.
    func pruneSessions(before time: Double) throws(StoreError) {
        try connection.run("DELETE FROM shore_sessions WHERE created < \(sql.time(1))", [.real(time)])
    }

    /// Every session with its account (a session of an account removed is gone with it).
    func sessions() throws(StoreError) -> [(digest: String, account: ShoreAccount)] {
        try connection.run(
            "SELECT s.token, a.name, a.role, a.boat, a.email, a.hash, \(sql.epoch("a.created")) FROM shore_sessions s "
                + "JOIN shore_accounts a ON a.name = s.name"
        ).compactMap { row -> (String, ShoreAccount)? in
            guard let digest = row[0], let kept = Self.kept(Array(row.dropFirst())) else { return nil }
            return (digest, kept.account)
        }
    }
}
