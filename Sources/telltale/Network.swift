import ArgumentParser
import Gateway
import Platform

/// `telltale network`: network.toml into the image's Wi-Fi and address files.
struct Network: SpecCommand {
    static let configuration = CommandConfiguration(NetworkOptions.spec)

    @Option(name: .customLong("settings"), help: help("settings")) var settings = NetworkOptions().settings
    @Option(name: .customLong("state"), help: help("state")) var state = NetworkOptions().state
    @Option(name: .customLong("output"), help: help("output")) var output = NetworkOptions().output
    @Option(name: .customLong("configuration"), help: help("configuration")) var configurationFile: String?

    var options: NetworkOptions {
        var options = NetworkOptions()
        options.settings = settings
        options.state = state
        options.output = output
        options.configuration = configurationFile
        return options
    }

    func run(_ options: NetworkOptions) throws(CommandError) {
        Console.out(try NetworkCommand.run(options) { Console.error("telltale: " + $0 + "\n") } + "\n")
    }
}

/// `telltale advertise`: the avahi service file that lets apps find the gateway.
struct Advertise: SpecCommand {
    static let configuration = CommandConfiguration(AdvertiseOptions.spec)

    @Option(name: .customLong("config"), help: help("config")) var config = AdvertiseOptions().config
    @Option(name: .customLong("output"), help: help("output")) var output = AdvertiseOptions().output

    var options: AdvertiseOptions {
        var options = AdvertiseOptions()
        options.config = config
        options.output = output
        return options
    }

    func run(_ options: AdvertiseOptions) throws(CommandError) { Console.out(try Advertisement.run(options)) }
}
