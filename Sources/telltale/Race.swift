import ArgumentParser
import Gateway

/// `telltale race start|pause|reset|sync`: the running gateway's start timer.
struct Race: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Start, pause, reset or sync (to the nearest minute) the running gateway's race start timer.",
        discussion: "Talks to `telltale run` on this machine through its Signal K server ([web] in its configuration).")

    @Argument(help: "start, pause, reset or sync.")
    var command: String

    @Option(help: "The gateway's [web] port.")
    var port = 3000

    func run() throws {
        do {
            Console.out(try RaceCommand.send(command, port: port) + "\n")
        } catch {
            Console.error("telltale: \(error)\n")
            throw ExitCode.failure
        }
    }
}
