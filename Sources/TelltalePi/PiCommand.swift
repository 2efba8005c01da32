import Gateway
import Platform

/// The Pi build's command line. swift-argument-parser and swift-log cannot be compiled as Embedded Swift, so the
/// words are read here by ``CommandParser`` from the same command descriptions the desktop's commands take their
/// flags from (``TelltaleCommands``), into the same option values, and the work is the same Gateway code.
enum PiCommand {
    /// Runs the command `words` names (`words[0]` is the program) and returns the exit status.
    static func run(_ words: [String]) -> Int32 {
        do {
            try perform(Array(words.dropFirst()))
            return 0
        } catch {
            if error.status == 0 {
                Console.out(error.description)
            } else {
                Console.error(error.description.hasPrefix("usage") ? error.description : "telltale: \(error)\n")
            }
            return error.status
        }
    }

    /// The command the first word names, from the one table (``TelltaleCommands``), given the words after it.
    static func perform(_ words: [String]) throws(CommandError) {
        switch words.first {
        case "--version", "version":
            Console.out("telltale \(TelltaleVersion.string)\n")
        case "help", "--help", "-h", nil:
            Console.out(TelltaleCommands.usage(desktop: false))
        case let word?:
            guard let command = TelltaleCommands.command(word), let perform = command.perform else {
                throw CommandError("unknown command \(word)\n" + TelltaleCommands.usage(desktop: false), status: 64)
            }
            try perform(words.dropFirst())
        }
    }
}
