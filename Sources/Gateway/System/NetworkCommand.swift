import Platform

/// `telltale network`: network.toml into the files of ``NetworkPlan``, at every boot of the image
/// (telltale-network.service, as root). A missing network.toml means the defaults (the boat's access point); a bad
/// one is reported (and noted for the boot partition) and the defaults are used, so the sailor can always reach the
/// Pi to put it right. The access point's passphrase, when network.toml gives none, is made once and kept in the
/// state folder (on the data partition: it survives reboots and new images).
public enum NetworkCommand {
    /// Where the board's serial number is (a Raspberry Pi's device tree), else the machine id.
    static let identityFiles = ["/proc/device-tree/serial-number", "/etc/machine-id"]

    /// Writes the plan's files into `options.output`; returns what the radio will do, for the log.
    public static func run(_ options: NetworkOptions, log: (String) -> Void) throws(CommandError) -> String {
        var settings = NetworkSettings()
        var problem: String?
        if POSIX.exists(options.settings) {
            if let bytes = try? POSIX.readFile(options.settings) {
                do throws(ConfigurationFile.Error) {
                    settings = try NetworkSettings.parse(String(decoding: bytes, as: UTF8.self))
                } catch {
                    problem = error.description
                }
            } else {
                problem = "it cannot be read"
            }
        }
        if let problem {
            log("\(options.settings) was not used, the defaults were (the boat's access point):\n" + problem)
        }
        let identity = identityFiles.lazy.compactMap { try? POSIX.readFile($0) }.first.map {
            String(decoding: $0.filter { $0 != 0 }, as: UTF8.self)
        }
        let ssid = settings.accessPoint.ssid ?? NetworkPlan.defaultSSID(identity: identity ?? "")
        var passphrase = settings.accessPoint.passphrase
        var made = false
        if passphrase == nil {
            passphrase = try keptPassphrase(in: options.state)
            made = true
        }
        var webPort = 3000
        if let path = options.configuration, let configuration = try? ConfigurationFile.load(path: path),
            let web = configuration.web
        {
            webPort = web.port
        }
        let plan = NetworkPlan(settings, ssid: ssid, passphrase: passphrase!, madePassphrase: made, webPort: webPort)
        do throws(POSIX.Failure) {
            try POSIX.makeDirectories(options.output, mode: 0o755)
            for file in plan.files {
                try POSIX.writeFileAtomically(options.output + "/" + file.name, file.text, mode: file.mode)
            }
            let errorNote = options.output + "/network-error.txt"
            if let problem {
                try POSIX.writeFileAtomically(
                    errorNote, "network.toml on this card was not used (the defaults were):\n" + problem + "\n")
            } else {
                POSIX.remove(errorNote)
            }
        } catch {
            throw CommandError("network: \(error)")
        }
        switch plan.mode {
        case .accessPoint: return "network: the boat's access point \(ssid)"
        case .join: return "network: joining " + settings.wifi.map { $0.ssid }.joined(separator: ", ")
        case .joinThenAccessPoint:
            return "network: joining " + settings.wifi.map { $0.ssid }.joined(separator: ", ")
                + "; the access point \(ssid) when none is in reach"
        case .off: return "network: Wi-Fi off"
        }
    }

    /// The access point's passphrase made on first boot and kept in `folder`.
    static func keptPassphrase(in folder: String) throws(CommandError) -> String {
        let path = folder + "/access-point-passphrase"
        if let bytes = try? POSIX.readFile(path) {
            let text = String(decoding: bytes, as: UTF8.self).trimmingSpaces.filter { $0 != "\n" }
            if (8...63).contains(text.utf8.count) { return text }
        }
        do throws(POSIX.Failure) {
            let passphrase = NetworkPlan.passphrase(from: try POSIX.randomBytes(64))
            try POSIX.makeDirectories(folder, mode: 0o700)
            try POSIX.writeFileAtomically(path, passphrase + "\n", mode: 0o600)
            return passphrase
        } catch {
            throw CommandError("network: \(error)")
        }
    }
}
