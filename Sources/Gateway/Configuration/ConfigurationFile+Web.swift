import Engine
import Marine
import NMEA
import Platform
import Router
import Sensors
import SignalK

/// `[web]`: the Signal K server and the panel.
extension ConfigurationFile.Reader {
    /// `[web]`: the Signal K server (and the panel). Present and not `enabled = false`: on. Every mistake in the
    /// section is reported, not only the first.
    func web(_ table: TOMLTable, base: String = ".") throws(ConfigurationFile.Error) -> WebConfiguration? {
        let section = "web"
        var errors: [ConfigurationFile.Error] = []
        func collect(_ body: () throws(ConfigurationFile.Error) -> Void) {
            do throws(ConfigurationFile.Error) { try body() } catch { errors.append(error) }
        }
        var enabled = true
        var web = WebConfiguration()
        collect { () throws(ConfigurationFile.Error) in
            try check(
                table, section,
                allowed: [
                    "enabled", "listen", "put_networks", "name", "urn", "update_rate", "client_buffer", "max_clients",
                    "max_per_address", "source_priority", "panel",
                ])
        }
        collect { () throws(ConfigurationFile.Error) in enabled = try bool(table, "enabled", section) ?? true }
        collect { () throws(ConfigurationFile.Error) in
            guard let listen = try string(table, "listen", section) else { return }
            guard case .tcp(let host, let port)? = try? Endpoint.parse("tcp://" + listen) else {
                throw fail("web.listen", "must be host:port, such as 0.0.0.0:3000 or [::]:3000")
            }
            web.host = host
            web.port = port
        }
        collect { () throws(ConfigurationFile.Error) in
            guard let networks = try strings(table, "put_networks", section) else { return }
            for network in networks where network != "loopback" && network != "local" {
                guard NetworkRule.Network(network) != nil else {
                    throw fail(
                        "web.put_networks",
                        "\(network) is not a network: write 192.168.1.0/24, fd00::/8, loopback or local")
                }
            }
            web.putNetworks = networks
        }
        collect { () throws(ConfigurationFile.Error) in web.name = try string(table, "name", section) }
        collect { () throws(ConfigurationFile.Error) in
            guard let folder = try string(table, "panel", section), !folder.isEmpty else { return }
            web.panel = folder.hasPrefix("/") ? folder : base + "/" + folder
        }
        collect { () throws(ConfigurationFile.Error) in
            guard let urn = try string(table, "urn", section) else { return }
            guard urn.hasPrefix("urn:mrn:signalk:uuid:") || urn.hasPrefix("urn:mrn:imo:mmsi:") else {
                throw fail("web.urn", "must be urn:mrn:signalk:uuid:<uuid> or urn:mrn:imo:mmsi:<mmsi>")
            }
            web.urn = urn
        }
        collect { () throws(ConfigurationFile.Error) in
            if let rate = try number(table, "update_rate", section, range: 0.1...10) { web.updateRate = rate }
        }
        collect { () throws(ConfigurationFile.Error) in
            if let bytes = try number(table, "client_buffer", section, range: 4096...16_777_216) {
                web.clientBuffer = Int(bytes)
            }
        }
        collect { () throws(ConfigurationFile.Error) in
            if let count = try number(table, "max_clients", section, range: 2...256) { web.maximumClients = Int(count) }
        }
        collect { () throws(ConfigurationFile.Error) in
            guard let value = table["source_priority"] else { return }
            guard let priorities = value.table else {
                throw fail("web.source_priority", "must be a table of paths: \"navigation.headingTrue\" = [\"gps.HC\"]")
            }
            for path in priorities.keys {
                guard let sources = try strings(priorities, path, "web.source_priority"), !sources.isEmpty else {
                    continue
                }
                web.sourcePriority[path] = sources
            }
        }
        collect { () throws(ConfigurationFile.Error) in
            if let count = try number(table, "max_per_address", section, range: 2...256) {
                web.maximumPerAddress = Int(count)
            }
        }
        if var first = errors.first {
            first.others = Array(errors.dropFirst())
            throw first
        }
        return enabled ? web : nil
    }
}
