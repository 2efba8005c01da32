import ArgumentParser
import Gateway
import Marine
import NMEA

/// `telltale inspect`: a bus inspector for a log file or a live stream on standard input.
struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Count the sentences on a bus or in a log: addresses, talkers, rates and rejects.",
        discussion: """
            Reads FILE, or standard input when FILE is -, for example `socat - TCP:plotter:10110 | telltale inspect -`.
            Rates come from tag-block times, else from the sentences' own UTC times, else from the wall clock.
            """
    )

    @Flag(help: "Print one JSON object instead of a table.")
    var json = false

    @Option(help: "Longest sentence accepted, counted with $ and CR LF (82 is strict NMEA 0183).")
    var maxLength = FramerConfiguration.lenientMaximumLength

    @Flag(help: "Accept sentences that carry no checksum (old devices).")
    var allowMissingChecksum = false

    @Argument(help: "A log file, or - for standard input.")
    var file: String

    func run() throws {
        var options = InspectOptions()
        options.file = file
        options.json = json
        options.maximumLength = maxLength
        options.allowMissingChecksum = allowMissingChecksum
        do {
            Console.out(try InspectCommand.run(options))
        } catch {
            Console.error("telltale: \(error)\n")
            throw ExitCode.failure
        }
    }

    /// Fixed decimals; a value between -1 and 0 keeps its sign (it once lost it here, in the attitude bench's
    /// truth column among other places).
    static func format(_ value: Double, decimals: Int) -> String { FixedDecimal.text(value, decimals: decimals) }
}
