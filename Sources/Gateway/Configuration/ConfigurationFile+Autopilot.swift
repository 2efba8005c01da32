/// `[autopilot]`: pilots Telltale talks to other than on the NMEA 2000 bus (#41): pypilot over its TCP protocol.
public struct AutopilotConfiguration: Sendable {
    /// pypilot's address (a numeric IP) and port (23322, its default).
    public var pypilotHost: String?
    public var pypilotPort = 23322
    /// `pypilot = "mdns"`: its address found as it publishes it (`_pypilot._tcp`).
    public var pypilotDiscovery = false

    public init() {}
}

extension ConfigurationFile.Reader {
    func autopilot(_ root: TOMLTable, _ config: inout GatewayConfiguration) throws(ConfigurationFile.Error) {
        guard let section = root["autopilot"] else { return }
        guard let table = section.table else { throw fail("autopilot", "must be a table") }
        try check(table, "autopilot", allowed: ["pypilot"])
        if let address = try string(table, "pypilot", "autopilot"), address == "mdns" {
            config.autopilot.pypilotDiscovery = true
        } else if let address = try string(table, "pypilot", "autopilot") {
            let parts = address.split(separator: ":", omittingEmptySubsequences: false)
            let port = parts.count == 2 ? Int(parts[1]) : 23322
            guard parts.count <= 2, let port, port > 0, port < 65536, !parts[0].isEmpty,
                parts[0].utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E })
            else {
                throw fail(
                    "autopilot.pypilot",
                    "pypilot's numeric IP address, with its port if not 23322 (\"192.168.4.20\"), or \"mdns\" to find it"
                )
            }
            config.autopilot.pypilotHost = String(parts[0])
            config.autopilot.pypilotPort = port
        }
    }
}
