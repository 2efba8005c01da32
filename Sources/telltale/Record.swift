import ArgumentParser
import Gateway
import Platform

/// `telltale record`: the black box on its own.
struct Record: SpecCommand {
    static let configuration = CommandConfiguration(RecordOptions.spec)

    @Option(name: .customLong("input"), help: help("input")) var inputs: [String] = []
    @Option(name: .customLong("directory"), help: help("directory")) var directory = ""
    @Option(name: .customLong("rotate-size-mb"), help: help("rotate-size-mb")) var rotateSizeMegabytes = 50.0
    @Option(name: .customLong("rotate-minutes"), help: help("rotate-minutes")) var rotateMinutes = 60.0
    @Option(name: .customLong("duration"), help: help("duration")) var duration: Double?

    var options: RecordOptions {
        var options = RecordOptions()
        options.inputs = inputs
        options.directory = directory
        options.rotateSizeMegabytes = rotateSizeMegabytes
        options.rotateMinutes = rotateMinutes
        options.duration = duration
        return options
    }

    func run(_ options: RecordOptions) throws(CommandError) {
        try RunCommand.start(
            RunCommand.recording(options), duration: options.duration, log: GatewayLogger.make(minimum: .info))
    }
}
