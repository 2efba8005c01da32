import ArgumentParser
import Gateway
import Platform

/// `telltale fleet --broker URL`: the shore side, every boat on the panel's Fleet layout.
struct Fleet: SpecCommand {
    static let configuration = CommandConfiguration(FleetOptions.spec)

    @Option(name: .customLong("broker"), help: help("broker")) var broker: String
    @Option(name: .customLong("listen"), help: help("listen")) var listen = FleetOptions().listen
    @Option(name: .customLong("username"), help: help("username")) var username: String?
    @Option(name: .customLong("password"), help: help("password")) var password: String?
    @Option(name: .customLong("ca"), help: help("ca")) var ca: String?
    @Option(name: .customLong("duration"), help: help("duration")) var duration: Double?
    @Option(name: .customLong("session"), help: help("session")) var session: String?

    var options: FleetOptions {
        get throws {
            var options = FleetOptions()
            options.broker = broker
            options.listen = listen
            options.username = username
            options.password = password
            options.ca = ca
            options.duration = duration
            options.session = session
            try options.validate()
            return options
        }
    }

    func run(_ options: FleetOptions) throws(CommandError) {
        try FleetCommand.run(options, log: GatewayLogger.make(minimum: .info))
    }
}
