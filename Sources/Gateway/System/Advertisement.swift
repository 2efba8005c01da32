import Platform
import SignalK

/// The DNS-SD records that let the crew's apps find the gateway without a typed address: the panel (`_http._tcp`),
/// Signal K (`_signalk-http._tcp` and `_signalk-ws._tcp`, with the TXT keys Signal K clients read: `txtvers`,
/// `roles`, `self`, `swname`, `swvers`) and NMEA 0183 over TCP (`_nmea-0183._tcp`, one per TCP output), as an
/// avahi-daemon service file. Pure: the configuration in, the file's text out.
public enum Advertisement {
    public static func serviceFile(_ configuration: GatewayConfiguration, urn: String) -> String {
        var services: [String] = []
        if let web = configuration.web {
            services.append(service("_http._tcp", port: web.port, txt: ["path=/"]))
            let signalK = [
                "txtvers=1", "roles=master,main", "self=" + urn, "swname=telltale", "swvers=" + TelltaleVersion.string,
            ]
            services.append(service("_signalk-http._tcp", port: web.port, txt: signalK))
            services.append(service("_signalk-ws._tcp", port: web.port, txt: signalK))
        }
        var ports: [Int] = []
        for output in configuration.outputs {
            if case .tcp(_, let port) = output.endpoint, !ports.contains(port) { ports.append(port) }
        }
        for port in ports { services.append(service("_nmea-0183._tcp", port: port, txt: [])) }
        let name = configuration.web?.name.map { escaped($0) + " (Telltale on %h)" } ?? "Telltale on %h"
        return """
            <?xml version="1.0" standalone='no'?>
            <!DOCTYPE service-group SYSTEM "avahi-service.dtd">
            <!-- Written by `telltale advertise` from the gateway's configuration when it starts; edits are lost. -->
            <service-group>
              <name replace-wildcards="yes">\(name)</name>

            """ + services.joined() + "</service-group>\n"
    }

    static func service(_ type: String, port: Int, txt: [String]) -> String {
        var text = "  <service>\n    <type>\(type)</type>\n    <port>\(port)</port>\n"
        for record in txt { text += "    <txt-record>\(escaped(record))</txt-record>\n" }
        return text + "  </service>\n"
    }

    static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }

    /// `telltale advertise`: the service file written (atomically: avahi re-reads its folder when it changes) or
    /// printed.
    public static func run(_ options: AdvertiseOptions) throws(CommandError) -> String {
        let configuration: GatewayConfiguration
        do {
            configuration = try ConfigurationFile.load(path: options.config)
        } catch {
            throw CommandError("\(options.config): \(error)")
        }
        let urn = configuration.web?.urn ?? SignalKModel.urn(seed: WebService.machineIdentity())
        let text = serviceFile(configuration, urn: urn)
        if options.output == "-" { return text }
        guard POSIX.exists(POSIX.folder(of: options.output)) else {
            return
                "nothing advertised: \(POSIX.folder(of: options.output)) is missing (avahi-daemon is not installed)\n"
        }
        do {
            try POSIX.writeFileAtomically(options.output, text)
        } catch {
            throw CommandError("advertise: \(error)")
        }
        return "advertised on DNS-SD: \(options.output)\n"
    }
}
