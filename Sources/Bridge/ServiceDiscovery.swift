/// Finding a service on the boat's network by multicast DNS-SD (RFC 6762, 6763), as a one-shot ("legacy unicast")
/// querier: questions sent to 224.0.0.251:5353 from an ordinary port, each responder answering straight back to that
/// port with the question's id. Used for pypilot (`_pypilot._tcp`, which its `zeroconf_service.py` publishes as
/// `pypilot-<interface>._pypilot._tcp.local.` on port 23322). Pure: packets out and in, no sockets, no clock.
public enum ServiceDiscovery {
    /// The multicast group and port every mDNS responder listens on.
    public static let group = "224.0.0.251"
    public static let port = 5353

    public enum RecordType: UInt16, Sendable {
        case a = 1
        case ptr = 12
        case txt = 16
        case srv = 33
    }

    /// One instance of a service found: its name, the host and port its SRV record names and that host's IPv4
    /// addresses (dotted), as answered.
    public struct Instance: Sendable, Equatable {
        public var name: String
        public var host: String
        public var port: Int
        public var addresses: [String]

        public init(name: String, host: String, port: Int, addresses: [String]) {
            self.name = name
            self.host = host
            self.port = port
            self.addresses = addresses
        }
    }

    /// A query with these questions (class IN, a unicast answer asked for), `id` echoed by the responders.
    public static func query(_ questions: [(name: String, type: RecordType)], id: UInt16) -> [UInt8] {
        var packet: [UInt8] = [UInt8(id >> 8), UInt8(id & 0xFF), 0, 0, 0, UInt8(questions.count), 0, 0, 0, 0, 0, 0]
        for question in questions {
            for label in question.name.split(separator: ".") {
                let bytes = Array(label.utf8.prefix(63))
                packet.append(UInt8(bytes.count))
                packet += bytes
            }
            packet.append(0)
            packet += [UInt8(question.type.rawValue >> 8), UInt8(question.type.rawValue & 0xFF), 0x80, 0x01]
        }
        return packet
    }

    /// The records of one answer that a browser needs, names in lower case without the final dot.
    public struct Records: Sendable {
        public var id: UInt16 = 0
        public var isResponse = false
        /// PTR: a service type to its instances.
        public var pointers: [(owner: String, target: String)] = []
        /// SRV: an instance to its host and port.
        public var services: [(owner: String, host: String, port: Int)] = []
        /// A: a host to an IPv4 address.
        public var addresses: [(owner: String, address: String)] = []

        /// The instances of `service` (`_pypilot._tcp.local`) these records describe fully: a PTR to an instance whose
        /// SRV is there, with the A records of its host.
        public func instances(of service: String) -> [Instance] {
            let type = lower(service)
            var found: [Instance] = []
            for pointer in pointers where pointer.owner == type {
                guard found.allSatisfy({ $0.name != pointer.target }) else { continue }
                guard let srv = services.first(where: { $0.owner == pointer.target }) else { continue }
                let hosts = addresses.filter { $0.owner == srv.host }.map { $0.address }
                found.append(Instance(name: pointer.target, host: srv.host, port: srv.port, addresses: hosts))
            }
            return found
        }

        /// Instance names of `service` named by a PTR, whether or not their SRV came too.
        public func names(of service: String) -> [String] {
            let type = lower(service)
            return pointers.filter { $0.owner == type }.map { $0.target }
        }
    }

    /// The records in a packet, or nil when it is not a DNS message (short, a length or pointer out of bounds, a loop
    /// of compression pointers, more records than its size could hold). Records of other types are passed over.
    public static func read(_ packet: [UInt8]) -> Records? {
        guard packet.count >= 12, packet.count <= 9000 else { return nil }
        var records = Records()
        records.id = UInt16(packet[0]) << 8 | UInt16(packet[1])
        records.isResponse = packet[2] & 0x80 != 0
        func count(_ at: Int) -> Int { Int(packet[at]) << 8 | Int(packet[at + 1]) }
        let questions = count(4)
        let answers = count(6) + count(8) + count(10)
        // Each question takes at least 5 bytes and each record at least 11.
        guard questions * 5 + answers * 11 <= packet.count - 12 else { return nil }
        var offset = 12
        for _ in 0..<questions {
            guard name(packet, &offset) != nil, offset + 4 <= packet.count else { return nil }
            offset += 4
        }
        for _ in 0..<answers {
            guard let owner = name(packet, &offset), offset + 10 <= packet.count else { return nil }
            let type = count(offset)
            let length = count(offset + 8)
            let data = offset + 10
            guard data + length <= packet.count else { return nil }
            offset = data + length
            guard let kind = RecordType(rawValue: UInt16(type)) else { continue }
            switch kind {
            case .ptr:
                var at = data
                guard let target = name(packet, &at), at <= offset else { return nil }
                records.pointers.append((owner, target))
            case .srv:
                guard length >= 7 else { return nil }
                var at = data + 6
                guard let host = name(packet, &at), at <= offset else { return nil }
                records.services.append((owner, host, count(data + 4)))
            case .a:
                guard length == 4 else { return nil }
                let text = packet[data..<(data + 4)].map { String($0) }.joined(separator: ".")
                records.addresses.append((owner, text))
            case .txt:
                break
            }
        }
        return records
    }

    /// A name at `offset` (labels, or a compression pointer to them), lower-cased and dot-joined; `offset` moved past
    /// it. nil when a label runs past the packet, a pointer points forward or loops, or the name is over 255 bytes.
    static func name(_ packet: [UInt8], _ offset: inout Int) -> String? {
        var labels: [String] = []
        var at = offset
        var jumped = false
        var jumps = 0
        var total = 0
        while true {
            guard at < packet.count else { return nil }
            let length = Int(packet[at])
            if length == 0 {
                if !jumped { offset = at + 1 }
                break
            }
            if length & 0xC0 == 0xC0 {
                guard at + 1 < packet.count else { return nil }
                let target = (length & 0x3F) << 8 | Int(packet[at + 1])
                jumps += 1
                guard target < at, jumps <= 32 else { return nil }
                if !jumped { offset = at + 2 }
                jumped = true
                at = target
                continue
            }
            guard length & 0xC0 == 0, at + 1 + length <= packet.count else { return nil }
            total += length + 1
            guard total <= 255 else { return nil }
            labels.append(lower(String(decoding: packet[(at + 1)...(at + length)], as: UTF8.self)))
            at += 1 + length
        }
        return labels.joined(separator: ".")
    }

    /// ASCII lower case, and no final dot: DNS names compare without regard to case.
    static func lower(_ text: String) -> String {
        var bytes = Array(text.utf8)
        if bytes.last == 0x2E { bytes.removeLast() }
        for index in bytes.indices where bytes[index] >= 0x41 && bytes[index] <= 0x5A { bytes[index] += 0x20 }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A browser for one service: when to ask again and what, and the instance found (#41: pypilot by mDNS). Asks for
/// the service's PTR; an answer with the instance's SRV and address is enough; one with only the PTR gets a second
/// question for the SRV and the host's A. Asks again after 1 s, doubling to 30 s, until an instance with an address
/// is found; `forget()` starts over (the instance stopped answering at its address). Pure: the time in.
public struct ServiceBrowser: Sendable {
    public let service: String
    public private(set) var found: Instance?
    /// Packets that were not DNS or not an answer to this browser (counted, passed over).
    public private(set) var unreadable = 0
    public typealias Instance = ServiceDiscovery.Instance

    private var nextAt: Double?
    private var interval = 1.0
    private var id: UInt16 = 0x7e11
    private var pendingName: String?
    private var pendingHost: String?
    private var pendingPort = 0

    public init(service: String) {
        self.service = ServiceDiscovery.lower(service)
    }

    /// When the next query is due (nil when something is found).
    public var due: Double? { found == nil ? (nextAt ?? 0) : nil }

    /// The query to send now, if one is due.
    public mutating func query(at now: Double) -> [UInt8]? {
        guard found == nil, now >= (nextAt ?? 0) else { return nil }
        nextAt = now + interval
        interval = min(interval * 2, 30)
        id = id &+ 1
        var questions: [(name: String, type: ServiceDiscovery.RecordType)] = [(service, .ptr)]
        if let name = pendingName {
            questions.append((name, .srv))
            if let host = pendingHost { questions.append((host, .a)) }
        }
        return ServiceDiscovery.query(questions, id: id)
    }

    /// One packet received on the query's socket; true when it completed an instance.
    @discardableResult
    public mutating func received(_ packet: [UInt8]) -> Bool {
        guard found == nil else { return false }
        guard let records = ServiceDiscovery.read(packet), records.isResponse else {
            unreadable += 1
            return false
        }
        if let instance = records.instances(of: service).first(where: { !$0.addresses.isEmpty }) {
            found = instance
            return true
        }
        // Parts of an answer: the instance's name, then its SRV, then its host's address, maybe in separate packets.
        if pendingName == nil, let name = records.names(of: service).first {
            pendingName = name
            nextAt = nil
        }
        if let name = pendingName, let srv = records.services.first(where: { $0.owner == name }) {
            pendingHost = srv.host
            pendingPort = srv.port
            nextAt = nil
        }
        if let name = pendingName, let host = pendingHost,
            let address = records.addresses.first(where: { $0.owner == host })
        {
            found = Instance(name: name, host: host, port: pendingPort, addresses: [address.address])
            return true
        }
        return false
    }

    /// Start over: the instance found is not answering.
    public mutating func forget(at now: Double) {
        found = nil
        pendingName = nil
        pendingHost = nil
        interval = 1
        nextAt = now
    }
}
