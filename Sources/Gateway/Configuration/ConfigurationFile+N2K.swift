import Bridge

/// `[n2k]`: the NMEA 2000 bus, one section that owns it. One section rather than an input and an output on the same
/// interface: Telltale is one node on the bus (one NAME, one claimed address) that reads and writes, and the reading
/// and writing halves must agree on that node, on which PGNs come from the bus (never sent back) and on the
/// interface's life (a bus-off or an interface down closes and reopens both).
public struct N2KConfiguration: Sendable, Equatable {
    /// Where the frames come from and go.
    public enum Bus: Sendable, Equatable, CustomStringConvertible {
        /// A SocketCAN interface (`can://can0`): the HATs' MCP2515, a CANable's gs_usb, vcan.
        case socketCAN(interface: String)
        /// A recorded bus played in real time (`file:///path`): candump -l, canboat's plain or fast format, Yacht
        /// Devices RAW. Read only.
        case file(path: String)
        /// A Yacht Devices gateway (YDWG-02, YDEN-02) in RAW mode over TCP (`ydraw+tcp://192.168.4.1:1457`), which
        /// also takes frames to send, or over UDP (`ydraw+udp://:1456`, read only).
        case yachtDevicesTCP(host: String, port: Int)
        case yachtDevicesUDP(host: String, port: Int)

        public var description: String {
            switch self {
            case .socketCAN(let interface): "can://" + interface
            case .file(let path): "file://" + path
            case .yachtDevicesTCP(let host, let port): "ydraw+tcp://\(host):\(port)"
            case .yachtDevicesUDP(let host, let port): "ydraw+udp://\(host):\(port)"
            }
        }

        /// Whether frames can be sent on it.
        public var canSend: Bool {
            switch self {
            case .socketCAN, .yachtDevicesTCP: true
            case .file, .yachtDevicesUDP: false
            }
        }

        static func parse(_ url: String, base: String) -> Bus? {
            func hostPort(_ rest: Substring) -> (String, Int)? {
                guard let colon = rest.lastIndex(of: ":"), let port = Int(rest[rest.index(after: colon)...]),
                    (1...65535).contains(port)
                else { return nil }
                let host = String(rest[..<colon])
                return (host.isEmpty ? "0.0.0.0" : host, port)
            }
            if url.hasPrefix("can://") {
                let name = url.dropFirst(6)
                guard !name.isEmpty, name.utf8.count < 16, !name.utf8.contains(UInt8(ascii: "/")) else { return nil }
                return .socketCAN(interface: String(name))
            }
            if url.hasPrefix("file://") {
                let path = String(url.dropFirst(7))
                guard !path.isEmpty else { return nil }
                return .file(path: path.hasPrefix("/") ? path : base + "/" + path)
            }
            if url.hasPrefix("ydraw+tcp://"), let (host, port) = hostPort(url.dropFirst(12)) {
                return .yachtDevicesTCP(host: host, port: port)
            }
            if url.hasPrefix("ydraw+udp://"), let (host, port) = hostPort(url.dropFirst(12)) {
                return .yachtDevicesUDP(host: host, port: port)
            }
            return nil
        }
    }

    public var bus: Bus
    /// The input's name: the bus's devices are the sources `<name>:<NAME>` (`n2k:c0a8e4001e2ff6f1`).
    public var name = "n2k"
    public var send: Set<N2KOutbound.Computed> = Set(N2KOutbound.Computed.allCases)
    public var convert: Set<N2KOutbound.Conversion> = N2KOutbound.Conversion.standard
    public var hold = 4.0
    public var merge = 0.05
    /// The address first tried (then the one kept from the last claim).
    public var address: UInt8 = 35
    public var deviceInstance = 0
    /// Read the bus, never send on it (no claim, no answer).
    public var listenOnly = false
    /// A file bus played again from its start at its end.
    public var loop = false

    public init(bus: Bus) { self.bus = bus }
}

extension ConfigurationFile.Reader {
    /// `[n2k]`: the NMEA 2000 bus.
    func n2k(_ root: TOMLTable, _ config: inout GatewayConfiguration, base: String) throws(ConfigurationFile.Error) {
        guard let section = root["n2k"] else { return }
        guard let table = section.table else { throw fail("n2k", "must be a table") }
        try check(
            table, "n2k",
            allowed: ["bus", "name", "send", "convert", "hold", "merge", "address", "instance", "listen_only", "loop"])
        guard var url = try string(table, "bus", "n2k") else {
            throw fail("n2k.bus", "is needed: can://can0, file://bus.log, ydraw+tcp://host:port or ydraw+udp://:port")
        }
        // `can://@can`: the board's CAN interface (a HAT's can0).
        if url.utf8.contains(UInt8(ascii: "@")) {
            guard let board else { throw fail("n2k.bus", "@names need a board = \"...\" profile") }
            guard let resolved = board.resolve(url) else {
                throw fail(
                    "n2k.bus",
                    "the board \(board.name) has no such device (it has: "
                        + board.devices.keys.sorted().joined(separator: ", ") + ")")
            }
            url = resolved
        }
        guard let bus = N2KConfiguration.Bus.parse(url, base: base) else {
            throw fail("n2k.bus", "\(url)? can://can0, file://bus.log, ydraw+tcp://host:port or ydraw+udp://:port")
        }
        var n2k = N2KConfiguration(bus: bus)
        if let name = try string(table, "name", "n2k") {
            guard !name.isEmpty, !name.utf8.contains(UInt8(ascii: ":")) else {
                throw fail("n2k.name", "a name without a colon")
            }
            n2k.name = name
        }
        if let names = try strings(table, "send", "n2k") {
            n2k.send = Set(
                try lookUp(
                    names, "n2k.send", what: "value", known: N2KOutbound.Computed.allCases.map { $0.rawValue },
                    N2KOutbound.Computed.init(rawValue:)))
        }
        if let names = try strings(table, "convert", "n2k") {
            n2k.convert = Set(
                try lookUp(
                    names, "n2k.convert", what: "conversion",
                    known: N2KOutbound.Conversion.allCases.map { $0.rawValue }, N2KOutbound.Conversion.init(rawValue:)))
        }
        if let value = try number(table, "hold", "n2k", range: 0...60) { n2k.hold = value }
        if let value = try number(table, "merge", "n2k", range: 0...1) { n2k.merge = value }
        if let value = try number(table, "address", "n2k", range: 0...251) { n2k.address = UInt8(value) }
        if let value = try number(table, "instance", "n2k", range: 0...255) { n2k.deviceInstance = Int(value) }
        if let value = try bool(table, "listen_only", "n2k") { n2k.listenOnly = value }
        if let value = try bool(table, "loop", "n2k") { n2k.loop = value }
        if !bus.canSend { n2k.listenOnly = true }
        if config.inputs.contains(where: { $0.name == n2k.name }) {
            throw fail("n2k.name", "\(n2k.name) is an input's name already")
        }
        config.n2k = n2k
    }
}
