import ArgumentParser
import Gateway
import Platform

/// `telltale anchor drop [RADIUS]|raise|radius [RADIUS]|rode LENGTH`: the running gateway's anchor watch.
struct Anchor: SpecCommand {
    static let configuration = CommandConfiguration(AnchorOptions.spec)

    @Argument(help: argumentHelp(0)) var action: String
    @Argument(help: argumentHelp(1)) var metres: String?
    @Option(name: .customLong("port"), help: help("port")) var port = 3000

    var options: AnchorOptions {
        get throws {
            var options = AnchorOptions()
            try options.argument(action)
            if let metres { try options.argument(metres) }
            options.port = port
            try options.validate()
            return options
        }
    }

    func run(_ options: AnchorOptions) throws(CommandError) {
        guard let command = options.command else { return }
        Console.out(try GatewayClient.send(.anchor(command), port: options.port) + "\n")
    }
}
