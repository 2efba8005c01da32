import Engine
import Marine
import Router

/// The keys at the top of the file, before any `[section]`: the board, the talker, the tick's rate, the route and the
/// polar, stale values, the variation, the status line, the state file, the summary's interval.
extension ConfigurationFile.Reader {
    /// Each key read on its own, its error collected, so that one run of check-config names every mistake.
    func topLevel(
        _ root: TOMLTable, _ config: inout GatewayConfiguration, base: String, _ errors: inout [ConfigurationFile.Error]
    ) {
        func collect(_ body: () throws(ConfigurationFile.Error) -> Void) {
            do throws(ConfigurationFile.Error) { try body() } catch { errors.append(error) }
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
                config.polarPath = path
                // One that cannot be read leaves the boat without targets, not without her instruments (until
                // 2026-12-02 it refused the whole configuration, and the image put the one before in its place).
                do throws(CommandError) { config.engine.polar = try PolarFile.read(path) } catch {
                    config.polarUnreadable = fail("polar", error.description).description
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
    }
}
