import ArgumentParser
import Gateway
import Platform

/// A desktop command whose names and help come from its ``CommandSpec`` (the one description both builds read),
/// whose parsed flags become the same plain options the Pi build parses into, and whose rules are the options' own.
protocol SpecCommand: ParsableCommand {
    associatedtype Options: CommandOptions
    /// The flags and arguments as parsed, as the options value.
    var options: Options { get throws }
    /// The work, with the options.
    func run(_ options: Options) throws(CommandError)
}

extension SpecCommand {
    /// The help of one of the spec's flags (a flag the spec does not have is a programming error, found by the
    /// test that parses every flag through both builds).
    static func help(_ flag: String) -> ArgumentHelp {
        ArgumentHelp(Options.spec.flag(flag)?.help ?? "", valueName: Options.spec.flag(flag)?.valueName)
    }

    /// The help of the spec's argument at `index`.
    static func argumentHelp(_ index: Int) -> ArgumentHelp {
        let argument = Options.spec.arguments[index]
        return ArgumentHelp(argument.help, valueName: argument.name)
    }

    func validate() throws {
        do { try options.validate() } catch let error as CommandError { throw ValidationError(error.description) }
    }

    func run() throws {
        do {
            try run(try options)
        } catch let error as CommandError {
            Console.error("telltale: \(error)\n")
            throw ExitCode(error.status)
        }
    }
}

extension CommandConfiguration {
    /// A command's name, abstract and discussion, from its spec.
    init(_ spec: CommandSpec, name: String? = nil, subcommands: [ParsableCommand.Type] = []) {
        self.init(
            commandName: name ?? spec.name, abstract: spec.abstract, discussion: spec.discussion,
            subcommands: subcommands)
    }
}
