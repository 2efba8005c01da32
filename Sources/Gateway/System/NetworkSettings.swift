/// `network.toml` on the image's boot partition: how the Pi joins the boat's network. Wi-Fi networks to join, the
/// boat's own access point (on when nothing is to be joined, or when nothing listed has been in reach for a while),
/// and the country whose radio rules apply. Checked as `telltale.toml` is: every key named with its line, unknown
/// keys refused.
public struct NetworkSettings: Hashable, Sendable {
    /// A network to join.
    public struct WiFi: Hashable, Sendable {
        public var ssid: String
        /// None: an open network.
        public var passphrase: String?

        public init(ssid: String, passphrase: String?) {
            self.ssid = ssid
            self.passphrase = passphrase
        }
    }

    /// The boat's own access point.
    public struct AccessPoint: Hashable, Sendable {
        public var enabled = true
        /// Nil: `telltale-` and four characters of the board's serial number.
        public var ssid: String?
        /// Nil: one made on first boot and kept.
        public var passphrase: String?
        public var channel = 6
        /// The Pi's address on its access point, with the network's prefix length.
        public var address = IPv4Interface(address: [192, 168, 4, 1], prefix: 24)
        /// How long no listed network may be in reach before the access point takes over.
        public var fallbackSeconds = 60

        public init() {}
    }

    /// What the radio does.
    public enum Mode: String, Sendable {
        case accessPoint = "access-point"
        case join
        case joinThenAccessPoint = "join-then-access-point"
        case off
    }

    public var country: String?
    public var wifi: [WiFi] = []
    public var accessPoint = AccessPoint()

    public init() {}

    public var mode: Mode {
        switch (wifi.isEmpty, accessPoint.enabled) {
        case (true, true): .accessPoint
        case (true, false): .off
        case (false, true): .joinThenAccessPoint
        case (false, false): .join
        }
    }

    /// Reads network.toml's text; every mistake is reported, not only the first.
    public static func parse(_ text: String) throws(ConfigurationFile.Error) -> NetworkSettings {
        let table: TOMLTable
        do {
            table = try TOMLReader.parse(text)
        } catch {
            throw ConfigurationFile.Error(line: error.line, key: "(syntax)", message: error.message)
        }
        let reader = ConfigurationFile.Reader(lines: ConfigurationFile.KeyLines(text))
        var settings = NetworkSettings()
        var errors: [ConfigurationFile.Error] = []
        func collect(_ body: () throws(ConfigurationFile.Error) -> Void) {
            do throws(ConfigurationFile.Error) { try body() } catch { errors.append(error) }
        }
        collect { () throws(ConfigurationFile.Error) in
            try reader.check(table, "", allowed: ["country", "wifi", "access_point"])
        }
        collect { () throws(ConfigurationFile.Error) in
            guard let country = try reader.string(table, "country", "") else { return }
            guard country.utf8.count == 2, country.utf8.allSatisfy({ (65...90).contains($0) }) else {
                throw reader.fail("country", "a country is its two capital letters (ISO 3166), such as GB or FR")
            }
            settings.country = country
        }
        if let list = table["wifi"] {
            if let array = list.array {
                for (index, element) in array.enumerated() {
                    collect { () throws(ConfigurationFile.Error) in
                        guard let network = element.table else {
                            throw reader.fail("wifi#\(index + 1)", "must be a table: [[wifi]]")
                        }
                        settings.wifi.append(try wifi(network, index: index + 1, reader))
                    }
                }
            } else {
                errors.append(reader.fail("wifi", "each network is a [[wifi]] table"))
            }
        }
        if let value = table["access_point"] {
            if let section = value.table {
                accessPoint(section, into: &settings.accessPoint, reader, &errors)
            } else {
                errors.append(reader.fail("access_point", "must be a table: [access_point]"))
            }
        }
        guard var first = errors.first else { return settings }
        first.others = Array(errors.dropFirst())
        throw first
    }

    private static func wifi(_ table: TOMLTable, index: Int, _ reader: ConfigurationFile.Reader)
        throws(ConfigurationFile.Error) -> WiFi
    {
        let section = "wifi#\(index)"
        try reader.check(table, section, allowed: ["ssid", "passphrase"])
        guard let ssid = try reader.string(table, "ssid", section) else {
            throw reader.fail(section, "a network needs its ssid (its name)")
        }
        try checkSSID(ssid, section + ".ssid", reader)
        let passphrase = try reader.string(table, "passphrase", section)
        if let passphrase { try checkPassphrase(passphrase, section + ".passphrase", reader) }
        return WiFi(ssid: ssid, passphrase: passphrase)
    }

    private static func accessPoint(
        _ table: TOMLTable, into point: inout AccessPoint, _ reader: ConfigurationFile.Reader,
        _ errors: inout [ConfigurationFile.Error]
    ) {
        let section = "access_point"
        func collect(_ body: () throws(ConfigurationFile.Error) -> Void) {
            do throws(ConfigurationFile.Error) { try body() } catch { errors.append(error) }
        }
        collect { () throws(ConfigurationFile.Error) in
            try reader.check(
                table, section,
                allowed: ["enabled", "ssid", "passphrase", "channel", "address", "fallback_seconds"])
        }
        collect { () throws(ConfigurationFile.Error) in
            if let enabled = try reader.bool(table, "enabled", section) { point.enabled = enabled }
        }
        collect { () throws(ConfigurationFile.Error) in
            guard let ssid = try reader.string(table, "ssid", section) else { return }
            try checkSSID(ssid, section + ".ssid", reader)
            point.ssid = ssid
        }
        collect { () throws(ConfigurationFile.Error) in
            guard let passphrase = try reader.string(table, "passphrase", section) else { return }
            try checkPassphrase(passphrase, section + ".passphrase", reader)
            point.passphrase = passphrase
        }
        collect { () throws(ConfigurationFile.Error) in
            if let channel = try reader.number(table, "channel", section, range: 1...13) {
                guard channel == channel.rounded() else { throw reader.fail(section + ".channel", "a whole number") }
                point.channel = Int(channel)
            }
        }
        collect { () throws(ConfigurationFile.Error) in
            guard let text = try reader.string(table, "address", section) else { return }
            guard let address = IPv4Interface(text), (16...29).contains(address.prefix), address.isHost else {
                throw reader.fail(
                    section + ".address",
                    "the Pi's address and its network's length, from /16 to /29, such as 192.168.4.1/24")
            }
            point.address = address
        }
        collect { () throws(ConfigurationFile.Error) in
            if let seconds = try reader.number(table, "fallback_seconds", section, range: 10...3600) {
                point.fallbackSeconds = Int(seconds)
            }
        }
    }

    /// An SSID is 1 to 32 bytes; no control characters (they would end a line of hostapd's file).
    private static func checkSSID(_ ssid: String, _ path: String, _ reader: ConfigurationFile.Reader)
        throws(ConfigurationFile.Error)
    {
        guard (1...32).contains(ssid.utf8.count), ssid.utf8.allSatisfy({ $0 >= 32 && $0 != 127 }) else {
            throw reader.fail(path, "a Wi-Fi name is 1 to 32 bytes, without control characters")
        }
    }

    /// A WPA2 passphrase is 8 to 63 printable ASCII characters.
    private static func checkPassphrase(_ passphrase: String, _ path: String, _ reader: ConfigurationFile.Reader)
        throws(ConfigurationFile.Error)
    {
        guard (8...63).contains(passphrase.utf8.count), passphrase.utf8.allSatisfy({ (32...126).contains($0) }) else {
            throw reader.fail(path, "a WPA2 passphrase is 8 to 63 printable ASCII characters")
        }
    }
}

/// An IPv4 address with its network's prefix length: `192.168.4.1/24`.
public struct IPv4Interface: Hashable, Sendable, CustomStringConvertible {
    public var address: [UInt8]
    public var prefix: Int

    public init(address: [UInt8], prefix: Int) {
        self.address = address
        self.prefix = prefix
    }

    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let prefix = Int(parts[1]), (0...32).contains(prefix) else { return nil }
        let octets = parts[0].split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4 else { return nil }
        var address: [UInt8] = []
        for octet in octets {
            guard !octet.isEmpty, octet.count <= 3, let value = UInt8(octet) else { return nil }
            address.append(value)
        }
        self.init(address: address, prefix: prefix)
    }

    /// Neither the network's own address nor its broadcast address.
    public var isHost: Bool {
        let value = address.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let hostMask: UInt32 = prefix >= 32 ? 0 : UInt32.max >> UInt32(prefix)
        let host = value & hostMask
        return host != 0 && host != hostMask
    }

    /// `192.168.4.1`
    public var host: String { address.map { "\($0)" }.joined(separator: ".") }

    public var description: String { host + "/\(prefix)" }
}
