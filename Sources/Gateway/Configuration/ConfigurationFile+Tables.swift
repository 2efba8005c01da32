import Engine
import Marine
import NMEA
import Platform
import Router
import Sensors
import SignalK

/// One table each: wind, damping, timeouts, route following, endpoints, inputs and outputs; port clashes. `[web]` is
/// in ConfigurationFile+Web, `[alarms]`, `[race]` and `[voice]` in ConfigurationFile+Alarms.
extension ConfigurationFile.Reader {
    /// Outputs that would listen on one TCP port, and UDP inputs on one port: `run` could not open the second.
    /// `localhost` is 127.0.0.1, and 0.0.0.0 or :: takes every address of the port.
    func endpointClashes(_ config: GatewayConfiguration) -> [ConfigurationFile.Error] {
        func overlap(_ a: String, _ b: String) -> Bool {
            let any: Set<String> = ["0.0.0.0", "::", ""]
            let normal = { (host: String) in host == "localhost" ? "127.0.0.1" : host }
            return any.contains(a) || any.contains(b) || normal(a) == normal(b)
        }
        var errors: [ConfigurationFile.Error] = []
        let listeners: [(section: String, host: String, port: Int, scheme: String)] =
            config.outputs.enumerated().compactMap { index, output in
                if case .tcp(let host, let port) = output.endpoint {
                    ("output#\(index + 1)", host, port, "tcp")
                } else {
                    nil
                }
            }
            + (config.web.map { [("web", $0.host, $0.port, "tcp")] } ?? [])
            + config.inputs.enumerated().compactMap { index, input in
                if case .udp(let host, let port) = input.endpoint {
                    ("input#\(index + 1)", host, port, "udp")
                } else {
                    nil
                }
            }
        for (i, later) in listeners.enumerated() {
            for earlier in listeners[..<i]
            where earlier.scheme == later.scheme && earlier.port == later.port && overlap(earlier.host, later.host) {
                errors.append(
                    fail(
                        later.section + ".url",
                        "\(later.scheme) port \(later.port) is already taken by \(earlier.section.replacingHash) "
                            + "(\(Endpoint.bracketed(earlier.host)):\(earlier.port))"))
                break
            }
        }
        return errors
    }

    func wind(_ table: TOMLTable, _ wind: inout WindSettings) throws(ConfigurationFile.Error) {
        let s = "wind"
        try check(
            table, s,
            allowed: [
                "heel_correction", "leeway", "leeway_coefficient", "leeway_limit", "mast_motion", "mast_height",
                "sensor_offset", "sog_fallback",
            ])
        if let value = try bool(table, "heel_correction", s) { wind.heelCorrection = value }
        var model = wind.leeway ?? LeewayModel()
        if let value = try number(table, "leeway_coefficient", s, range: 0...50) { model.coefficient = value }
        if let value = try number(table, "leeway_limit", s, range: 0...45) { model.limit = value }
        wind.leeway = model
        if let value = try bool(table, "leeway", s), !value { wind.leeway = nil }
        if let value = try bool(table, "mast_motion", s) { wind.mastMotion = value }
        if let value = try number(table, "mast_height", s, range: 0...100) { wind.mastHeight = value }
        if let value = try number(table, "sensor_offset", s, range: -180...180) { wind.sensorOffset = value }
        if let value = try bool(table, "sog_fallback", s) { wind.speedOverGroundFallback = value }
    }

    func damping(_ table: TOMLTable, _ damping: inout Damping) throws(ConfigurationFile.Error) {
        // Setters rather than key paths: the Pi build (Embedded Swift) has no key paths.
        try numbers(
            table, "damping", range: 0...600, into: &damping,
            [
                ("apparent_wind", { $0.apparentWind = $1 }), ("true_wind", { $0.trueWind = $1 }),
                ("wind_direction", { $0.windDirection = $1 }), ("speed_through_water", { $0.speedThroughWater = $1 }),
                ("heading", { $0.heading = $1 }), ("speed_over_ground", { $0.speedOverGround = $1 }),
                ("course_over_ground", { $0.courseOverGround = $1 }), ("windward_speed", { $0.windwardSpeed = $1 }),
                ("mean_heel", { $0.meanHeel = $1 }),
            ])
    }

    func timeouts(_ table: TOMLTable, _ timeouts: inout Timeouts) throws(ConfigurationFile.Error) {
        try numbers(
            table, "timeouts", range: 0.1...86_400, into: &timeouts,
            [
                ("wind", { $0.wind = $1 }), ("heading", { $0.heading = $1 }), ("speed", { $0.speed = $1 }),
                ("position", { $0.position = $1 }), ("attitude", { $0.attitude = $1 }), ("depth", { $0.depth = $1 }),
                ("variation", { $0.variation = $1 }),
            ])
    }

    /// A table of numbers, each within `range`, each set on `value` by its setter; no other key allowed.
    private func numbers<Value>(
        _ table: TOMLTable, _ section: String, range: ClosedRange<Double>, into value: inout Value,
        _ keys: [(String, (inout Value, Double) -> Void)]
    ) throws(ConfigurationFile.Error) {
        try check(table, section, allowed: Set(keys.map { $0.0 }))
        for (key, set) in keys {
            if let number = try number(table, key, section, range: range) { set(&value, number) }
        }
    }

    func routeFollowing(_ table: TOMLTable, _ engine: inout EngineConfiguration) throws(ConfigurationFile.Error) {
        let s = "route_following"
        try check(
            table, s,
            allowed: [
                "arrival_radius", "confirmations", "auto_advance", "look_ahead", "max_intercept_angle",
                "follow_upstream", "announce",
            ])
        if let value = try number(table, "arrival_radius", s, range: 0.001...10) {
            engine.route.arrivalRadius = value * Units.metresPerNauticalMile
        }
        if let value = try number(table, "confirmations", s, range: 1...60) {
            engine.route.arrivalConfirmations = Int(value)
        }
        if let value = try bool(table, "auto_advance", s) { engine.route.autoAdvance = value }
        if let value = try number(table, "look_ahead", s, range: 0.001...10) {
            engine.route.lookAhead = value * Units.metresPerNauticalMile
        }
        if let value = try number(table, "max_intercept_angle", s, range: 0...90) {
            engine.route.maximumInterceptAngle = value
        }
        if let value = try bool(table, "follow_upstream", s) { engine.followUpstream = value }
        if let miles = try numbers(table, "announce", s, range: 0.01...20) {
            guard miles.count <= 8 else { throw fail(s + ".announce", "at most 8 distances") }
            engine.route.announceDistances = miles.map { $0 * Units.metresPerNauticalMile }
        }
    }

    func endpoint(_ table: TOMLTable, _ section: String, base: String) throws(ConfigurationFile.Error) -> Endpoint {
        guard var url = try string(table, "url", section) else { throw fail(section, "needs a url") }
        if url.contains("@") {
            guard let board else { throw fail(section + ".url", "@names need a board = \"...\" profile") }
            guard let resolved = board.resolve(url) else {
                throw fail(
                    section + ".url",
                    "the board \(board.name) has no such device (it has: "
                        + board.devices.keys.sorted().joined(separator: ", ") + ")")
            }
            url = resolved
        }
        do { return try Endpoint.parse(url, base: base) } catch { throw fail(section + ".url", error.reason) }
    }

    func input(_ table: TOMLTable, _ section: String, base: String, index: Int) throws(ConfigurationFile.Error)
        -> InputConfiguration
    {
        try check(table, section, allowed: ["name", "url", "loop", "speed", "checksum", "max_length"])
        let endpoint = try self.endpoint(table, section, base: base)
        if endpoint == .standardOutput { throw fail(section + ".url", "stdout is an output") }
        var input = InputConfiguration(
            name: try string(table, "name", section) ?? "input\(index + 1)", endpoint: endpoint)
        if let loop = try bool(table, "loop", section) { input.loop = loop }
        if let speed = try number(table, "speed", section, range: 0.01...1000) { input.speed = speed }
        if let checksum = try string(table, "checksum", section) {
            guard checksum == "required" || checksum == "optional" else {
                throw fail(section + ".checksum", "must be \"required\" or \"optional\"")
            }
            input.framing.requiresChecksum = checksum == "required"
        }
        if let length = try number(table, "max_length", section, range: 82...250) {
            input.framing.maximumLength = Int(length)
        }
        return input
    }

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
