/// `[routing]`: the weather router on board.
extension ConfigurationFile.Reader {
    func routing(_ root: TOMLTable, _ config: inout GatewayConfiguration) throws(ConfigurationFile.Error) {
        guard let routing = root["routing"] else { return }
        guard let table = routing.table else { throw fail("routing", "must be a table") }
        try check(
            table, "routing",
            allowed: ["enabled", "margin", "performance", "step_minutes", "behind_minutes", "learnt_polar"]
        )
        if let enabled = try bool(table, "enabled", "routing") { config.routing.enabled = enabled }
        if let metres = try number(table, "margin", "routing", range: 0...5000) { config.routing.margin = metres }
        if let percent = try number(table, "performance", "routing", range: 10...150) {
            config.routing.performance = percent
        }
        if let minutes = try number(table, "step_minutes", "routing", range: 5...360) {
            config.routing.stepMinutes = minutes
        }
        if let minutes = try number(table, "behind_minutes", "routing", range: 0...1440) {
            config.routing.behindMinutes = minutes
        }
        if let learnt = try bool(table, "learnt_polar", "routing") { config.routing.learntPolar = learnt }
    }
}
