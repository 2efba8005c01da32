import ArgumentParser
import Gateway
import Platform
import Shore

/// `telltale fleet` (the shore side), `telltale fleet account` (who may look at it) and `telltale fleet send` (its
/// messenger).
struct FleetGroup: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fleet", abstract: FleetOptions.spec.abstract,
        subcommands: [Fleet.self, FleetAccount.self, FleetSend.self, FleetPolar.self],
        defaultSubcommand: Fleet.self)
}

/// `telltale fleet --broker URL`: the shore side, every boat on the panel's Fleet layout.
struct Fleet: SpecCommand {
    static let configuration = CommandConfiguration(FleetOptions.spec, name: "serve")

    @Option(name: .customLong("broker"), help: help("broker")) var brokers: [String] = []
    @Option(name: .customLong("listen"), help: help("listen")) var listen = FleetOptions().listen
    @Option(name: .customLong("username"), help: help("username")) var username: String?
    @Option(name: .customLong("password"), help: help("password")) var password: String?
    @Option(name: .customLong("ca"), help: help("ca")) var ca: String?
    @Option(name: .customLong("duration"), help: help("duration")) var duration: Double?
    @Option(name: .customLong("session"), help: help("session")) var session: String?
    @Option(name: .customLong("store"), help: help("store")) var store = FleetOptions().store
    @Option(name: .customLong("role"), help: help("role")) var role = "all"
    @Option(name: .customLong("worker"), help: help("worker")) var worker: String?
    @Option(name: .customLong("journal"), help: help("journal")) var journal: String?
    @Flag(name: .customLong("keeper"), help: help("keeper")) var keeper = false
    @Option(name: .customLong("entries"), help: help("entries")) var entries: String?
    @Option(name: .customLong("races"), help: help("races")) var races: String?
    @Option(name: .customLong("basemap"), help: help("basemap")) var baseMap: String?
    @Option(name: .customLong("charts"), help: help("charts")) var charts: String?
    @Option(name: .customLong("tls-cert"), help: help("tls-cert")) var tlsCertificate: String?
    @Option(name: .customLong("tls-key"), help: help("tls-key")) var tlsKey: String?
    @Flag(name: .customLong("insecure-http"), help: help("insecure-http")) var insecureHTTP = false
    @Option(name: .customLong("silent-after"), help: help("silent-after")) var silentAfter: String?
    @Option(name: .customLong("smtp"), help: help("smtp")) var smtp: String?
    @Option(name: .customLong("mail-from"), help: help("mail-from")) var mailFrom: String?
    @Option(name: .customLong("post-ca"), help: help("post-ca")) var postCA: String?
    @Option(name: .customLong("push-host"), help: help("push-host")) var pushHosts: [String] = []
    @Option(name: .customLong("public-delay"), help: help("public-delay")) var publicDelay: String?

    var options: FleetOptions {
        get throws {
            var options = FleetOptions()
            for broker in brokers { try options.set("broker", broker) }
            try options.set("role", role)
            options.store = store
            options.worker = worker
            options.journal = journal
            if keeper { try options.set("keeper", nil) }
            options.entries = entries
            options.races = races
            options.listen = listen
            options.username = username
            options.password = password
            options.ca = ca
            options.duration = duration
            options.session = session
            options.tlsCertificate = tlsCertificate
            options.tlsKey = tlsKey
            if insecureHTTP { try options.set("insecure-http", nil) }
            if let silentAfter { try options.set("silent-after", silentAfter) }
            for (flag, value) in [
                ("smtp", smtp), ("mail-from", mailFrom), ("post-ca", postCA), ("basemap", baseMap), ("charts", charts),
            ] {
                if let value { try options.set(flag, value) }
            }
            for host in pushHosts { try options.set("push-host", host) }
            if let publicDelay { try options.set("public-delay", publicDelay) }
            try options.validate()
            return options
        }
    }

    func run(_ options: FleetOptions) throws(CommandError) {
        try FleetCommand.run(options, log: GatewayLogger.make(minimum: .info))
    }
}

/// `telltale fleet account add|list|remove [NAME]`.
struct FleetAccount: SpecCommand {
    static let configuration = CommandConfiguration(FleetAccountOptions.spec, name: "account")

    @Argument(help: argumentHelp(0)) var action: String
    @Argument(help: argumentHelp(1)) var name: String?
    @Option(name: .customLong("store"), help: help("store")) var store = FleetAccountOptions().store
    @Option(name: .customLong("role"), help: help("role")) var role: String?
    @Option(name: .customLong("boat"), help: help("boat")) var boat: String?
    @Option(name: .customLong("email"), help: help("email")) var email: String?

    var options: FleetAccountOptions {
        get throws {
            var options = FleetAccountOptions()
            try options.argument(action)
            if let name { try options.argument(name) }
            for (flag, value) in [("store", store), ("role", role), ("boat", boat), ("email", email)] {
                if let value { try options.set(flag, value) }
            }
            try options.validate()
            return options
        }
    }

    func run(_ options: FleetAccountOptions) throws(CommandError) {
        Console.out(try FleetAccountCommand.run(options))
    }
}

/// `telltale fleet send LETTER`: the boat watch's messenger.
struct FleetSend: SpecCommand {
    static let configuration = CommandConfiguration(FleetSendOptions.spec, name: "send")

    @Argument(help: argumentHelp(0)) var letter: String

    var options: FleetSendOptions {
        get throws {
            var options = FleetSendOptions()
            try options.argument(letter)
            try options.validate()
            return options
        }
    }

    func run(_ options: FleetSendOptions) throws(CommandError) {
        Console.out(try FleetSendCommand.run(options) + "\n")
    }
}

/// `telltale fleet polar --entries FILE --class NAME`: a one-design class's polar from the store.
struct FleetPolar: SpecCommand {
    static let configuration = CommandConfiguration(FleetPolarOptions.spec, name: "polar")

    @Option(name: .customLong("store"), help: help("store")) var store = FleetPolarOptions().store
    @Option(name: .customLong("entries"), help: help("entries")) var entries: String
    @Option(name: .customLong("class"), help: help("class")) var group: String
    @Option(name: .customLong("from"), help: help("from")) var from: String?
    @Option(name: .customLong("to"), help: help("to")) var to: String?
    @Option(name: .customLong("output"), help: help("output")) var output: String?
    @Flag(name: .customLong("json"), help: help("json")) var json = false

    var options: FleetPolarOptions {
        get throws {
            var options = FleetPolarOptions()
            for (flag, value) in [
                ("store", store), ("entries", entries), ("class", group), ("from", from), ("to", to),
                ("output", output),
            ] {
                if let value { try options.set(flag, value) }
            }
            if json { try options.set("json", nil) }
            try options.validate()
            return options
        }
    }

    func run(_ options: FleetPolarOptions) throws(CommandError) {
        Console.out(try FleetPolarCommand.run(options))
    }
}
