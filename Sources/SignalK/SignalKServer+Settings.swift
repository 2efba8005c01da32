/// The gateway's own settings over HTTP, for the panel's settings page: read them, check a configuration, save one.
/// Only from the networks that may change things (``Configuration/putRule``): the settings hold the access point's
/// passphrase. The protocol only routes: what the settings are and how a configuration is checked and saved is the
/// shell's, which answers with ``answer(_:status:json:model:at:unixTime:_:)``.
///
///     GET /telltale/v1/settings                  the configuration's text and where it lives, the network, notes
///     PUT /telltale/v1/settings/check            a configuration's text: is it valid (nothing saved)
///     PUT /telltale/v1/settings/configuration    a configuration's text: checked, saved, the gateway restarts on it
///     GET /telltale/v1/notes                     what the boot left to say (a boot partition late or broken, a
///                                                configuration refused or replaced): to anyone who may read
extension SignalKServer {
    /// What a settings request asks the shell for.
    public enum SettingsRequest {
        public enum Kind: Hashable, Sendable {
            case read
            case check(String)
            case save(String)
            /// What the boot left to say: open to every device that may read (nothing in it is secret).
            case notes
        }
    }

    static let settingsPath = "/telltale/v1/settings"
    static let notesPath = "/telltale/v1/notes"

    /// `GET /telltale/v1/notes`: for anyone, answered by the shell.
    mutating func notes(
        _ request: HTTPRequest, _ id: Int, _ connection: inout Connection, keepAlive: Bool, _ act: (Action) -> Void
    ) {
        guard request.method == "GET" || request.method == "HEAD" else {
            act(.send(connection: id, bytes: HTTPResponse.error(405, "GET only", keepAlive: keepAlive)))
            if !keepAlive { close(id, &connection, act) }
            return
        }
        ask(.settings(.notes), id, &connection, keepAlive: keepAlive, headOnly: request.method == "HEAD", act)
    }

    /// Routes a request below ``settingsPath``.
    mutating func settings(
        _ request: HTTPRequest, _ id: Int, _ connection: inout Connection, keepAlive: Bool, _ act: (Action) -> Void
    ) {
        func refuse(_ status: Int, _ message: String) {
            act(.send(connection: id, bytes: HTTPResponse.error(status, message, keepAlive: keepAlive)))
            if !keepAlive { close(id, &connection, act) }
        }
        if let refused = refusal(connection, token: Self.token(of: request), admin: true) {
            counters.refused += 1
            return refuse(refused.status, refused.message)
        }
        let kind: SettingsRequest.Kind
        switch (request.method, request.path.dropFirst(Self.settingsPath.count)) {
        case ("GET", ""), ("GET", "/"): kind = .read
        case ("PUT", "/check"), ("PUT", "/configuration"):
            guard let text = String(validating: request.body, as: UTF8.self), !text.contains("\0") else {
                return refuse(400, "a configuration is UTF-8 text")
            }
            kind = request.path.hasSuffix("/check") ? .check(text) : .save(text)
        case (_, "/check"), (_, "/configuration"): return refuse(405, "PUT only")
        case (_, ""), (_, "/"): return refuse(405, "GET only")
        default: return refuse(404, "no such setting")
        }
        counters.puts += 1
        ask(.settings(kind), id, &connection, keepAlive: keepAlive, act)
    }
}
