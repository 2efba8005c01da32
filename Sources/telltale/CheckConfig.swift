import ArgumentParser
import Gateway
import Platform

/// `telltale check-config`: a configuration file checked without running.
struct CheckConfig: SpecCommand {
    static let configuration = CommandConfiguration(CheckConfigOptions.spec)

    @Argument(help: argumentHelp(0)) var file: String

    var options: CheckConfigOptions {
        var options = CheckConfigOptions()
        options.file = file
        return options
    }

    func run(_ options: CheckConfigOptions) throws(CommandError) {
        Console.out(try RunCommand.check(options.file) + "\n")
    }
}
