import Fleet
import Gateway
import Platform
import SignalK

/// The shell's half of the shore's door (``SignalKServer/Gate``): logins checked against the accounts in the store
/// (Argon2id through libsodium), slowed per account and per address (``LoginLimiter``), each refusal said once a
/// streak; sessions made, kept in the store by their token's digest, and read back from it every second, so every web
/// side knows every session; the views of the fleet the sessions need.
final class ShoreDoor {
    /// A session lasts this long from its login (then the login page again).
    static let lifetime = 30 * 86_400.0

    let store: FleetStore
    let log: Log
    /// The boats of the races (a committee's).
    let entered: Set<String>
    /// Whether the cookie is sent only over HTTPS (the shore serves HTTPS, or only loopback).
    let secure: Bool
    private var limiter = LoginLimiter()
    private(set) var viewers: [String: SignalKServer.Viewer] = [:]
    /// Whether the store has an account: the door is closed from the first one on.
    private(set) var closed = false
    private var prunedAt = -Double.infinity

    init(store: FleetStore, entered: Set<String>, secure: Bool, log: Log) {
        self.store = store
        self.entered = entered
        self.secure = secure
        self.log = log
    }

    /// The door the server keeps: the login page and its script open (and the public race page when it is on), the
    /// rest for sessions only.
    static func gate(racePage: Bool) -> SignalKServer.Gate {
        // The app's manifest and icon too: a phone adds the panel to its home screen from the login page, and shows
        // the icon with a notification without a cookie of its own.
        let login: Set<String> = ["/login.html", "/login.js", "/panel.css", "/manifest.webmanifest", "/icon.svg"]
        return SignalKServer.Gate(open: login.union(racePage ? ShoreWeb.publicPaths : []), loginPage: "/login.html")
    }

    func viewer(_ account: ShoreAccount) -> SignalKServer.Viewer {
        SignalKServer.Viewer(name: account.name, role: account.role.rawValue, boats: account.boats(entered: entered))
    }

    /// The sessions as the store has them now (once a second); whether they changed.
    func refresh(at unix: Double) -> Bool {
        do throws(StoreError) {
            if unix - prunedAt > 60 {
                try store.pruneSessions(before: unix - Self.lifetime)
                prunedAt = unix
            }
            let accounts = try store.accountCount() > 0
            var read: [String: SignalKServer.Viewer] = [:]
            for (digest, account) in try store.sessions() { read[digest] = viewer(account) }
            guard read != viewers || accounts != closed else { return false }
            if accounts != closed {
                log.notice(
                    "fleet.door",
                    accounts
                        ? "fleet: accounts in the store: the panel is served to those logged in only"
                        : "fleet: no account in the store: the panel is open to anyone who reaches it "
                            + "(telltale fleet account add)", [("device", "fleet")])
            }
            closed = accounts
            viewers = read
            return true
        } catch {
            log.warning("fleet.sessions", "fleet: the sessions cannot be read: \(error)", [("device", "fleet")])
            return false
        }
    }

    /// `POST /telltale/v1/login` or `/logout`.
    func answer(_ ask: SignalKServer.LoginAsk, at unix: Double) -> SignalKServer.ShellReply {
        if ask.logout {
            if let digest = ask.session {
                try? store.removeSession(digest)
                viewers[digest] = nil
            }
            return .session(status: 200, #"{"state":"logged out"}"#, cookie: cookie("", maxAge: 0))
        }
        guard let body = JSONValue.parse(ask.body, maximumDepth: 2, maximumLength: 4096),
            let name = body["name"]?.string, let password = body["password"]?.string, name.utf8.count <= 64,
            password.utf8.count <= 1024
        else { return .message(status: 400, "say {\"name\", \"password\"} as JSON") }
        switch limiter.verdict(account: name, address: ask.address, at: unix) {
        case .wait(let seconds):
            return .message(status: 429, "too many wrong passwords: try again in \(Int(seconds)) s")
        case .check: break
        }
        guard let sodium = Sodium.shared else { return .message(status: 503, Sodium.missing) }
        let kept = try? store.account(named: name)
        // An unknown name costs a hash too, so the time of the answer does not say which names exist.
        let right = kept.map { sodium.verify(password, against: $0.hash) } ?? (sodium.hash(password) == "")
        guard right, let kept else { return refused(name, ask.address, at: unix) }
        limiter.succeeded(account: name, address: ask.address)
        guard let token = try? POSIX.randomBytes(32) else { return .message(status: 503, "no randomness") }
        let text = SignalKModel.hex(token)
        let digest = SHA256.hex(Array(text.utf8))
        do throws(StoreError) { try store.keepSession(digest, name: name, at: unix) } catch {
            return .message(status: 503, "the session cannot be kept: \(error)")
        }
        viewers[digest] = viewer(kept.account)
        log.info("fleet.login", "fleet: \(name) logged in from \(ask.address)", [("device", "fleet")])
        var out = JSONWriter()
        out.beginObject()
        out.value("name", name)
        out.value("role", kept.account.role.rawValue)
        if let boat = kept.account.boat { out.value("boat", boat) }
        out.endObject()
        return .session(status: 200, out.text, cookie: cookie(text, maxAge: Int(Self.lifetime)))
    }

    private func refused(_ name: String, _ address: String, at unix: Double) -> SignalKServer.ShellReply {
        // Said once a streak by the limiter itself, so never held back by the log's own limiter (which would let one
        // account's streak hide another's).
        switch limiter.failed(account: name, address: address, at: unix) {
        case .firstFailure:
            log(
                LogEvent(
                    .warning, "fleet.refused", "fleet: a wrong password or name for \(name) from \(address)",
                    [("device", "fleet")], throttled: false))
        case .waiting(let seconds):
            log(
                LogEvent(
                    .warning, "fleet.slowed",
                    "fleet: \(name) from \(address): wrong again and again; each try now waits (\(Int(seconds)) s, "
                        + "doubling to 15 minutes) and is refused unchecked until then",
                    [("device", "fleet")], throttled: false))
        case .nothing: break
        }
        return .message(status: 401, "wrong name or password")
    }

    /// The session cookie: HttpOnly (no script reads it), SameSite=Strict (no other site's page sends it), Secure
    /// where the shore is on HTTPS or loopback only.
    func cookie(_ token: String, maxAge: Int) -> String {
        "\(SignalKServer.sessionCookie)=\(token); Path=/; Max-Age=\(maxAge); HttpOnly; SameSite=Strict"
            + (secure ? "; Secure" : "")
    }
}
