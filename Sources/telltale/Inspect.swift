import ArgumentParser
import Gateway
import Platform

/// `telltale inspect`: a bus inspector for a log file or a live stream on standard input.
struct Inspect: SpecCommand {
    static let configuration = CommandConfiguration(InspectOptions.spec)

    @Flag(name: .customLong("json"), help: help("json")) var json = false
    @Flag(name: .customLong("ais"), help: help("ais")) var ais = false
    @Option(name: .customLong("max-length"), help: help("max-length")) var maxLength = InspectOptions().maximumLength
    @Flag(name: .customLong("allow-missing-checksum"), help: help("allow-missing-checksum"))
    var allowMissingChecksum = false
    @Argument(help: argumentHelp(0)) var file: String

    var options: InspectOptions {
        get throws {
            var options = InspectOptions()
            try options.argument(file)
            options.json = json
            options.ais = ais
            options.maximumLength = maxLength
            options.allowMissingChecksum = allowMissingChecksum
            return options
        }
    }

    func run(_ options: InspectOptions) throws(CommandError) { Console.out(try InspectCommand.run(options)) }
}
