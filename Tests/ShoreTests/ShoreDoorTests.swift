import Fleet
import Platform
import SignalK
import TestSupport
import Testing

@testable import Gateway
@testable import Shore

/// The shell's half of the shore's door on a real SQLite store and Debian's libsodium: accounts made as `fleet account
/// add` makes them, logins checked, sessions kept by digest and read back, guessers slowed.
@Suite struct ShoreDoorTests {
    static let now = 1_795_700_000.0

    func door(_ store: FleetStore, entered: Set<String> = []) -> ShoreDoor {
        ShoreDoor(store: store, entered: entered, secure: true, log: .discard)
    }

    func login(_ door: ShoreDoor, _ name: String, _ password: String, address: String = "10.0.0.1", at: Double = now)
        -> SignalKServer.ShellReply
    {
        door.answer(
            SignalKServer.LoginAsk(
                logout: false, body: Array(#"{"name":"\#(name)","password":"\#(password)"}"#.utf8), address: address,
                session: nil), at: at)
    }

    func store() throws -> FleetStore {
        let folder = temporaryFolder("shore-door")
        let store = try FleetStore(folder + "/fleet.sqlite")
        let sodium = try #require(Sodium.shared, "libsodium23 is needed")
        try store.keep(
            ShoreAccount(name: "anne", role: .owner, boat: "aurora"), hash: try #require(sodium.hash("anne's own pw")),
            at: Self.now)
        return store
    }

    @Test(
        "the right password: a session cookie whose token's digest the store keeps and the door knows; logout ends it")
    func session() throws {
        let store = try store()
        let door = door(store)
        #expect(door.refresh(at: Self.now) && door.closed)
        guard case .session(200, let body, let cookie) = login(door, "anne", "anne's own pw") else {
            Issue.record("no session")
            return
        }
        #expect(body.contains(#""boat":"aurora""#))
        let token = String(cookie.dropFirst("telltale_session=".count).prefix(64))
        let digest = SHA256.hex(Array(token.utf8))
        #expect(cookie.hasSuffix("; HttpOnly; SameSite=Strict; Secure"))
        #expect(door.viewers[digest]?.boats == ["aurora"])
        // Another web side reading the same store knows it.
        let other = self.door(store)
        _ = other.refresh(at: Self.now + 1)
        #expect(other.viewers[digest]?.name == "anne")
        let out = door.answer(
            SignalKServer.LoginAsk(logout: true, body: [], address: "10.0.0.1", session: digest), at: Self.now + 2)
        guard case .session(200, _, let ended) = out else {
            Issue.record("no logout")
            return
        }
        #expect(ended.contains("Max-Age=0"))
        #expect(door.viewers[digest] == nil)
        #expect(other.refresh(at: Self.now + 3) && other.viewers[digest] == nil)
    }

    @Test("wrong passwords and unknown names 401, then 429 unchecked; the right one from elsewhere still goes")
    func wrong() throws {
        let door = door(try store())
        #expect(login(door, "anne", "not it at all").status == 401)
        #expect(login(door, "nobody", "whatever it is").status == 401)
        for _ in 0..<4 { _ = login(door, "anne", "not it at all", address: "10.0.0.2") }
        #expect(login(door, "anne", "anne's own pw", address: "10.0.0.3").status == 429)
        #expect(login(door, "anne", "anne's own pw", address: "10.0.0.3", at: Self.now + 3600).status == 200)
        #expect(login(door, "anne", "", address: "10.0.0.4").status == 401)
        #expect(
            door.answer(
                SignalKServer.LoginAsk(logout: false, body: Array("{not json".utf8), address: "10.0.0.5", session: nil),
                at: Self.now
            ).status == 400)
    }

    @Test("a session older than 30 days is gone; an account removed takes its sessions with it")
    func lifetime() throws {
        let store = try store()
        let door = door(store)
        _ = door.refresh(at: Self.now)
        _ = login(door, "anne", "anne's own pw")
        #expect(door.refresh(at: Self.now + 10) == false && door.viewers.count == 1)
        #expect(door.refresh(at: Self.now + ShoreDoor.lifetime + 61) && door.viewers.isEmpty)
        _ = login(door, "anne", "anne's own pw", at: Self.now + ShoreDoor.lifetime + 62)
        #expect(try store.removeAccount("anne"))
        #expect(door.refresh(at: Self.now + ShoreDoor.lifetime + 63) && door.viewers.isEmpty && !door.closed)
    }
}

extension SignalKServer.ShellReply {
    var status: Int {
        switch self {
        case .outcome(let outcome): outcome.isDone ? 200 : 409
        case .json(let status, _), .file(let status, _, _), .message(let status, _), .session(let status, _, _): status
        }
    }
}
