import Engine
import Marine
import NMEA
import Platform
import Router
import Sensors

/// The whole file: the keys at its top, then every section by its own reader (one file each, named after the section),
/// every error collected, then the checks across sections.
extension ConfigurationFile.Reader {
    /// A section's reader: the file's top table in, the section's part of the configuration set; `base` is the
    /// configuration file's folder.
    typealias Section =
        @Sendable (
            ConfigurationFile.Reader, TOMLTable, inout GatewayConfiguration, String
        ) throws(ConfigurationFile.Error) -> Void

    /// Every `[section]` (and `[[array]]`), in the order they are read: `[uplink]` after `[web]` (the boat's name comes
    /// from it).
    static let sections: [(name: String, read: Section)] = [
        (
            "wind",
            { r, root, c, _ throws(ConfigurationFile.Error) in
                try r.table(root, "wind") { t throws(ConfigurationFile.Error) in try r.wind(t, &c.engine.wind) }
            }
        ),
        (
            "damping",
            { r, root, c, _ throws(ConfigurationFile.Error) in
                try r.table(root, "damping") { t throws(ConfigurationFile.Error) in try r.damping(t, &c.engine.damping)
                }
            }
        ),
        (
            "timeouts",
            { r, root, c, _ throws(ConfigurationFile.Error) in
                try r.table(root, "timeouts") { t throws(ConfigurationFile.Error) in
                    try r.timeouts(t, &c.engine.timeouts)
                }
            }
        ),
        (
            "route_following",
            { r, root, c, _ throws(ConfigurationFile.Error) in
                try r.table(root, "route_following") { t throws(ConfigurationFile.Error) in
                    try r.routeFollowing(t, &c.engine)
                }
            }
        ),
        ("imu", { r, root, c, base throws(ConfigurationFile.Error) in try r.imu(root, &c, base: base) }),
        ("record", { r, root, c, base throws(ConfigurationFile.Error) in try r.record(root, &c, base: base) }),
        ("alarms", { r, root, c, _ throws(ConfigurationFile.Error) in try r.alarms(root, &c) }),
        ("race", { r, root, c, base throws(ConfigurationFile.Error) in try r.race(root, &c, base: base) }),
        ("voice", { r, root, c, _ throws(ConfigurationFile.Error) in try r.voice(root, &c) }),
        ("autopilot", { r, root, c, _ throws(ConfigurationFile.Error) in try r.autopilot(root, &c) }),
        ("history", { r, root, c, _ throws(ConfigurationFile.Error) in try r.history(root, &c) }),
        ("boat", { r, root, c, _ throws(ConfigurationFile.Error) in try r.boat(root, &c) }),
        ("anchor", { r, root, c, _ throws(ConfigurationFile.Error) in try r.anchor(root, &c) }),
        ("panel", { r, root, c, _ throws(ConfigurationFile.Error) in try r.panel(root, &c) }),
        ("chart", { r, root, c, base throws(ConfigurationFile.Error) in try r.chart(root, &c, base: base) }),
        ("weather", { r, root, c, base throws(ConfigurationFile.Error) in try r.weather(root, &c, base: base) }),
        ("tides", { r, root, c, base throws(ConfigurationFile.Error) in try r.tides(root, &c, base: base) }),
        ("routing", { r, root, c, _ throws(ConfigurationFile.Error) in try r.routing(root, &c) }),
        (
            "calibration",
            { r, root, c, base throws(ConfigurationFile.Error) in try r.calibration(root, &c, base: base) }
        ),
        (
            "web",
            { r, root, c, base throws(ConfigurationFile.Error) in
                try r.table(root, "web") { t throws(ConfigurationFile.Error) in c.web = try r.web(t, base: base) }
            }
        ),
        ("uplink", { r, root, c, base throws(ConfigurationFile.Error) in try r.uplink(root, &c, base: base) }),
        ("n2k", { r, root, c, base throws(ConfigurationFile.Error) in try r.n2k(root, &c, base: base) }),
        ("attitude", { r, root, c, _ throws(ConfigurationFile.Error) in try r.attitude(root, &c) }),
        ("priority", { r, root, c, _ throws(ConfigurationFile.Error) in try r.priority(root, &c) }),
    ]

    /// The keys the file's top may have: its own and every section's.
    static let topKeys: Set<String> = [
        "board", "talker", "rate", "route", "stale", "variation", "status_line", "summary_interval", "state_file",
        "polar", "input", "output", "files",
    ]

    /// `root[name]`, which must be a table, to `body`; nothing when the section is not there.
    func table(_ root: TOMLTable, _ name: String, _ body: (TOMLTable) throws(ConfigurationFile.Error) -> Void)
        throws(ConfigurationFile.Error)
    {
        guard let section = root[name] else { return }
        guard let table = section.table else { throw fail(name, "must be a table") }
        try body(table)
    }

    mutating func configuration(_ root: TOMLTable, base: String) throws(ConfigurationFile.Error) -> GatewayConfiguration
    {
        var config = GatewayConfiguration()
        // Every section is checked even after an error, so that one run of check-config names every mistake.
        var errors: [ConfigurationFile.Error] = []
        do throws(ConfigurationFile.Error) {
            try check(root, "", allowed: Self.topKeys.union(Self.sections.map { $0.name }))
        } catch {
            errors.append(error)
        }
        topLevel(root, &config, base: base, &errors)
        for section in Self.sections {
            do throws(ConfigurationFile.Error) { try section.read(self, root, &config, base) } catch {
                // Each of a section's errors counts as one of the file's (`[web]` collects several).
                var first = error
                let others = first.others
                first.others = []
                errors += [first] + others
            }
        }
        readEndpoints(root, &config, base: base, &errors)
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

    /// `[[input]]` and `[[output]]`: each table read on its own, its error collected.
    func readEndpoints(
        _ root: TOMLTable, _ config: inout GatewayConfiguration, base: String, _ errors: inout [ConfigurationFile.Error]
    ) {
        for key in ["input", "output"] {
            guard let value = root[key] else { continue }
            guard let array = value.array else {
                errors.append(fail(key, "must be an array of tables: [[\(key)]]"))
                continue
            }
            for (index, element) in array.enumerated() {
                let section = "\(key)#\(index + 1)"
                do throws(ConfigurationFile.Error) {
                    guard let table = element.table else { throw fail(section, "must be a table") }
                    if key == "input" {
                        config.inputs.append(try input(table, section, base: base, index: index))
                    } else {
                        config.outputs.append(try output(table, section, base: base, index: index))
                    }
                } catch {
                    errors.append(error)
                }
            }
        }
    }
}
