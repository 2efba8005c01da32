/// Which clients may change things (PUT): a list of networks in CIDR form (`192.168.1.0/24`, `::1/128`), or the
/// words `loopback` and `local` (the subnets of the machine's own interfaces, given by the shell).
public struct NetworkRule: Sendable, Equatable {
    public struct Network: Hashable, Sendable {
        /// 4 bytes for IPv4, 16 for IPv6.
        public var address: [UInt8]
        public var prefix: Int

        public init?(_ text: String) {
            let parts = text.split(separator: "/", maxSplits: 1)
            guard let first = parts.first, let address = Self.parse(String(first)) else { return nil }
            let prefix = parts.count > 1 ? Int(parts[1]) : address.count * 8
            guard let prefix, prefix >= 0, prefix <= address.count * 8 else { return nil }
            self.address = address
            self.prefix = prefix
        }

        public init(address: [UInt8], prefix: Int) {
            self.address = address
            self.prefix = prefix
        }

        public func contains(_ peer: [UInt8]) -> Bool {
            guard peer.count == address.count else { return false }
            var bits = prefix
            for index in address.indices where bits > 0 {
                let take = min(8, bits)
                let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - take))
                if peer[index] & mask != address[index] & mask { return false }
                bits -= take
            }
            return true
        }

        /// Address bytes as text: dotted IPv4, or IPv6 as eight groups of hexadecimal.
        public static func text(_ address: [UInt8]) -> String {
            if address.count == 4 { return address.map { String($0) }.joined(separator: ".") }
            var groups: [String] = []
            var index = 0
            while index + 1 < address.count {
                groups.append(String(UInt16(address[index]) << 8 | UInt16(address[index + 1]), radix: 16))
                index += 2
            }
            return groups.joined(separator: ":")
        }

        /// Numeric IPv4 (`a.b.c.d`) or IPv6 (with `::`) into bytes.
        public static func parse(_ text: String) -> [UInt8]? {
            if text.contains(":") { return parse6(text) }
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 4 else { return nil }
            var bytes: [UInt8] = []
            for part in parts {
                guard !part.isEmpty, part.count <= 3, let value = Int(part), value <= 255 else { return nil }
                bytes.append(UInt8(value))
            }
            return bytes
        }

        private static func parse6(_ text: String) -> [UInt8]? {
            let bytes = Array(text.utf8)
            var halves: [String] = []
            var start = 0
            var index = 0
            while index + 1 < bytes.count {
                if bytes[index] == UInt8(ascii: ":") && bytes[index + 1] == UInt8(ascii: ":") {
                    halves.append(String(decoding: bytes[start..<index], as: UTF8.self))
                    index += 2
                    start = index
                } else {
                    index += 1
                }
            }
            halves.append(String(decoding: bytes[start...], as: UTF8.self))
            guard halves.count <= 2 else { return nil }
            func groups(_ part: String) -> [UInt16]? {
                guard !part.isEmpty else { return [] }
                var out: [UInt16] = []
                for group in part.split(separator: ":", omittingEmptySubsequences: false) {
                    guard !group.isEmpty, group.count <= 4, let value = UInt16(group, radix: 16) else { return nil }
                    out.append(value)
                }
                return out
            }
            guard let head = groups(halves[0]) else { return nil }
            var all = head
            if halves.count == 2 {
                guard let tail = groups(halves[1]), head.count + tail.count < 8 else { return nil }
                all += Array(repeating: 0, count: 8 - head.count - tail.count) + tail
            }
            guard all.count == 8 else { return nil }
            return all.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        }
    }

    public var networks: [Network]

    public init(networks: [Network]) {
        self.networks = networks
    }

    public static let loopback: [Network] = [
        Network(address: [127, 0, 0, 0], prefix: 8),
        Network(address: Array(repeating: 0, count: 15) + [1], prefix: 128),
    ]

    /// Whether a client at `peer` (4 or 16 bytes; an IPv4-mapped IPv6 address is taken as IPv4) may PUT.
    public func admits(_ peer: [UInt8]) -> Bool {
        var address = peer
        if address.count == 16 && address[0..<10].allSatisfy({ $0 == 0 }) && address[10] == 0xFF && address[11] == 0xFF
        {
            address = Array(address[12...])
        }
        return networks.contains { $0.contains(address) }
    }
}
