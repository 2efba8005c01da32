import ArgumentParser
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
        let source = try ByteSource(path: file)
        let live = file == "-"
        var inspector = BusInspector(
            configuration: FramerConfiguration(
                maximumLength: maxLength, requiresChecksum: !allowMissingChecksum, skipsCommentLines: true))
        source.forEachChunk { chunk in inspector.feed(chunk, now: live ? monotonicSeconds() : nil) }
        inspector.finish()
        Console.out(json ? Inspect.json(inspector) + "\n" : Inspect.table(inspector))
    }

    static func sortedAddresses(_ inspector: BusInspector) -> [(Address, Int)] {
        inspector.byAddress.sorted { $0.key.description < $1.key.description }
    }

    static func json(_ inspector: BusInspector) -> String {
        var json = JSONWriter()
        json.beginObject()
        json.value("sentences", inspector.accepted)
        json.value("rejected_total", inspector.rejects.total)
        json.beginObject("rejected")
        for reason in RejectReason.allCases { json.value(reason.name, inspector.rejects[reason]) }
        json.endObject()
        json.beginObject("by_address")
        for (address, count) in sortedAddresses(inspector) { json.value(address.description, count) }
        json.endObject()
        json.beginObject("rates")
        for (address, _) in sortedAddresses(inspector) { json.value(address.description, inspector.rate(of: address)) }
        json.endObject()
        json.beginObject("talkers")
        for (talker, count) in inspector.talkers.sorted(by: { $0.key.description < $1.key.description }) {
            json.value(talker.description, count)
        }
        json.endObject()
        json.beginObject("examples")
        for reason in RejectReason.allCases {
            guard let example = inspector.examples[reason] else { continue }
            json.beginObject(reason.name)
            json.value("line", example.line)
            json.value("text", example.text)
            json.endObject()
        }
        json.endObject()
        json.value("comments", inspector.comments)
        json.value("bytes", inspector.bytes)
        json.value("duration_seconds", inspector.duration)
        json.endObject()
        return json.text
    }

    static func table(_ inspector: BusInspector) -> String {
        var text = "sentences \(inspector.accepted), rejected \(inspector.rejects.total)"
        if let duration = inspector.duration { text += ", over \(format(duration, decimals: 1)) s" }
        text += "\n\n" + pad("address", 10) + pad("count", 10) + "rate/s\n"
        for (address, count) in sortedAddresses(inspector) {
            let rate = inspector.rate(of: address).map { format($0, decimals: 2) } ?? "-"
            text += pad(address.description, 10) + pad(String(count), 10) + rate + "\n"
        }
        text += "\ntalkers: "
        text += inspector.talkers.sorted { $0.key.description < $1.key.description }
            .map { "\($0.key) (\($0.value))" }.joined(separator: ", ")
        text += "\n"
        if inspector.rejects.total > 0 {
            text += "\nrejects:\n"
            for reason in RejectReason.allCases where inspector.rejects[reason] > 0 {
                text += "  " + pad(reason.name, 20) + pad(String(inspector.rejects[reason]), 8)
                if let example = inspector.examples[reason] { text += "line \(example.line): \(example.text)" }
                text += "\n"
            }
        }
        if inspector.comments > 0 { text += "\ncomment lines skipped: \(inspector.comments)\n" }
        return text
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    /// Fixed decimals; a value between -1 and 0 keeps its sign (it once lost it here, in the attitude bench's
    /// truth column among other places).
    static func format(_ value: Double, decimals: Int) -> String { FixedDecimal.text(value, decimals: decimals) }
}
