/// Who may look at the shore's panel, and at which boats: the shore's administrator (every boat, the accounts), a race
/// committee (every boat entered in its races), and each boat's owner and crew (their boat alone). What an account
/// sees is said here once; the web side asks ``sees(_:entered:)`` of every answer that names a boat.
public struct ShoreAccount: Hashable, Sendable {
    public enum Role: String, CaseIterable, Sendable {
        case admin
        case committee
        case owner
        case crew
    }

    public var name: String
    public var role: Role
    /// The boat of an owner or a crew (its uplink id); nil for the others.
    public var boat: String?
    /// Where the boat watch's alerts go.
    public var email: String?

    public init(name: String, role: Role, boat: String? = nil, email: String? = nil) {
        self.name = name
        self.role = role
        self.boat = boat
        self.email = email
    }

    /// Whether this account may see `boat` (`entered`: the boats of the races, the committee's).
    public func sees(_ boat: String, entered: Set<String>) -> Bool {
        switch role {
        case .admin: true
        case .committee: entered.contains(boat)
        case .owner, .crew: self.boat == boat
        }
    }

    /// The boats this account sees, nil for every boat (the administrator).
    public func boats(entered: Set<String>) -> Set<String>? {
        switch role {
        case .admin: nil
        case .committee: entered
        case .owner, .crew: boat.map { [$0] } ?? []
        }
    }

    /// Why an account cannot be as given, or nil: a name of 1 to 64 letters, digits and `.` `_` `-` `@`; a boat for
    /// an owner or a crew (an uplink id: the same characters), none for the others; an e-mail address with one `@`.
    public var problem: String? {
        func plain(_ text: String) -> Bool {
            !text.isEmpty && text.utf8.count <= 64
                && text.utf8.allSatisfy { c in
                    (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c == 46 || c == 95
                        || c == 45 || c == 64
                }
        }
        guard plain(name) else { return "a name is 1 to 64 letters, digits, '.', '_', '-' or '@'" }
        switch role {
        case .owner, .crew:
            guard let boat, plain(boat) else { return "an \(role.rawValue) needs --boat BOAT (the boat's uplink id)" }
        case .admin, .committee:
            guard boat == nil else { return "a \(role.rawValue) sees more than one boat: no --boat" }
        }
        if let email {
            let parts = email.split(separator: "@", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), email.utf8.count <= 254,
                !email.utf8.contains(where: { $0 <= 32 || $0 == 127 || Array("<>,;:\"()[]\\".utf8).contains($0) })
            else { return "--email \(email): not an e-mail address" }
        }
        return nil
    }
}
