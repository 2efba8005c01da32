import ArgumentParser
import Gateway
import Platform

/// `telltale alarm list|ack ALARM`: the running gateway's alarms.
struct Alarm: SpecCommand {
    static let configuration = CommandConfiguration(AlarmOptions.spec)

    @Argument(help: argumentHelp(0)) var action: String
    @Argument(help: argumentHelp(1)) var alarm: String?
    @Option(name: .customLong("port"), help: help("port")) var port = 3000

    var options: AlarmOptions {
        get throws {
            var options = AlarmOptions()
            try options.argument(action)
            if let alarm { try options.argument(alarm) }
            options.port = port
            return options
        }
    }

    func run(_ options: AlarmOptions) throws(CommandError) {
        if let kind = options.acknowledge {
            Console.out(try GatewayClient.send(.acknowledge(kind), port: options.port) + "\n")
        } else {
            Console.out(try GatewayClient.alarms(port: options.port))
        }
    }
}
