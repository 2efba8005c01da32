import ArgumentParser
import Gateway

/// `telltale ports`: the serial ports libserialport sees, with what identifies each one.
struct Ports: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List serial ports with their description, USB VID:PID, serial number and stable by-id name."
    )

    func run() throws {
        guard let lines = SerialPorts.list() else {
            Console.error("telltale: libserialport could not list the ports\n")
            throw ExitCode.failure
        }
        Console.out(lines.isEmpty ? "no serial ports found\n" : lines.joined(separator: "\n") + "\n")
    }
}
