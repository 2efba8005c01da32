import ArgumentParser
import Gateway
import Platform

/// `telltale n2k`: the NMEA 2000 bus's devices.
struct N2K: SpecCommand {
    static let configuration = CommandConfiguration(N2KOptions.spec)

    @Option(name: .customLong("port"), help: help("port")) var port = 3000
    @Option(name: .customLong("listen"), help: help("listen")) var listen: String?
    @Option(name: .customLong("seconds"), help: help("seconds")) var seconds = 10.0
    @Flag(name: .customLong("json"), help: help("json")) var json = false
    @Option(name: .customLong("decode"), help: help("decode")) var decode: String?

    var options: N2KOptions {
        get throws {
            var options = N2KOptions()
            options.port = port
            options.listen = listen
            options.seconds = seconds
            options.json = json
            options.decode = decode
            return options
        }
    }

    func run(_ options: N2KOptions) throws(CommandError) { Console.out(try N2KCommand.run(options)) }
}
