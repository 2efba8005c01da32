import ArgumentParser
import Gateway
import Logging

/// `telltale record`: the black box on its own.
struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record every input sentence with a tag block (receive time, input name), for telltale replay.",
        discussion: """
            Files telltale-<UNIX seconds>.nmea in DIRECTORY, rotated by size and age. Inside `telltale run` the same
            recorder is switched on by [record] in the configuration.
            """
    )

    @Option(
        name: .customLong("input"), help: "An input URL (repeatable): tcp://host:port, udp://:10110, file:///x.nmea")
    var inputs: [String]

    @Option(help: "Directory for the recordings.")
    var directory: String

    @Option(help: "Start a new file past this many megabytes.")
    var rotateSizeMb = 50.0

    @Option(help: "Start a new file after this many minutes.")
    var rotateMinutes = 60.0

    @Option(help: "Stop after this many seconds.")
    var duration: Double?

    func run() throws {
        var options = RecordOptions()
        options.inputs = inputs
        options.directory = directory
        options.rotateSizeMegabytes = rotateSizeMb
        options.rotateMinutes = rotateMinutes
        do {
            try Runtime.start(try RunCommand.recording(options), duration: duration)
        } catch let error as CommandError {
            throw ValidationError(error.description)
        }
    }
}
