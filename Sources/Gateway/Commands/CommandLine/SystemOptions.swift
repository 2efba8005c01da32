/// What `telltale network` is told (the image runs it at every boot, as root).
public struct NetworkOptions: CommandOptions {
    public var settings = "/boot/firmware/network.toml"
    public var state = "/data/network"
    public var output = "/run/telltale/network"
    /// The gateway's configuration, for the panel's port in the notes.
    public var configuration: String?

    public init() {}

    public static let spec = CommandSpec(
        "network",
        abstract: "Turn network.toml into the image's Wi-Fi and address files (run at boot by the image).",
        discussion: """
            Writes hostapd.conf, wpa_supplicant.conf, the systemd-networkd files and the plan the image's Wi-Fi \
            service follows into OUTPUT. Without network.toml, or with one that is not valid, the Pi makes the \
            boat's own access point, with a passphrase made once and kept in STATE.
            """,
        flags: [
            .option("settings", "FILE", "network.toml (on the image: the boot partition's).", example: "network.toml"),
            .option("state", "DIR", "Where the access point's passphrase is kept.", example: "/data/network"),
            .option("output", "DIR", "Where the files go.", example: "/run/telltale/network"),
            .option(
                "configuration", "FILE", "The gateway's telltale.toml (the panel's port for the notes).",
                example: "telltale.toml"),
        ])

    public mutating func set(_ flag: String, _ value: String?) throws(CommandError) {
        switch flag {
        case "settings": settings = CommandParser.text(value)
        case "state": state = CommandParser.text(value)
        case "output": output = CommandParser.text(value)
        case "configuration": configuration = CommandParser.text(value)
        default: throw .unhandled(flag)
        }
    }
}

/// What `telltale advertise` is told.
public struct AdvertiseOptions: CommandOptions {
    public var config = "/etc/telltale/telltale.toml"
    /// Where the avahi service file goes; `-` prints it.
    public var output = "/etc/avahi/services/telltale.service"

    public init() {}

    public static let spec = CommandSpec(
        "advertise",
        abstract:
            "Write the DNS-SD records (avahi) that let apps find the gateway: Signal K, the panel, NMEA over TCP.",
        discussion: """
            Reads the configuration's web and TCP ports and the vessel's identity and writes an avahi-daemon \
            service file: _http._tcp, _signalk-http._tcp and _signalk-ws._tcp for the web port, _nmea-0183._tcp \
            for each TCP output. The packaged service runs it before the gateway starts.
            """,
        flags: [
            .option("config", "FILE", "The configuration file.", example: "telltale.toml"),
            .option("output", "FILE", "The service file, or - to print it.", example: "-"),
        ])

    public mutating func set(_ flag: String, _ value: String?) throws(CommandError) {
        switch flag {
        case "config": config = CommandParser.text(value)
        case "output": output = CommandParser.text(value)
        default: throw .unhandled(flag)
        }
    }
}
