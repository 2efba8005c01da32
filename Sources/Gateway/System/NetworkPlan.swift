/// What network.toml comes to on the image: the files systemd-networkd, hostapd and wpa_supplicant read, the plan
/// the Wi-Fi script follows, and the notes for the sailor (on the boot partition, and for the panel's settings
/// page). Pure: the settings, the access point's name and passphrase (already chosen) in; file texts out. Every
/// value a sailor typed reaches the files either checked (``NetworkSettings``) or hex-encoded, so no SSID or
/// passphrase can add a line of its own to them.
public struct NetworkPlan: Sendable {
    public struct File: Sendable, Equatable {
        public var name: String
        public var text: String
        /// 0o600 for files holding a passphrase.
        public var mode: UInt32
    }

    public var mode: NetworkSettings.Mode
    public var ssid: String
    public var passphrase: String
    public var files: [File]

    /// - Parameters:
    ///   - ssid: the access point's name (network.toml's, or the default from the board's serial).
    ///   - passphrase: the access point's passphrase (network.toml's, or the one made on first boot).
    ///   - madePassphrase: the passphrase was made here (not the sailor's): the boot partition is told it.
    ///   - webPort: the panel's port, for the notes.
    public init(
        _ settings: NetworkSettings, ssid: String, passphrase: String, madePassphrase: Bool, webPort: Int
    ) {
        mode = settings.mode
        self.ssid = ssid
        self.passphrase = passphrase
        let point = settings.accessPoint
        let banner =
            "# Written at boot by `telltale network` from network.toml on the boot partition; edits here are lost.\n"
        var files: [File] = []
        files.append(
            File(
                name: "plan.env",
                text: banner + "MODE=\(mode.rawValue)\nFALLBACK_SECONDS=\(point.fallbackSeconds)\n"
                    + "SSID=\(Self.shellQuoted(ssid))\n", mode: 0o644))
        var hostapd = banner + "interface=wlan0\ndriver=nl80211\nctrl_interface=/run/hostapd\n"
        hostapd += "ssid2=\(Self.hex(ssid))\nutf8_ssid=1\n"
        if let country = settings.country { hostapd += "country_code=\(country)\nieee80211d=1\n" }
        hostapd += "hw_mode=g\nchannel=\(point.channel)\nieee80211n=1\nwmm_enabled=1\n"
        hostapd += "auth_algs=1\nwpa=2\nwpa_key_mgmt=WPA-PSK\nrsn_pairwise=CCMP\nwpa_passphrase=\(passphrase)\n"
        files.append(File(name: "hostapd.conf", text: hostapd, mode: 0o600))
        var supplicant = banner + "ctrl_interface=DIR=/run/wpa_supplicant\nupdate_config=0\n"
        if let country = settings.country { supplicant += "country=\(country)\n" }
        for (index, network) in settings.wifi.enumerated() {
            // The first listed is preferred when several are in reach.
            supplicant += "network={\n\tssid=\(Self.hex(network.ssid))\n\tscan_ssid=1\n"
            if let key = network.passphrase {
                supplicant += "\tpsk=\"\(key)\"\n"
            } else {
                supplicant += "\tkey_mgmt=NONE\n"
            }
            supplicant += "\tpriority=\(settings.wifi.count - index)\n}\n"
        }
        files.append(File(name: "wpa_supplicant.conf", text: supplicant, mode: 0o600))
        // The access point: its fixed address, and a DHCP server that gives phones an address but no router and no
        // DNS, so that they keep their mobile data for the Internet and reach the Pi over the Wi-Fi.
        files.append(
            File(
                name: "access-point.network",
                text: banner + "[Match]\nName=wlan0\n\n[Network]\nAddress=\(point.address)\nDHCPServer=yes\n"
                    + "LinkLocalAddressing=no\nIPv6SendRA=no\n\n[DHCPServer]\nEmitDNS=no\nEmitRouter=no\n",
                mode: 0o644))
        files.append(
            File(
                name: "join.network",
                text: banner + "[Match]\nName=wlan0\n\n[Network]\nDHCP=yes\nLinkLocalAddressing=ipv6\n",
                mode: 0o644))
        let panel = "http://telltale.local:\(webPort)/"
        var note = "The boat's Wi-Fi, made by this Telltale\n\n"
        note += "  network:     \(ssid)\n  passphrase:  \(passphrase)\n"
        note += "  panel:       \(panel) (or http://\(point.address.host):\(webPort)/)\n"
        note += "  chartplotters and OpenCPN: TCP port 10110 at \(point.address.host)\n\n"
        switch mode {
        case .accessPoint: note += "The access point is on: no [[wifi]] in network.toml.\n"
        case .joinThenAccessPoint:
            note += "The access point comes up when none of network.toml's [[wifi]] networks has been in reach for "
            note += "\(point.fallbackSeconds) s.\n"
        case .join, .off: note += "The access point is off (network.toml).\n"
        }
        note += "To choose your own name and passphrase, or to join the boat's or the marina's Wi-Fi, edit "
        note += "network.toml on this card.\n"
        if madePassphrase && mode != .join && mode != .off {
            files.append(File(name: "telltale-wifi.txt", text: note, mode: 0o644))
        }
        // For the panel's settings page (readable by the gateway's group only: it holds the passphrase).
        var summary = "mode = \(Self.tomlQuoted(mode.rawValue))\nssid = \(Self.tomlQuoted(ssid))\n"
        summary += "passphrase = \(Self.tomlQuoted(passphrase))\naddress = \(Self.tomlQuoted(point.address.host))\n"
        summary += "joins = [" + settings.wifi.map { Self.tomlQuoted($0.ssid) }.joined(separator: ", ") + "]\n"
        files.append(File(name: "access-point.toml", text: summary, mode: 0o640))
        self.files = files
    }

    /// `telltale-` and the last four hex digits of the board's serial number (or of the machine id).
    public static func defaultSSID(identity: String) -> String {
        let digits = identity.lowercased().filter { $0.isHexDigit }
        let tail = digits.count >= 4 ? String(digits.suffix(4)) : "0000"
        return "telltale-" + tail
    }

    /// A passphrase a sailor can type on a phone: three groups of five from 31 letters and digits that cannot be
    /// mistaken for one another (no i, l, o, 0, 1), about 74 bits. Takes 64 random bytes; those past the last whole
    /// multiple of 31 are skipped so that every character is equally likely (should fewer than 15 of 64 be left,
    /// which practically never happens, the skipped ones are used too).
    public static func passphrase(from random: [UInt8]) -> String {
        let alphabet = Array("abcdefghjkmnpqrstuvwxyz23456789")
        var picked = random.filter { $0 < 248 }
        if picked.count < 15 { picked += random.filter { $0 >= 248 } }
        var text = ""
        for (position, byte) in picked.prefix(15).enumerated() {
            if position > 0 && position % 5 == 0 { text.append("-") }
            text.append(alphabet[Int(byte) % 31])
        }
        return text
    }

    static func hex(_ text: String) -> String {
        let digits = Array("0123456789abcdef")
        var out = ""
        for byte in text.utf8 {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return out
    }

    static func shellQuoted(_ text: String) -> String {
        "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }

    static func tomlQuoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
