import Engine
import Fleet
import Marine

/// `[uplink]`: the shore broker and what goes to it.
extension ConfigurationFile.Reader {
    /// `[uplink]`: the shore broker and what goes to it.
    func uplink(_ root: TOMLTable, _ config: inout GatewayConfiguration, base: String) throws(ConfigurationFile.Error) {
        guard let section = root["uplink"] else { return }
        guard let table = section.table else { throw fail("uplink", "must be a table") }
        try check(
            table, "uplink",
            allowed: [
                "broker", "boat", "username", "password", "ca", "certificate", "key", "send", "rates", "batch_seconds",
                "queue_mb", "backlog_rate", "keep_alive", "commands", "command_key",
            ])
        var uplink = UplinkConfiguration()
        // One broker, or several (#43): the boat picks one by a hash of its name, the same every time, so one boat's
        // history stays on one broker while a fleet is spread over many.
        let urls: [String]
        if table["broker"]?.array != nil {
            urls = try strings(table, "broker", "uplink") ?? []
        } else if let url = try string(table, "broker", "uplink") {
            urls = [url]
        } else {
            throw fail("uplink.broker", "is needed")
        }
        guard !urls.isEmpty, urls.count <= 64 else { throw fail("uplink.broker", "one broker, or a list of 1 to 64") }
        for url in urls where UplinkConfiguration.broker(url) == nil {
            throw fail("uplink.broker", "must be mqtt://host[:port] or mqtts://host[:port]: \(url)")
        }
        let boat = try string(table, "boat", "uplink") ?? config.web?.name ?? "boat"
        guard UplinkConfiguration.isBoatName(boat) else {
            throw fail("uplink.boat", "letters, digits, - and _ only (it is part of every topic)")
        }
        uplink.boat = boat
        uplink.brokers = urls
        let chosen = UplinkConfiguration.brokerIndex(boat: boat, of: urls.count)
        guard let broker = UplinkConfiguration.broker(urls[chosen]) else { throw fail("uplink.broker", "unreadable") }
        (uplink.host, uplink.port, uplink.tls) = broker
        uplink.username = try string(table, "username", "uplink")
        uplink.password = try string(table, "password", "uplink")
        func path(_ key: String) throws(ConfigurationFile.Error) -> String? {
            guard let text = try string(table, key, "uplink") else { return nil }
            return text.hasPrefix("/") ? text : base + "/" + text
        }
        uplink.ca = try path("ca")
        uplink.certificate = try path("certificate")
        uplink.key = try path("key")
        if uplink.tls && uplink.ca == nil { throw fail("uplink.ca", "mqtts needs the broker's CA file") }
        if let names = try strings(table, "send", "uplink") {
            var groups: [UplinkGroup: Double] = [:]
            for name in names {
                guard let group = UplinkGroup(rawValue: name) else {
                    throw fail(
                        "uplink.send",
                        "\(name)? the groups are " + UplinkGroup.allCases.map { $0.rawValue }.joined(separator: ", "))
                }
                groups[group] = group.defaultInterval
            }
            uplink.groups = groups
        }
        if let rates = table["rates"] {
            guard let rates = rates.table else { throw fail("uplink.rates", "a table of groups and seconds") }
            for name in rates.keys {
                guard let group = UplinkGroup(rawValue: name), uplink.groups[group] != nil, group != .alarms else {
                    throw fail("uplink.rates." + name, "not a group sent (alarms go when they change)")
                }
                guard let seconds = rates[name]?.double ?? rates[name]?.int.map(Double.init), seconds >= 1,
                    seconds <= 3600
                else { throw fail("uplink.rates." + name, "seconds from 1 to 3600") }
                uplink.groups[group] = seconds
            }
        }
        if let seconds = try number(table, "batch_seconds", "uplink", range: 1...600) { uplink.batchSeconds = seconds }
        if let megabytes = try number(table, "queue_mb", "uplink", range: 0.05...4096) {
            uplink.queueBytes = ByteSize.of(megabytes: megabytes)
        }
        if let rate = try number(table, "backlog_rate", "uplink", range: 1...1000) { uplink.backlogRate = rate }
        if let seconds = try number(table, "keep_alive", "uplink", range: 5...600) { uplink.keepAlive = Int(seconds) }
        if let value = try bool(table, "commands", "uplink") { uplink.commands = value }
        uplink.commandKey = try string(table, "command_key", "uplink")
        if uplink.commands, (uplink.commandKey?.utf8.count ?? 0) < 16 {
            throw fail("uplink.command_key", "commands from shore need a key of 16 characters or more")
        }
        guard config.stateFile != nil else {
            throw fail("uplink", "needs a state_file: the queue on disk lives beside it")
        }
        config.uplink = uplink
    }
}
