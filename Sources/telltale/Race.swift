import ArgumentParser
import Gateway

/// `telltale race start|pause|reset|sync|port|starboard`: the running gateway's start timer and start line.
struct Race: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Start, pause, reset or sync (to the nearest minute) the running gateway's race start timer; ping the start line's port or starboard end at the bow.",
        discussion: "Talks to `telltale run` on this machine through its Signal K server ([web] in its configuration).")

    @Argument(help: "start, pause, reset, sync, port or starboard.")
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

/// `telltale alarm list|ack ALARM`: the running gateway's alarms.
struct Alarm: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the running gateway's alarms, or acknowledge one.",
        discussion: """
            Talks to `telltale run` on this machine through its Signal K server ([web] in its configuration). An \
            alarm is named as in [alarms.text] (shallow, wind_lost, xte, ...), by its ALR number, or by its Signal K \
            path.
            """)

    @Argument(help: "list, or ack.")
    var command: String

    @Argument(help: "The alarm to acknowledge.")
    var alarm: String?

    @Option(help: "The gateway's [web] port.")
    var port = 3000

    func validate() throws {
        guard command == "list" || (command == "ack" && alarm != nil) else {
            throw ValidationError("say list, or ack and the alarm")
        }
    }

    func run() throws {
        do {
            if command == "list" {
                Console.out(try AlarmCommand.list(port: port))
            } else {
                Console.out(try AlarmCommand.acknowledge(alarm ?? "", port: port) + "\n")
            }
        } catch {
            Console.error("telltale: \(error)\n")
            throw ExitCode.failure
        }
    }
}
