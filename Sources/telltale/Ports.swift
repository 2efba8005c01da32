import ArgumentParser
import Gateway
import Platform

/// `telltale ports`: the serial ports libserialport sees.
struct Ports: SpecCommand {
    static let configuration = CommandConfiguration(PortsOptions.spec)

    var options: PortsOptions { PortsOptions() }

    func run(_ options: PortsOptions) throws(CommandError) { Console.out(try PortsCommand.run()) }
}
