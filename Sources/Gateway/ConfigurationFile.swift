import Engine
import Marine
import NMEA
import Platform
import Router
import Sensors

/// Reads a `telltale.toml`: TOML parsed by ``TOMLReader``, checked here key by key. Every error names the key and its
/// line; unknown keys are errors (a misspelt key must not be silently ignored on a boat).
public enum ConfigurationFile {
    public struct Error: Swift.Error, Hashable, Sendable, CustomStringConvertible {
        public var line: Int?
        public var key: String
        public var message: String
        /// Further errors found in the same file, in order.
        public var others: [Error] = []

        public init(line: Int?, key: String, message: String) {
            self.line = line
            self.key = key
            self.message = message
        }

        /// Every error, one a line.
        public var description: String {
            ([self] + others).map { error in
                (error.line.map { "line \($0): " } ?? "") + (error.key.isEmpty ? "" : error.key + ": ") + error.message
            }.joined(separator: "\n")
        }
    }

    /// Loads and validates a configuration file. Relative paths inside it are relative to its folder.
    public static func load(path: String) throws(Error) -> GatewayConfiguration {
        let bytes: [UInt8]
        do { bytes = try POSIX.readFile(path) } catch {
            throw Error(line: nil, key: "", message: "cannot be read: \(POSIX.message(error.code))")
        }
        let folder = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        return try parse(String(decoding: bytes, as: UTF8.self), base: folder)
    }

    /// Parses configuration text.
    public static func parse(_ text: String, base: String = ".") throws(Error) -> GatewayConfiguration {
        let table: TOMLTable
        do {
            table = try TOMLReader.parse(text)
        } catch {
            throw Error(line: error.line, key: "(syntax)", message: error.message)
        }
        var reader = Reader(lines: KeyLines(text))
        if let name = table["board"]?.string, name != "bench" {
            do {
                reader.board = try BoardProfile.load(name, from: BoardProfile.searchPaths(configurationFolder: base))
            } catch {
                throw Error(line: KeyLines(text).line("board"), key: "board", message: error.message)
            }
        }
        return try reader.configuration(table, base: base)
    }

    /// Where each key stands in the text, including the occurrence of each `[[array]]` table, for messages.
    struct KeyLines {
        private var lines: [String: Int] = [:]

        init(_ text: String) {
            var section = ""
            var counts: [String: Int] = [:]
            for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let line = rawLine.drop { $0 == " " || $0 == "\t" }
                if line.hasPrefix("[[") {
                    let name = String(line.dropFirst(2).prefix { $0 != "]" }).trimmingSpaces
                    counts[name, default: 0] += 1
                    section = "\(name)#\(counts[name]!)"
                    lines[section] = index + 1
                } else if line.hasPrefix("[") {
                    section = String(line.dropFirst().prefix { $0 != "]" }).trimmingSpaces
                    lines[section] = index + 1
                } else if let equals = line.firstIndex(of: "="), !line.hasPrefix("#") {
                    let key = String(line[..<equals]).trimmingSpaces
                    lines[section.isEmpty ? key : section + "." + key] = index + 1
                }
            }
        }

        func line(_ path: String) -> Int? { lines[path] }
    }

    struct Reader {
        let lines: KeyLines
        var board: BoardProfile?

        /// A bound as a person writes it: `50`, not `50.0`.
        static func plain(_ value: Double) -> String {
            value == value.rounded() && abs(value) < 1e15 ? "\(Int(value))" : "\(value)"
        }

        func fail(_ path: String, _ message: String) -> Error {
            Error(line: lines.line(path), key: path.replacingHash, message: message)
        }

        func check(_ table: TOMLTable, _ section: String, allowed: Set<String>) throws(Error) {
            for key in table.keys.sorted() where !allowed.contains(key) {
                let path = section.isEmpty ? key : section + "." + key
                throw fail(path, "unknown key (known: \(allowed.sorted().joined(separator: ", ")))")
            }
        }

        func number(_ table: TOMLTable, _ key: String, _ section: String, range: ClosedRange<Double>? = nil)
            throws(Error) -> Double?
        {
            guard let value = table[key] else { return nil }
            let path = section.isEmpty ? key : section + "." + key
            guard let number = value.double ?? value.int.map(Double.init) else { throw fail(path, "must be a number") }
            if let range, !range.contains(number) {
                throw fail(path, "must be from \(Self.plain(range.lowerBound)) to \(Self.plain(range.upperBound))")
            }
            return number
        }

        func bool(_ table: TOMLTable, _ key: String, _ section: String) throws(Error) -> Bool? {
            guard let value = table[key] else { return nil }
            guard let flag = value.bool else {
                throw fail(section.isEmpty ? key : section + "." + key, "must be true or false")
            }
            return flag
        }

        func string(_ table: TOMLTable, _ key: String, _ section: String) throws(Error) -> String? {
            guard let value = table[key] else { return nil }
            guard let text = value.string else {
                throw fail(section.isEmpty ? key : section + "." + key, "must be a string")
            }
            return text
        }

        func strings(_ table: TOMLTable, _ key: String, _ section: String) throws(Error) -> [String]? {
            guard let value = table[key] else { return nil }
            let path = section.isEmpty ? key : section + "." + key
            guard let array = value.array else { throw fail(path, "must be a list of strings") }
            var result: [String] = []
            for element in array {
                guard let text = element.string else { throw fail(path, "must be a list of strings") }
                result.append(text)
            }
            return result
        }

        func talker(_ table: TOMLTable, _ key: String, _ section: String) throws(Error) -> Talker? {
            guard let text = try string(table, key, section) else { return nil }
            guard let talker = Talker(text) else {
                throw fail(section.isEmpty ? key : section + "." + key, "a talker is two capital letters or digits")
            }
            return talker
        }

        mutating func configuration(_ root: TOMLTable, base: String) throws(Error) -> GatewayConfiguration {
            var config = GatewayConfiguration()
            // Every section is checked even after an error, so that one run of check-config names every mistake.
            var errors: [Error] = []
            func collect(_ body: () throws(Error) -> Void) {
                do throws(Error) { try body() } catch { errors.append(error) }
            }
            collect { () throws(Error) in
                try check(
                    root, "",
                    allowed: [
                        "board", "talker", "rate", "route", "stale", "variation", "status_line", "summary_interval",
                        "state_file", "wind",
                        "damping",
                        "timeouts",
                        "route_following", "priority", "alarms", "attitude", "record", "imu", "input", "output",
                    ])
            }
            collect { () throws(Error) in
                config.board = try string(root, "board", "")
            }
            collect { () throws(Error) in
                if let talker = try talker(root, "talker", "") { config.engine.talker = talker }
            }
            collect { () throws(Error) in
                if let rate = try number(root, "rate", "", range: 1...50) { config.tickRate = rate }
            }
            collect { () throws(Error) in
                if let route = try string(root, "route", "") {
                    config.route = route.hasPrefix("/") ? route : base + "/" + route
                }
            }
            collect { () throws(Error) in
                if let stale = try string(root, "stale", "") {
                    guard let behavior = StaleBehavior(rawValue: stale) else {
                        throw fail("stale", "must be \"invalid\" (status V) or \"silent\"")
                    }
                    config.engine.staleBehavior = behavior
                }
            }
            collect { () throws(Error) in
                config.engine.variation = try number(root, "variation", "", range: -180...180)
            }
            collect { () throws(Error) in
                if let status = try bool(root, "status_line", "") { config.statusLine = status }
            }
            collect { () throws(Error) in
                if let state = try string(root, "state_file", "") {
                    config.stateFile = state.isEmpty ? nil : state.hasPrefix("/") ? state : base + "/" + state
                }
            }
            collect { () throws(Error) in
                if let interval = try number(root, "summary_interval", "", range: 0...86_400) {
                    config.summaryInterval = interval == 0 ? nil : interval
                }
            }
            collect { () throws(Error) in
                if let wind = root["wind"] {
                    guard let table = wind.table else { throw fail("wind", "must be a table") }
                    try self.wind(table, &config.engine.wind)
                }
            }
            collect { () throws(Error) in
                if let damping = root["damping"] {
                    guard let table = damping.table else { throw fail("damping", "must be a table") }
                    try self.damping(table, &config.engine.damping)
                }
            }
            collect { () throws(Error) in
                if let timeouts = root["timeouts"] {
                    guard let table = timeouts.table else { throw fail("timeouts", "must be a table") }
                    try self.timeouts(table, &config.engine.timeouts)
                }
            }
            collect { () throws(Error) in
                if let following = root["route_following"] {
                    guard let table = following.table else { throw fail("route_following", "must be a table") }
                    try routeFollowing(table, &config.engine)
                }
            }
            collect { () throws(Error) in
                if let imu = root["imu"] {
                    guard let table = imu.table else { throw fail("imu", "must be a table") }
                    try check(
                        table, "imu",
                        allowed: [
                            "url", "loop", "speed", "axes", "rate", "accel_range", "gyro_range", "lowpass",
                            "magnetometer",
                            "heading", "magnetometer_offset", "startup_bias_seconds",
                        ])
                    guard let url = try string(table, "url", "imu") ?? board?.imuURL else {
                        throw fail(
                            "imu", "needs a url (\(IMUConfiguration.forms)), or a board whose profile names its IMU")
                    }
                    var settings: IMUConfiguration
                    do throws(IMUConfiguration.URLError) {
                        settings = try IMUConfiguration.parse(url, base: base)
                    } catch {
                        throw fail("imu.url", error.reason)
                    }
                    if let axes = board?.imuAxes { settings.axes = axes }
                    if let value = try number(table, "rate", "imu", range: 10...1000) {
                        settings.sensor.sampleRate = value
                    }
                    if let value = try number(table, "accel_range", "imu", range: 2...16) {
                        settings.sensor.accelerometerRange = value
                    }
                    if let value = try number(table, "gyro_range", "imu", range: 125...2000) {
                        settings.sensor.gyroscopeRange = value
                    }
                    if let value = try number(table, "lowpass", "imu", range: 1...500) {
                        settings.sensor.lowPass = value
                    }
                    if let value = try bool(table, "magnetometer", "imu") { settings.sensor.magnetometer = value }
                    if let value = try bool(table, "heading", "imu") {
                        config.engine.imuHeading = value
                        if value { settings.sensor.magnetometer = true }
                    }
                    if let value = table["magnetometer_offset"] {
                        guard let items = value.array?.compactMap({ $0.double }), items.count == 3 else {
                            throw fail("imu.magnetometer_offset", "three numbers in µT, such as [12.5, -3.0, 40.1]")
                        }
                        config.engine.magnetometerOffset = SIMD3(items[0], items[1], items[2])
                    }
                    if let value = try number(table, "startup_bias_seconds", "imu", range: 0...60) {
                        config.engine.startupBiasWindow = value
                    }
                    if let loop = try bool(table, "loop", "imu") { settings.loop = loop }
                    if let speed = try number(table, "speed", "imu", range: 0.01...1000) { settings.speed = speed }
                    if let axes = try string(table, "axes", "imu") {
                        guard let map = AxisMap(axes) else {
                            throw fail("imu.axes", "three chip axes for body x, y, z, such as \"x,-y,-z\"")
                        }
                        settings.axes = map
                    }
                    config.imu = settings
                }
            }
            collect { () throws(Error) in
                if let record = root["record"] {
                    guard let table = record.table else { throw fail("record", "must be a table") }
                    try check(table, "record", allowed: ["directory", "rotate_size_mb", "rotate_minutes"])
                    guard let directory = try string(table, "directory", "record") else {
                        throw fail("record", "needs a directory")
                    }
                    var settings = Recorder.Settings(
                        directory: directory.hasPrefix("/") ? directory : base + "/" + directory)
                    if let value = try number(table, "rotate_size_mb", "record", range: 1...10_000) {
                        settings.rotateBytes = Int(value * 1024 * 1024)
                    }
                    if let value = try number(table, "rotate_minutes", "record", range: 1...10_080) {
                        settings.rotateSeconds = value * 60
                    }
                    config.record = settings
                }
            }
            collect { () throws(Error) in
                if let alarms = root["alarms"] {
                    guard let table = alarms.table else { throw fail("alarms", "must be a table") }
                    let section = "alarms"
                    try check(table, section, allowed: ["over_heel", "under_heel", "hysteresis", "hold", "min_speed"])
                    var settings = config.engine.heelAlarms
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
                    config.engine.heelAlarms = settings
                }
            }
            collect { () throws(Error) in
                if let attitude = root["attitude"] {
                    guard let table = attitude.table else { throw fail("attitude", "must be a table") }
                    try check(table, "attitude", allowed: ["decimals", "gain", "bias_gain"])
                    if let value = try number(table, "decimals", "attitude", range: 0...3) {
                        config.engine.attitudeDecimals = Int(value)
                    }
                    if let value = try number(table, "gain", "attitude", range: 0.001...5) {
                        config.engine.attitude.gain = value
                    }
                    if let value = try number(table, "bias_gain", "attitude", range: 0...1) {
                        config.engine.attitude.biasGain = value
                    }
                }
            }
            collect { () throws(Error) in
                if let priority = root["priority"] {
                    guard let table = priority.table else { throw fail("priority", "must be a table") }
                    try check(table, "priority", allowed: Set(QuantityGroup.allCases.map { $0.rawValue }))
                    for group in QuantityGroup.allCases {
                        if let names = try strings(table, group.rawValue, "priority") {
                            config.engine.priorities[group] = names
                        }
                    }
                }
            }
            collect { () throws(Error) in
                if let inputs = root["input"] {
                    guard let array = inputs.array else { throw fail("input", "must be an array of tables: [[input]]") }
                    for (index, element) in array.enumerated() {
                        guard let table = element.table else { throw fail("input#\(index + 1)", "must be a table") }
                        collect { () throws(Error) in
                            config.inputs.append(try input(table, "input#\(index + 1)", base: base, index: index))
                        }
                    }
                }
            }
            collect { () throws(Error) in
                if let outputs = root["output"] {
                    guard let array = outputs.array else {
                        throw fail("output", "must be an array of tables: [[output]]")
                    }
                    for (index, element) in array.enumerated() {
                        guard let table = element.table else { throw fail("output#\(index + 1)", "must be a table") }
                        collect { () throws(Error) in
                            config.outputs.append(try output(table, "output#\(index + 1)", base: base, index: index))
                        }
                    }
                }
            }
            var names: Set<String> = []
            for (index, name) in (config.inputs.map { $0.name } + config.outputs.map { $0.name }).enumerated() {
                guard names.insert(name).inserted else {
                    let section =
                        index < config.inputs.count ? "input#\(index + 1)" : "output#\(index - config.inputs.count + 1)"
                    errors.append(fail(section + ".name", "the name \(name) is used twice"))
                    continue
                }
            }
            errors += endpointClashes(config)
            if var first = errors.first {
                first.others = Array(errors.dropFirst())
                throw first
            }
            config.engine.kinds = config.requiredKinds
            return config
        }

        /// Outputs that would listen on one TCP port, and UDP inputs on one port: `run` could not open the second.
        /// `localhost` is 127.0.0.1, and 0.0.0.0 or :: takes every address of the port.
        func endpointClashes(_ config: GatewayConfiguration) -> [Error] {
            func overlap(_ a: String, _ b: String) -> Bool {
                let any: Set<String> = ["0.0.0.0", "::", ""]
                let normal = { (host: String) in host == "localhost" ? "127.0.0.1" : host }
                return any.contains(a) || any.contains(b) || normal(a) == normal(b)
            }
            var errors: [Error] = []
            let listeners: [(section: String, host: String, port: Int, scheme: String)] =
                config.outputs.enumerated().compactMap { index, output in
                    if case .tcp(let host, let port) = output.endpoint {
                        ("output#\(index + 1)", host, port, "tcp")
                    } else {
                        nil
                    }
                }
                + config.inputs.enumerated().compactMap { index, input in
                    if case .udp(let host, let port) = input.endpoint {
                        ("input#\(index + 1)", host, port, "udp")
                    } else {
                        nil
                    }
                }
            for (i, later) in listeners.enumerated() {
                for earlier in listeners[..<i]
                where earlier.scheme == later.scheme && earlier.port == later.port && overlap(earlier.host, later.host)
                {
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

        func wind(_ table: TOMLTable, _ wind: inout WindSettings) throws(Error) {
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

        func damping(_ table: TOMLTable, _ damping: inout Damping) throws(Error) {
            let s = "damping"
            // Setters rather than key paths: the Pi build (Embedded Swift) has no key paths.
            let keys: [(String, (inout Damping, Double) -> Void)] = [
                ("apparent_wind", { $0.apparentWind = $1 }), ("true_wind", { $0.trueWind = $1 }),
                ("wind_direction", { $0.windDirection = $1 }), ("speed_through_water", { $0.speedThroughWater = $1 }),
                ("heading", { $0.heading = $1 }), ("speed_over_ground", { $0.speedOverGround = $1 }),
                ("course_over_ground", { $0.courseOverGround = $1 }), ("windward_speed", { $0.windwardSpeed = $1 }),
                ("mean_heel", { $0.meanHeel = $1 }),
            ]
            try check(table, s, allowed: Set(keys.map { $0.0 }))
            for (key, set) in keys {
                if let value = try number(table, key, s, range: 0...600) { set(&damping, value) }
            }
        }

        func timeouts(_ table: TOMLTable, _ timeouts: inout Timeouts) throws(Error) {
            let s = "timeouts"
            let keys: [(String, (inout Timeouts, Double) -> Void)] = [
                ("wind", { $0.wind = $1 }), ("heading", { $0.heading = $1 }), ("speed", { $0.speed = $1 }),
                ("position", { $0.position = $1 }), ("attitude", { $0.attitude = $1 }),
                ("variation", { $0.variation = $1 }),
            ]
            try check(table, s, allowed: Set(keys.map { $0.0 }))
            for (key, set) in keys {
                if let value = try number(table, key, s, range: 0.1...86_400) { set(&timeouts, value) }
            }
        }

        func routeFollowing(_ table: TOMLTable, _ engine: inout EngineConfiguration) throws(Error) {
            let s = "route_following"
            try check(
                table, s,
                allowed: [
                    "arrival_radius", "confirmations", "auto_advance", "look_ahead", "max_intercept_angle",
                    "follow_upstream",
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
        }

        func endpoint(_ table: TOMLTable, _ section: String, base: String) throws(Error) -> Endpoint {
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

        func input(_ table: TOMLTable, _ section: String, base: String, index: Int) throws(Error) -> InputConfiguration
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

        func output(_ table: TOMLTable, _ section: String, base: String, index: Int) throws(Error)
            -> OutputConfiguration
        {
            try check(
                table, section,
                allowed: [
                    "name", "url", "computed", "pass_through", "include", "exclude", "kinds", "talker", "max_clients",
                    "client_buffer", "rate_limits", "attitude_names", "attitude_decimals", "nmea_version",
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
                var kinds: Set<ComputedKind> = []
                for name in names {
                    guard let kind = ComputedKind.allCases.first(where: { $0.description == name }) else {
                        throw fail(
                            section + ".kinds",
                            "unknown kind \(name) (known: "
                                + ComputedKind.allCases.map { $0.description }.joined(separator: ", ") + ")")
                    }
                    kinds.insert(kind)
                }
                output.kinds = kinds
            }
            output.talker = try talker(table, "talker", section)
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
}

extension String {
    var trimmingSpaces: String {
        var scalars = Substring(self)
        while scalars.first == " " || scalars.first == "\t" { scalars.removeFirst() }
        while scalars.last == " " || scalars.last == "\t" || scalars.last == "\r" { scalars.removeLast() }
        return String(scalars)
    }

    /// `output#2.url` reads as `output 2: url` in messages.
    var replacingHash: String {
        guard let hash = firstIndex(of: "#") else { return self }
        let name = self[..<hash]
        let rest = self[index(after: hash)...]
        let number = rest.prefix { $0.isNumber }
        let tail = rest.dropFirst(number.count)
        return "[[\(name)]] #\(number)" + (tail.isEmpty ? "" : " " + tail.dropFirst())
    }
}
