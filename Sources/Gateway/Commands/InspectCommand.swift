import CPosix
import Marine
import NMEA
import Platform
import SignalK

/// `telltale inspect`: a bus inspector for a log file or a live stream, read in chunks (a day's log is not held in
/// memory), without its command-line library.
public enum InspectCommand {
    /// The report: a table, or one JSON object with a line end.
    public static func run(_ options: InspectOptions) throws(CommandError) -> String {
        let live = options.file == "-"
        let fd: Int32
        do { fd = live ? 0 : try POSIX.open(options.file, O_RDONLY) } catch { throw CommandError("\(error)") }
        defer { if !live { POSIX.close(fd) } }
        if options.ais { return try ais(fd, options) }
        var inspector = BusInspector(
            configuration: FramerConfiguration(
                maximumLength: options.maximumLength, requiresChecksum: !options.allowMissingChecksum,
                skipsCommentLines: true))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        reading: while true {
            switch chunk.withUnsafeMutableBytes({ POSIX.read(fd, into: $0) }) {
            case .bytes(let count):
                let now = live ? POSIX.monotonic() : nil
                chunk.withUnsafeBufferPointer { inspector.feed(UnsafeBufferPointer(rebasing: $0[0..<count]), now: now) }
            case .end:
                break reading
            case .wouldBlock:
                continue
            case .failed(let code):
                throw CommandError("cannot read \(options.file): \(POSIX.message(code))")
            }
        }
        inspector.finish()
        return options.json ? json(inspector) + "\n" : table(inspector)
    }

    static func sortedAddresses(_ inspector: BusInspector) -> [(Address, Int)] {
        // Relabelled element by element: an array cast from (key:value:) pairs is a dynamic cast Embedded Swift refuses.
        inspector.byAddress.sorted { $0.key.description < $1.key.description }.map { ($0.key, $0.value) }
    }

    /// One JSON object: `sentences`, `rejected` by reason, `by_address`, `rates`, `talkers`, `examples`.
    public static func json(_ inspector: BusInspector) -> String {
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

    /// The table a person reads: counts and rates per address, talkers, rejects with their first example.
    public static func table(_ inspector: BusInspector) -> String {
        func format(_ value: Double, _ decimals: Int) -> String { FixedDecimal.text(value, decimals: decimals) }
        var text = "sentences \(inspector.accepted), rejected \(inspector.rejects.total)"
        if let duration = inspector.duration { text += ", over \(format(duration, 1)) s" }
        text += "\n\n" + pad("address", 10) + pad("count", 10) + "rate/s\n"
        for (address, count) in sortedAddresses(inspector) {
            let rate = inspector.rate(of: address).map { format($0, 2) } ?? "-"
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

    /// `--ais`: each AIS message as one JSON line, written as it is read (a live feed prints as it comes).
    static func ais(_ fd: Int32, _ options: InspectOptions) throws(CommandError) -> String {
        var framer = SentenceFramer(
            configuration: FramerConfiguration(
                maximumLength: options.maximumLength, requiresChecksum: !options.allowMissingChecksum,
                skipsCommentLines: true))
        var assembler = AISAssembler()
        var lines = ""
        var count = 0
        let take: (FramerEvent) -> Void = { event in
            guard case .sentence(let sentence) = event, case .vdm(let fragment)? = try? Message(sentence) else {
                return
            }
            count += 1
            guard let bits = assembler.add(fragment, source: 0, at: Double(count) / 1000),
                let report = AISReport(bits)
            else { return }
            lines += json(report) + "\n"
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        reading: while true {
            switch chunk.withUnsafeMutableBytes({ POSIX.read(fd, into: $0) }) {
            case .bytes(let read):
                chunk.withUnsafeBufferPointer { framer.feed(UnsafeBufferPointer(rebasing: $0[0..<read]), take) }
                Console.out(lines)
                lines = ""
            case .end:
                break reading
            case .wouldBlock:
                continue
            case .failed(let code):
                throw CommandError("cannot read \(options.file): \(POSIX.message(code))")
            }
        }
        framer.finish(take)
        return lines
    }

    /// One AIS message as JSON, by pyais's field names; values not sent or not available are null.
    public static func json(_ r: AISReport) -> String {
        var json = JSONWriter()
        json.beginObject()
        json.value("msg_type", r.messageType)
        json.value("repeat", r.repeatIndicator)
        json.value("mmsi", Int(r.mmsi))
        func number(_ key: String, _ value: Double?) { if let value { json.value(key, value) } else { json.null(key) } }
        func integer(_ key: String, _ value: Int?) { if let value { json.value(key, value) } else { json.null(key) } }
        func text(_ key: String, _ value: String?) { if let value { json.value(key, value) } else { json.null(key) } }
        if let p = r.position {
            number("lat", p.latitude)
            number("lon", p.longitude)
            number("speed", p.speedOverGround)
            number("course", p.courseOverGround)
            number("heading", p.heading)
            number("turn", p.rateOfTurn)
            integer("status", p.navigationStatus)
            integer("second", p.second)
            json.value("accuracy", p.isAccurate)
        }
        if let s = r.statics {
            text("shipname", s.name)
            text("callsign", s.callsign)
            integer("imo", s.imo.map { Int($0) })
            integer("ship_type", s.shipType)
            integer("to_bow", s.toBow)
            integer("to_stern", s.toStern)
            integer("to_port", s.toPort)
            integer("to_starboard", s.toStarboard)
            number("draught", s.draught)
            text("destination", s.destination)
            integer("partno", s.part)
            integer("month", s.eta?.month)
            integer("day", s.eta?.day)
            integer("hour", s.eta?.hour)
            integer("minute", s.eta?.minute)
        }
        if let aid = r.aid {
            json.value("aid_type", aid.type)
            json.value("virtual_aid", aid.isVirtual)
        }
        json.value("implausible", r.implausible)
        json.endObject()
        return json.text
    }
}
