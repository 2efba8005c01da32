import Engine
import NMEA
import Router

/// `[[output]]`: where sentences go, which, how often and in which dialect.
extension ConfigurationFile.Reader {
    func output(_ table: TOMLTable, _ section: String, base: String, index: Int) throws(ConfigurationFile.Error)
        -> OutputConfiguration
    {
        try check(
            table, section,
            allowed: [
                "name", "url", "computed", "pass_through", "include", "exclude", "kinds", "talker", "max_clients",
                "client_buffer", "rate_limits", "attitude_names", "attitude_decimals", "nmea_version", "forecast_wind",
                "autopilot",
            ])
        let endpoint = try self.endpoint(table, section, base: base)
        if case .file = endpoint { throw fail(section + ".url", "file outputs are written by `telltale record`") }
        var output = OutputConfiguration(
            name: try string(table, "name", section) ?? "output\(index + 1)", endpoint: endpoint)
        if let value = try bool(table, "computed", section) { output.computed = value }
        if let value = try bool(table, "pass_through", section) { output.passThrough = value }
        if let value = try strings(table, "include", section) { output.include = value }
        if let value = try strings(table, "exclude", section) { output.exclude = value }
        if let names = try strings(table, "kinds", section) {
            output.kinds = Set(
                try lookUp(
                    names, section + ".kinds", what: "kind", known: ComputedKind.allCases.map { $0.description },
                    ComputedKind.named))
        }
        output.talker = try talker(table, "talker", section)
        if let value = try bool(table, "forecast_wind", section) { output.forecastWind = value }
        if let value = try bool(table, "autopilot", section) { output.autopilot = value }
        if let limits = table["rate_limits"] {
            guard let limits = limits.table else {
                throw fail(section + ".rate_limits", "a table of address patterns and seconds: { \"*MWV\" = 1 }")
            }
            for pattern in limits.keys {
                guard let seconds = limits[pattern]?.double ?? limits[pattern]?.int.map(Double.init), seconds > 0
                else {
                    throw fail(section + ".rate_limits", "\(pattern) needs a number of seconds")
                }
                output.rateLimits.append((pattern, seconds))
            }
        }
        if let names = try strings(table, "attitude_names", section) {
            guard names.count == 2,
                names.allSatisfy({ name in
                    !name.isEmpty && name.count <= 12
                        && name.utf8.allSatisfy {
                            ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F
                        }
                })
            else {
                throw fail(
                    section + ".attitude_names",
                    "two transducer names for heel and pitch, such as [\"HEEL\", \"TRIM\"]")
            }
            output.attitudeNames = (names[0], names[1])
        }
        if let value = try number(table, "attitude_decimals", section, range: 0...3) {
            output.attitudeDecimals = Int(value)
        }
        if let value = try string(table, "nmea_version", section) {
            guard let dialect = NMEADialect(rawValue: value) else {
                throw fail(
                    section + ".nmea_version",
                    "\"compatible\" (APB in 14 fields, the default), \"2.3\" (FAA mode everywhere) or \"2.1\" (none)"
                )
            }
            output.dialect = dialect
        }
        if let value = try number(table, "max_clients", section, range: 1...256) {
            output.maximumClients = Int(value)
        }
        if let value = try number(table, "client_buffer", section, range: 1024...16_777_216) {
            output.clientBuffer = Int(value)
        }
        return output
    }
}
