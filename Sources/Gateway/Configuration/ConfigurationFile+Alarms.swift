import Engine
import Marine

/// `[alarms]`: the limits, the hold times, what each alarm says and whether it sounds.
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
                    "collision_cpa", "collision_tcpa", "ais_distress", "anchor", "pressure_fall", "autopilot",
                    "low_water",
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
        if let value = try bool(table, "autopilot", section) { alarms.autopilot = value }
        // hPa in three hours, or false.
        if table["pressure_fall"]?.bool == false {
            alarms.pressureFall = nil
        } else if let hPa = try number(table, "pressure_fall", section, range: 0.5...20) {
            alarms.pressureFall = hPa * 100
        }
        // Metres under the keel at the next low water, at anchor; or false.
        if table["low_water"]?.bool == false {
            alarms.lowWater = nil
        } else if let metres = try number(table, "low_water", section, range: 0...20) {
            alarms.lowWater = metres
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
