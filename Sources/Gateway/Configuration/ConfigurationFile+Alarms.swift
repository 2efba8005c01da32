import Engine
import Marine
import SignalK

/// `[alarms]`, `[race]` and `[voice]`: what the crew hears and sees of alarms and the start.
extension ConfigurationFile.Reader {
    func alarms(_ root: TOMLTable, _ config: inout GatewayConfiguration) throws(ConfigurationFile.Error) {
        if let alarms = root["alarms"] {
            guard let table = alarms.table else { throw fail("alarms", "must be a table") }
            let section = "alarms"
            try check(
                table, section,
                allowed: [
                    "over_heel", "under_heel", "hysteresis", "hold", "min_speed", "over_heel_spoken",
                    "under_heel_spoken", "sensor_lost", "xte", "arrival", "arrival_seconds", "shallow",
                    "wind_shift", "wind_shift_minutes", "over_early", "text", "spoken", "collision",
                    "collision_cpa", "collision_tcpa", "ais_distress", "anchor", "pressure_fall",
                ])
            var settings = config.engine.alarms
            if table["over_heel"] != nil {
                settings.overHeel = try number(table, "over_heel", section, range: 1...90)
            }
            if table["under_heel"] != nil {
                settings.underHeel = try number(table, "under_heel", section, range: 0...90)
            }
            if let value = try number(table, "hysteresis", section, range: 0...30) {
                settings.hysteresis = value
            }
            if let value = try number(table, "hold", section, range: 0...600) { settings.hold = value }
            if let value = try number(table, "min_speed", section, range: 0...30) {
                settings.minimumSpeed = value
            }
            config.engine.alarms = settings
            try otherAlarms(table, &config.engine.alarms)
        }
    }

    func race(_ root: TOMLTable, _ config: inout GatewayConfiguration, base: String) throws(ConfigurationFile.Error) {
        if let race = root["race"] {
            guard let table = race.table else { throw fail("race", "must be a table") }
            try check(table, "race", allowed: ["sequence", "announce", "bow_offset", "line", "button", "button_chip"])
            if let line = try number(table, "button", "race", range: 0...511) {
                guard line == line.rounded() else { throw fail("race.button", "must be a whole line number") }
                let named = try string(table, "button_chip", "race") ?? "@gpio"
                var chip = named
                if named.hasPrefix("@") {
                    guard
                        let device = board?.devices[String(named.dropFirst())]
                            ?? (named == "@gpio" ? "/dev/gpiochip0" : nil)
                    else { throw fail("race.button_chip", "the board profile has no device \(named.dropFirst())") }
                    chip = device
                }
                config.race.button = (chip, Int(line))
            } else if table["button_chip"] != nil {
                throw fail("race.button_chip", "needs race.button, the line the button is on")
            }
            if let metres = try number(table, "bow_offset", "race", range: 0...100) {
                config.engine.bowOffset = metres
            }
            if let line = try string(table, "line", "race") {
                config.race.line = line.hasPrefix("/") ? line : base + "/" + line
            }
            if let minutes = try numbers(table, "sequence", "race", range: 0...60) {
                config.race.sequenceMinutes = minutes
            }
            if let seconds = try numbers(table, "announce", "race", range: 0...3600) {
                config.race.announceSeconds = seconds
            }
        }
    }

    /// `[boat]` (where the bow is from the GPS antenna, how high it stands) and `[anchor]` (the watch's circle,
    /// hold time and margin).
    func anchor(_ root: TOMLTable, _ config: inout GatewayConfiguration) throws(ConfigurationFile.Error) {
        if let boat = root["boat"] {
            guard let table = boat.table else { throw fail("boat", "must be a table") }
            try check(table, "boat", allowed: ["bow_offset", "bow_height"])
            if let metres = try number(table, "bow_offset", "boat", range: 0...100) { config.engine.bowOffset = metres }
            if let metres = try number(table, "bow_height", "boat", range: 0...20) {
                config.engine.anchor.bowHeight = metres
            }
        }
        if let anchor = root["anchor"] {
            guard let table = anchor.table else { throw fail("anchor", "must be a table") }
            try check(table, "anchor", allowed: ["radius", "hold", "margin"])
            if let metres = try number(table, "radius", "anchor", range: 1...1852) {
                config.engine.anchor.radius = metres
            }
            if let seconds = try number(table, "hold", "anchor", range: 0...600) { config.engine.anchor.hold = seconds }
            if let metres = try number(table, "margin", "anchor", range: 0...200) {
                config.engine.anchor.margin = metres
            }
        }
    }

    /// `[weather]`: the GRIB files watched, where their grids live, and forecast wind as the last wind source.
    func weather(_ root: TOMLTable, _ config: inout GatewayConfiguration, base: String) throws(ConfigurationFile.Error)
    {
        guard let weather = root["weather"] else { return }
        guard let table = weather.table else { throw fail("weather", "must be a table") }
        try check(table, "weather", allowed: ["grib", "folder", "wind_fallback", "talker", "interval"])
        func path(_ key: String) throws(ConfigurationFile.Error) -> String? {
            guard let text = try string(table, key, "weather"), !text.isEmpty else { return nil }
            return text.hasPrefix("/") ? text : base + "/" + text
        }
        config.weather.grib = try path("grib")
        if let folder = try path("folder") { config.weather.folder = folder }
        if let value = try bool(table, "wind_fallback", "weather") { config.engine.weather.windFallback = value }
        if let talker = try talker(table, "talker", "weather") { config.engine.weather.talker = talker }
        if let seconds = try number(table, "interval", "weather", range: 1...3600) { config.weather.interval = seconds }
    }

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
        guard let url = try string(table, "broker", "uplink") else { throw fail("uplink.broker", "is needed") }
        guard let broker = UplinkConfiguration.broker(url) else {
            throw fail("uplink.broker", "must be mqtt://host[:port] or mqtts://host[:port]")
        }
        (uplink.host, uplink.port, uplink.tls) = broker
        let boat = try string(table, "boat", "uplink") ?? config.web?.name ?? "boat"
        guard UplinkConfiguration.isBoatName(boat) else {
            throw fail("uplink.boat", "letters, digits, - and _ only (it is part of every topic)")
        }
        uplink.boat = boat
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
            uplink.queueBytes = Int(megabytes * 1_048_576)
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

    /// `[chart]`: the hours of track kept, the charts folder, the online layers (an empty string switches one off).
    func chart(_ root: TOMLTable, _ config: inout GatewayConfiguration, base: String) throws(ConfigurationFile.Error) {
        if let panel = root["panel"] {
            guard let table = panel.table else { throw fail("panel", "must be a table") }
            try check(table, "panel", allowed: ["start"])
            if let start = try string(table, "start", "panel") {
                let names = ["sailing", "racing", "navigation", "motion", "chart", "weather"]
                guard names.contains(start.lowercased()) else {
                    throw fail("panel.start", "must be one of " + names.joined(separator: ", "))
                }
                config.chart.panelStart = start.lowercased()
            }
        }
        guard let chart = root["chart"] else { return }
        guard let table = chart.table else { throw fail("chart", "must be a table") }
        try check(table, "chart", allowed: ["track_hours", "charts", "base_layer", "seamarks"])
        if let hours = try number(table, "track_hours", "chart", range: 0.5...168) { config.engine.trackHours = hours }
        if let folder = try string(table, "charts", "chart") {
            config.chart.folder = folder.isEmpty ? nil : folder.hasPrefix("/") ? folder : base + "/" + folder
        }
        func layer(_ key: String) throws(ConfigurationFile.Error) -> String?? {
            guard let url = try string(table, key, "chart") else { return .none }
            // By bytes: String's contains(String) is not in Embedded Swift's library.
            let bytes = Array(url.utf8)
            let zoom = Array("{z}".utf8)
            let hasZoom =
                bytes.count >= 3 && (0...(bytes.count - 3)).contains { bytes[$0..<($0 + 3)].elementsEqual(zoom) }
            guard url.isEmpty || ((url.hasPrefix("https://") || url.hasPrefix("http://")) && hasZoom) else {
                throw fail("chart." + key, "must be an http(s) URL with {z}, {x} and {y}, or \"\" for none")
            }
            return .some(url.isEmpty ? nil : url)
        }
        if let url = try layer("base_layer") { config.chart.baseLayer = url }
        if let url = try layer("seamarks") { config.chart.seamarks = url }
    }

    func voice(_ root: TOMLTable, _ config: inout GatewayConfiguration) throws(ConfigurationFile.Error) {
        if let voice = root["voice"] {
            guard let table = voice.table else { throw fail("voice", "must be a table") }
            try check(table, "voice", allowed: ["enabled", "command", "arguments", "device"])
            var settings = VoiceConfiguration()
            if let command = try string(table, "command", "voice") {
                guard !command.isEmpty else { throw fail("voice.command", "must not be empty") }
                settings.command = command
            }
            if let arguments = try strings(table, "arguments", "voice") { settings.arguments = arguments }
            settings.device = try string(table, "device", "voice")
            config.voice = try bool(table, "enabled", "voice") == false ? nil : settings
        }
    }
}

extension ConfigurationFile.Reader {
    /// `[alarms]` beyond heel: sensors lost, XTE, arrival, shallow water, wind shift, and the sailor's words.
    func otherAlarms(_ table: TOMLTable, _ alarms: inout AlarmSettings) throws(ConfigurationFile.Error) {
        let section = "alarms"
        if let value = table["sensor_lost"] {
            if let all = value.bool {
                alarms.sensorLost = all ? Set(QuantityGroup.allCases) : []
            } else if let names = try strings(table, "sensor_lost", section) {
                alarms.sensorLost = Set(
                    try lookUp(
                        names, section + ".sensor_lost", what: "group",
                        known: QuantityGroup.allCases.map { $0.rawValue },
                        QuantityGroup.init(rawValue:)))
            }
        }
        if let miles = try number(table, "xte", section, range: 0.001...9.99) {
            alarms.crossTrackLimit = miles * Units.metresPerNauticalMile
        }
        if let value = try bool(table, "arrival", section) { alarms.arrival = value }
        if let value = try bool(table, "over_early", section) { alarms.overEarly = value }
        if let miles = try number(table, "collision_cpa", section, range: 0.01...5) {
            alarms.collisionDistance = miles * Units.metresPerNauticalMile
        }
        if let minutes = try number(table, "collision_tcpa", section, range: 1...60) {
            alarms.collisionTime = minutes * 60
        }
        if try bool(table, "collision", section) == false { alarms.collisionDistance = nil }
        if let value = try bool(table, "ais_distress", section) { alarms.aisDistress = value }
        if let value = try bool(table, "anchor", section) { alarms.anchor = value }
        // hPa in three hours, or false.
        if table["pressure_fall"]?.bool == false {
            alarms.pressureFall = nil
        } else if let hPa = try number(table, "pressure_fall", section, range: 0.5...20) {
            alarms.pressureFall = hPa * 100
        }
        if let value = try number(table, "arrival_seconds", section, range: 1...3600) { alarms.arrivalDuration = value }
        if let metres = try number(table, "shallow", section, range: 0.1...1000) { alarms.shallow = metres }
        if let degrees = try number(table, "wind_shift", section, range: 1...180) { alarms.windShift = degrees }
        if let minutes = try number(table, "wind_shift_minutes", section, range: 1...60) {
            alarms.windShiftWindow = minutes * 60
        }
        if let words = try string(table, "over_heel_spoken", section) { alarms.spoken[.overHeel] = words }
        if let words = try string(table, "under_heel_spoken", section) { alarms.spoken[.underHeel] = words }
        // A loop, not `merging`: that casts dynamically, which Embedded Swift (the Pi build) cannot.
        for (kind, text) in try words(table, "text") { alarms.text[kind] = text }
        for (kind, text) in try words(table, "spoken") { alarms.spoken[kind] = text }
    }

    /// `[alarms.text]` or `[alarms.spoken]`: the sailor's words by alarm name.
    private func words(_ table: TOMLTable, _ key: String) throws(ConfigurationFile.Error) -> [AlarmKind: String] {
        guard let value = table[key] else { return [:] }
        let name = "alarms." + key
        guard let words = value.table else { throw fail(name, "must be a table of alarm = \"words\"") }
        try check(words, name, allowed: Set(AlarmKind.allCases.map { $0.name }))
        var result: [AlarmKind: String] = [:]
        for kind in AlarmKind.allCases {
            if let text = try string(words, kind.name, name) { result[kind] = text }
        }
        return result
    }
}
