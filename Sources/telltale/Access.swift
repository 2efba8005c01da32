import ArgumentParser
import Gateway
import Platform

/// `telltale access list|approve ID|deny ID|revoke CLIENT`: the devices that may change things.
struct Access: SpecCommand {
    static let configuration = CommandConfiguration(AccessOptions.spec)

    @Argument(help: argumentHelp(0)) var action: String
    @Argument(help: argumentHelp(1)) var target: String?
    @Option(name: .customLong("port"), help: help("port")) var port = 3000

    var options: AccessOptions {
        get throws {
            var options = AccessOptions()
            try options.argument(action)
            if let target { try options.argument(target) }
            options.port = port
            try options.validate()
            return options
        }
    }

    func run(_ options: AccessOptions) throws(CommandError) {
        Console.out(try GatewayClient.access(options))
    }
}
