import Bridge
import N2K
import Platform
import SignalK

/// `telltale n2k`: the bus's devices, from the running gateway or read from a bus directly.
public enum N2KCommand {
    public static func run(_ options: N2KOptions) throws(CommandError) -> String {
        if let path = options.decode {
            try decode(path) { Console.out($0) }
            return ""
        }
        let json: String
        if let url = options.listen {
            json = try listen(url, seconds: options.seconds)
        } else {
            let answer = try LocalGateway.request(
                "GET", "/telltale/v1/n2k", body: nil, host: "127.0.0.1", port: options.port, what: "n2k")
            guard answer.status == 200 else {
                let message = JSONValue.parse(Array(answer.body.utf8))?["message"]?.string ?? answer.line
                throw CommandError("n2k: the gateway answered \(message)")
            }
            json = answer.body
        }
        if options.json { return json + "\n" }
        guard let value = JSONValue.parse(Array(json.utf8), maximumLength: 4 << 20) else {
            throw CommandError("n2k: the listing is not JSON")
        }
        return N2KListing.text(value)
    }

    /// Every message of a recording that Telltale reads, one JSON object a line: its PGN, source, destination, priority
    /// and fields (``N2KValue/fields``), to hold against another decoder.
    public static func decode(_ path: String, _ out: (String) -> Void) throws(CommandError) {
        let file: LineFile
        do { file = try LineFile(path: path) } catch { throw CommandError("n2k: \(error)") }
        var receiver = N2KReceiver()
        var last = 0.0
        var batch = ""
        func emit(_ message: N2KMessage) {
            let (value, _) = N2KValue.decode(message)
            let fields = value.fields
            guard !fields.isEmpty else { return }
            var w = JSONWriter()
            w.beginObject()
            w.value("pgn", Int(message.pgn))
            w.value("src", Int(message.source))
            w.value("dst", Int(message.destination))
            w.value("prio", Int(message.priority))
            w.beginObject("fields")
            for (id, field) in fields {
                switch field {
                case .number(let number): w.value(id, number)
                case .text(let text): if let text { w.value(id, text) } else { w.null(id) }
                }
            }
            w.endObject()
            w.endObject()
            batch += w.text + "\n"
            if batch.utf8.count > 60_000 {
                out(batch)
                batch = ""
            }
        }
        while let line = file.next() {
            guard let parsed = N2KLogLine.parse(line) else { continue }
            switch parsed {
            case .frame(let frame, let time):
                last = time ?? last + 0.005
                receiver.feed(frame, at: last) { emit($0) }
            case .message(let message, let time):
                last = time ?? last
                emit(message)
            }
        }
        out(batch)
    }

    /// Reads a bus without taking part in it: a recording whole (its own times give the rates), a live bus for
    /// `seconds` after asking every device for its address claim from the null address.
    static func listen(_ url: String, seconds: Double) throws(CommandError) -> String {
        guard let bus = N2KConfiguration.Bus.parse(url, base: ".") else {
            throw CommandError("n2k: \(url)? can://can0, file://bus.log, ydraw+tcp://host:port or ydraw+udp://:port")
        }
        var configuration = N2KConfiguration(bus: bus)
        configuration.listenOnly = true
        var settings = N2KBus.Settings(node: N2KService.nodeSettings(unique: 0, configuration, address: nil))
        settings.listenOnly = true
        var n2k = N2KBus(settings: settings)
        if case .file(let path) = bus {
            let file: LineFile
            do { file = try LineFile(path: path) } catch { throw CommandError("n2k: \(error)") }
            var last = 0.0
            while let line = file.next() {
                guard let parsed = N2KLogLine.parse(line) else { continue }
                switch parsed {
                case .frame(let frame, let time):
                    last = time ?? last + 0.005
                    n2k.received(frame, at: last) { _ in }
                case .message(let message, let time):
                    last = time ?? last + 0.005
                    n2k.received(message, at: last) { _ in }
                }
            }
            return N2KListing.json(n2k, transport: bus.description, name: "n2k", now: last)
        }
        let transport = BusTransports.make(configuration, log: Log { _ in })
        let start = POSIX.monotonic()
        transport.start(at: start)
        var asked = false
        var problems: [String] = []
        while POSIX.monotonic() - start < seconds {
            var set = PollSet(capacity: 2)
            let now = POSIX.monotonic()
            transport.prepare(now: now, into: &set)
            set.wait(seconds: 0.1)
            transport.service(now: POSIX.monotonic(), polled: set) { reading in
                switch reading {
                case .frame(let frame): n2k.received(frame, at: POSIX.monotonic()) { _ in }
                case .message(let message): n2k.received(message, at: POSIX.monotonic()) { _ in }
                case .problem(_, _, let text): problems.append(text)
                case .opened: break
                }
            }
            if !asked {
                // A request for address claims from the null address: allowed to a device without an address, and
                // every device answers with its NAME.
                let request = N2KMessage(
                    pgn: ISORequest.pgn, priority: 6, source: N2KNode.nullAddress,
                    payload: ISORequest.payload(asking: 60928))
                asked = transport.send(N2KSender.frames(request, sequence: 0)[0], now: now)
            }
        }
        transport.close()
        if n2k.messagesIn == 0, let problem = problems.last { throw CommandError(problem) }
        return N2KListing.json(n2k, transport: bus.description, name: "n2k", now: POSIX.monotonic())
    }
}
