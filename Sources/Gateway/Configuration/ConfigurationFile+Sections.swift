import Engine
import Marine
import NMEA
import Platform
import Router
import Sensors

/// The whole file: every section read, every error collected, then the checks across sections.
extension ConfigurationFile.Reader {
    mutating func configuration(_ root: TOMLTable, base: String) throws(ConfigurationFile.Error) -> GatewayConfiguration
    {
        var config = GatewayConfiguration()
        // Every section is checked even after an error, so that one run of check-config names every mistake.
        var errors: [ConfigurationFile.Error] = []
        func collect(_ body: () throws(ConfigurationFile.Error) -> Void) {
            do throws(ConfigurationFile.Error) { try body() } catch { errors.append(error) }
        }
        collect { () throws(ConfigurationFile.Error) in
            try check(
                root, "",
                allowed: [
                    "board", "talker", "rate", "route", "stale", "variation", "status_line", "summary_interval",
                    "state_file", "wind",
                    "damping",
                    "timeouts",
                    "route_following", "priority", "alarms", "attitude", "record", "imu", "input", "output", "web",
                    "race", "voice", "autopilot", "polar", "anchor", "boat", "chart", "panel", "weather", "uplink",
                    "n2k", "history",
                ])
        }
        collect { () throws(ConfigurationFile.Error) in
            config.board = try string(root, "board", "")
        }
        collect { () throws(ConfigurationFile.Error) in
            if let talker = try talker(root, "talker", "") { config.engine.talker = talker }
        }
        collect { () throws(ConfigurationFile.Error) in
            if let rate = try number(root, "rate", "", range: 1...50) { config.tickRate = rate }
        }
        collect { () throws(ConfigurationFile.Error) in
            if let route = try string(root, "route", "") {
                config.route = route.hasPrefix("/") ? route : base + "/" + route
            }
        }
        collect { () throws(ConfigurationFile.Error) in
            if let polar = try string(root, "polar", "") {
                let path = polar.hasPrefix("/") ? polar : base + "/" + polar
                do throws(CommandError) { config.engine.polar = try PolarFile.load(path) } catch {
                    throw fail("polar", error.description)
                }
            }
        }
        collect { () throws(ConfigurationFile.Error) in
            if let stale = try string(root, "stale", "") {
                guard let behavior = StaleBehavior(rawValue: stale) else {
                    throw fail("stale", "must be \"invalid\" (status V) or \"silent\"")
                }
                config.engine.staleBehavior = behavior
            }
        }
        collect { () throws(ConfigurationFile.Error) in
            config.engine.variation = try number(root, "variation", "", range: -180...180)
        }
        collect { () throws(ConfigurationFile.Error) in
            if let status = try bool(root, "status_line", "") { config.statusLine = status }
        }
        collect { () throws(ConfigurationFile.Error) in
            if let state = try string(root, "state_file", "") {
                config.stateFile = state.isEmpty ? nil : state.hasPrefix("/") ? state : base + "/" + state
            }
        }
        collect { () throws(ConfigurationFile.Error) in
            if let interval = try number(root, "summary_interval", "", range: 0...86_400) {
                config.summaryInterval = interval == 0 ? nil : interval
            }
        }
        collect { () throws(ConfigurationFile.Error) in
            if let wind = root["wind"] {
                guard let table = wind.table else { throw fail("wind", "must be a table") }
                try self.wind(table, &config.engine.wind)
            }
        }
        collect { () throws(ConfigurationFile.Error) in
            if let damping = root["damping"] {
                guard let table = damping.table else { throw fail("damping", "must be a table") }
                try self.damping(table, &config.engine.damping)
            }
        }
        collect { () throws(ConfigurationFile.Error) in
            if let timeouts = root["timeouts"] {
                guard let table = timeouts.table else { throw fail("timeouts", "must be a table") }
                try self.timeouts(table, &config.engine.timeouts)
            }
        }
        collect { () throws(ConfigurationFile.Error) in
            if let following = root["route_following"] {
                guard let table = following.table else { throw fail("route_following", "must be a table") }
                try routeFollowing(table, &config.engine)
            }
        }
        collect { () throws(ConfigurationFile.Error) in
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
        collect { () throws(ConfigurationFile.Error) in
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
        collect { () throws(ConfigurationFile.Error) in try alarms(root, &config) }
        collect { () throws(ConfigurationFile.Error) in try race(root, &config, base: base) }
        collect { () throws(ConfigurationFile.Error) in try voice(root, &config) }
        collect { () throws(ConfigurationFile.Error) in try autopilot(root, &config) }
        collect { () throws(ConfigurationFile.Error) in try history(root, &config) }
        collect { () throws(ConfigurationFile.Error) in try anchor(root, &config) }
        collect { () throws(ConfigurationFile.Error) in try chart(root, &config, base: base) }
        collect { () throws(ConfigurationFile.Error) in try weather(root, &config, base: base) }
        collect { () throws(ConfigurationFile.Error) in
            if let web = root["web"] {
                guard let table = web.table else { throw fail("web", "must be a table") }
                do throws(ConfigurationFile.Error) {
                    config.web = try self.web(table, base: base)
                } catch {
                    // Each of the section's errors counts as one of the file's.
                    var first = error
                    let others = first.others
                    first.others = []
                    errors += [first] + others
                }
            }
        }
        // After [web] and state_file: the boat's name and the queue's folder come from them.
        collect { () throws(ConfigurationFile.Error) in try uplink(root, &config, base: base) }
        collect { () throws(ConfigurationFile.Error) in try n2k(root, &config, base: base) }
        collect { () throws(ConfigurationFile.Error) in
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
        collect { () throws(ConfigurationFile.Error) in
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
        collect { () throws(ConfigurationFile.Error) in
            if let inputs = root["input"] {
                guard let array = inputs.array else { throw fail("input", "must be an array of tables: [[input]]") }
                for (index, element) in array.enumerated() {
                    guard let table = element.table else { throw fail("input#\(index + 1)", "must be a table") }
                    collect { () throws(ConfigurationFile.Error) in
                        config.inputs.append(try input(table, "input#\(index + 1)", base: base, index: index))
                    }
                }
            }
        }
        collect { () throws(ConfigurationFile.Error) in
            if let outputs = root["output"] {
                guard let array = outputs.array else {
                    throw fail("output", "must be an array of tables: [[output]]")
                }
                for (index, element) in array.enumerated() {
                    guard let table = element.table else { throw fail("output#\(index + 1)", "must be a table") }
                    collect { () throws(ConfigurationFile.Error) in
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
}
