import Fleet

/// What `telltale fleet` is told.
public struct FleetOptions: CommandOptions {
    /// What one process does: everything (the committee's laptop), only take from the brokers into the store (an
    /// ingest worker, any number of them), or only serve the panel from the store (a web side, any number).
    public enum Role: String, Sendable {
        case all
        case ingest
        case web
    }

    public var brokers: [String] = []
    /// Loopback by default: plain HTTP beyond this machine needs HTTPS (`tlsCertificate`, `tlsKey`) or the operator's
    /// word (`insecureHTTP`: a TLS proxy in front).
    public var listen = "127.0.0.1:3000"
    /// HTTPS: the certificate chain and its key (PEM files).
    public var tlsCertificate: String?
    public var tlsKey: String?
    public var insecureHTTP = false
    /// The boat watch: a boat not heard for this many seconds is said to have gone silent.
    public var silentAfter = 900.0
    /// The boat watch's e-mail: the submission server (`smtp://user:password@host:587`, STARTTLS; or `smtps://`),
    /// the sender's address, and a CA its messengers trust besides the system's.
    public var smtp: String?
    public var mailFrom: String?
    public var postCA: String?
    /// The public race page: the entered boats where they were this many seconds ago, to anyone (nil: off).
    public var publicDelay: Double?
    /// Push services phones may subscribe with besides the browsers' own (Google's, Mozilla's, Apple's, Microsoft's).
    public var pushHosts: [String] = []
    public var username: String?
    public var password: String?
    public var ca: String?
    /// Seconds to run (for tests and figures), nil for ever.
    public var duration: Double?
    /// A name for a session the broker keeps while this follower is stopped (#43): what boats publish meanwhile (QoS
    /// 1) is kept for it and given when it comes back. Nil: a clean session, nothing kept.
    public var session: String?
    /// Where everything is kept: `postgres://...`, or a SQLite file's path.
    public var store = "telltale-fleet.sqlite"
    public var role = Role.all
    /// An ingest worker's name: its session on every broker (`telltale-worker-NAME`), its journal's name.
    public var worker: String?
    /// The worker's journal: what the broker handed over, kept until the store has it.
    public var journal: String?
    /// This worker also keeps the `telltale-keeper` session on every broker (one worker of a deployment): what
    /// boats publish while a restarted broker has no shared subscriber yet waits there.
    public var keeper = false
    /// The race office's fleet file (CSV: boat ids, names, sail numbers, classes, colours, TCC or PY).
    public var entries: String?
    /// The race office's races (TOML: gun, start line, marks, finish, time limit).
    public var races: String?
    /// The offline base map's folder for the charts ashore (`telltale basemap`; nil: the package's, "": none), and a
    /// folder of MBTiles charts (nil: none).
    public var baseMap: String?
    public var charts: String?

    public init() {}

    /// The first broker (the one `--broker` of the years before several).
    public var broker: String { brokers.first ?? "" }

    public static let spec = CommandSpec(
        "fleet", abstract: "The shore side: every boat that sends to a broker, kept in a store, on the Fleet layout.",
        discussion: """
            Subscribes to telltale/+/# on the brokers (mqtt://host[:port], or mqtts:// with --ca), keeps every \
            boat's history in the store (a SQLite file by default, or PostgreSQL with PostGIS: --store \
            postgres://user@host/db) and serves the panel on --listen with a Fleet layout. At race scale it runs \
            apart: --role ingest --worker NAME takes from every broker through a shared subscription into the \
            store (start as many as the load needs), --role web serves the panel from the store (as many as you \
            like behind a load balancer).
            """,
        flags: [
            .option(
                "broker", "URL", "A broker: mqtt://host[:port] or mqtts://host[:port] (one or more).",
                example: "mqtt://127.0.0.1:1883", repeats: true),
            .option(
                "listen", "ADDRESS:PORT", "Where the panel is served [127.0.0.1:3000; beyond loopback HTTPS only].",
                example: "127.0.0.1:3005"),
            .option("tls-cert", "FILE", "HTTPS: the certificate chain (PEM).", example: "shore.crt"),
            .option("tls-key", "FILE", "HTTPS: the certificate's private key (PEM).", example: "shore.key"),
            .option(
                "silent-after", "SECONDS",
                "The boat watch: a boat not heard for this long is said to have gone silent [900].", example: "600"),
            .option(
                "smtp", "URL",
                "The boat watch's e-mail: smtp://user:password@host:587 (STARTTLS) or smtps://...:465; the password "
                    + "percent-encoded.", example: "smtp://shore:secret@127.0.0.1:587"),
            .option("mail-from", "ADDRESS", "The boat watch's sender address.", example: "watch@example.org"),
            .option(
                "post-ca", "FILE",
                "A CA the boat watch's e-mail and Web Push trust besides the system's (a private server's).",
                example: "ca.pem"),
            .option(
                "public-delay", "MINUTES",
                "A public race page (/race.html): the fleet file's boats where they were this many minutes ago, to "
                    + "anyone [off].", example: "15"),
            .option(
                "push-host", "HOST",
                "A push service phones may subscribe with, besides Google's, Mozilla's, Apple's and Microsoft's "
                    + "(the shore posts to no other).", example: "push.example.org", repeats: true),
            .flag(
                "insecure-http",
                "Serve plain HTTP beyond loopback all the same (a TLS proxy in front): passwords cross the network as "
                    + "the proxy sends them."),
            .option("username", "NAME", "The broker's user name.", example: "committee"),
            .option("password", "PASSWORD", "The broker's password.", example: "secret"),
            .option("ca", "FILE", "The broker's CA file (mqtts).", example: "ca.pem"),
            .option("duration", "SECONDS", "Stop after this long.", example: "60"),
            .option(
                "session", "NAME",
                "Keep a session on the broker by this name: what the boats send while the fleet is stopped comes "
                    + "when it is back.", example: "committee"),
            .option(
                "store", "LOCATION",
                "Where everything is kept: postgres://... or a SQLite file [telltale-fleet.sqlite].",
                example: "fleet.sqlite"),
            .option("role", "all|ingest|web", "What this process does [all].", example: "web"),
            .option("worker", "NAME", "An ingest worker's name (its session on the brokers).", example: "w1"),
            .option(
                "journal", "FILE",
                "The worker's journal [telltale-worker-NAME.journal beside a SQLite store, else here].",
                example: "w1.journal"),
            .option(
                "entries", "FILE",
                "The fleet file (CSV with a header: boat, name, sail, class, colour, tcc or py): names, classes and "
                    + "handicaps on the Fleet layout and in the results.", example: "entries.csv"),
            .option(
                "races", "FILE",
                "The races (TOML, [[race]] with start, line, marks, finish): standings by elapsed and corrected "
                    + "time, results as CSV.", example: "races.toml"),
            .option(
                "basemap", "DIR",
                "The offline base map under the charts ashore (telltale basemap; the package's when there is one, "
                    + "an empty string for none).", example: "/usr/share/telltale/basemap"),
            .option(
                "charts", "DIR", "MBTiles charts the panel ashore offers (none by default).",
                example: "/srv/telltale/charts"),
            .flag(
                "keeper",
                "Also keep the telltale-keeper session on every broker (one worker): nothing a boat publishes while a "
                    + "restarted broker has no worker yet is lost."),
        ],
        desktopOnly: true)

    public mutating func set(_ flag: String, _ value: String?) throws(CommandError) {
        let text = CommandParser.text(value)
        switch flag {
        case "broker": brokers.append(text)
        case "listen": listen = text
        case "tls-cert": tlsCertificate = text
        case "tls-key": tlsKey = text
        case "insecure-http": insecureHTTP = true
        case "smtp": smtp = text
        case "mail-from": mailFrom = text
        case "post-ca": postCA = text
        case "push-host": pushHosts.append(text)
        case "public-delay":
            let minutes = try CommandParser.number(flag, value)
            guard minutes >= 1, minutes <= 1440 else {
                throw CommandError("--public-delay: from 1 minute to a day", status: 64)
            }
            publicDelay = minutes * 60
        case "username": username = text
        case "password": password = text
        case "ca": ca = text
        case "duration": duration = try CommandParser.number(flag, value)
        case "silent-after":
            let seconds = try CommandParser.number(flag, value)
            guard seconds >= 5, seconds <= 7 * 86_400 else {
                throw CommandError("--silent-after: from 5 seconds to 7 days", status: 64)
            }
            silentAfter = seconds
        case "session": session = text
        case "store": store = text
        case "role":
            guard let role = Role(rawValue: text) else {
                throw CommandError("fleet: --role is all, ingest or web", status: 64)
            }
            self.role = role
        case "worker": worker = text
        case "journal": journal = text
        case "keeper": keeper = true
        case "entries": entries = text
        case "races": races = text
        case "basemap": baseMap = text
        case "charts": charts = text
        default: throw .unhandled(flag)
        }
    }

    static func isName(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 40
            && text.utf8.allSatisfy({
                ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || $0 == 45 || $0 == 95
            })
    }

    public func validate() throws(CommandError) {
        if role != .web && brokers.isEmpty {
            throw CommandError("fleet: --broker mqtt://host[:port] or mqtts://host[:port]", status: 64)
        }
        for broker in brokers {
            guard UplinkConfiguration.broker(broker) != nil else {
                throw CommandError(
                    "fleet: --broker mqtt://host[:port] or mqtts://host[:port] (not \(broker))", status: 64)
            }
            if broker.hasPrefix("mqtts://") && ca == nil { throw CommandError("fleet: mqtts needs --ca", status: 64) }
        }
        if let duration, !(duration > 0) { throw CommandError("--duration must be positive", status: 64) }
        if let session, !Self.isName(session) {
            throw CommandError("fleet: --session is letters, digits, '-' and '_' (40 at most)", status: 64)
        }
        if let worker, !Self.isName(worker) {
            throw CommandError("fleet: --worker is letters, digits, '-' and '_' (40 at most)", status: 64)
        }
        if role == .ingest && worker == nil {
            throw CommandError("fleet: --role ingest needs --worker NAME (its session on the brokers)", status: 64)
        }
        if store.isEmpty { throw CommandError("fleet: --store postgres://... or a file", status: 64) }
        if let smtp {
            guard SMTPServer(smtp) != nil else {
                throw CommandError(
                    "fleet: --smtp smtp://[user:password@]host[:port] or smtps://... (not that)", status: 64)
            }
            guard let mailFrom, ShoreAccount(name: "x", role: .admin, email: mailFrom).problem == nil else {
                throw CommandError("fleet: --smtp needs --mail-from ADDRESS (an e-mail address)", status: 64)
            }
        }
        if role != .ingest && tlsCertificate == nil && tlsKey == nil && !insecureHTTP && !Self.isLoopback(listen) {
            throw CommandError(
                "fleet: plain HTTP on \(listen) would carry passwords and sessions in the clear: --tls-cert FILE "
                    + "--tls-key FILE, or --listen 127.0.0.1:PORT behind a TLS proxy (--insecure-http if you must)",
                status: 64)
        }
    }

    /// Whether `host:port` is on this machine alone (127/8, ::1, localhost).
    static func isLoopback(_ listen: String) -> Bool {
        var host = String(listen.prefix { $0 != ":" })
        if listen.hasPrefix("[") { host = String(listen.dropFirst().prefix { $0 != "]" }) }
        return host.hasPrefix("127.") || host == "::1" || host == "localhost"
    }
}
