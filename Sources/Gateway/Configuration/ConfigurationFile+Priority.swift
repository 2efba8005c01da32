import Engine

/// `[priority]`: which input is believed first, quantity by quantity.
extension ConfigurationFile.Reader {
    func priority(_ root: TOMLTable, _ config: inout GatewayConfiguration) throws(ConfigurationFile.Error) {
        guard let section = root["priority"] else { return }
        guard let table = section.table else { throw fail("priority", "must be a table") }
        try check(table, "priority", allowed: Set(QuantityGroup.allCases.map { $0.rawValue }))
        for group in QuantityGroup.allCases {
            if let names = try strings(table, group.rawValue, "priority") {
                config.engine.priorities[group] = names
            }
        }
    }
}
