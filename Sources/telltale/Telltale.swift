import ArgumentParser
import Gateway

@main
struct Telltale: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "telltale",
        abstract: "An NMEA 0183 instrument gateway for sailing boats.",
        version: "telltale \(TelltaleVersion.string)",
        subcommands: table.reduce(into: [ParsableCommand.Type]()) { list, row in
            let type = row.group ?? row.command
            if !list.contains(where: { $0 == type }) { list.append(type) }
        }
    )

    /// The desktop's command for each row of the one table (``TelltaleCommands/table``), in its order: what
    /// argument-parser lists, and what the test that parses every flag through both builds walks (it checks that
    /// each row of the table has its command here, by the description's name). `calibrate level` sits in its group, `route` and `route plan` in theirs.
    static let table: [(command: any SpecCommand.Type, group: (any ParsableCommand.Type)?)] = [
        (Run.self, nil), (CheckConfig.self, nil), (Replay.self, nil), (Record.self, nil), (Simulate.self, nil),
        (Inspect.self, nil), (N2K.self, nil), (Ports.self, nil), (CalibrateLevel.self, Calibrate.self),
        (CalibrateSailing.self, Calibrate.self),
        (IMUCommand.self, nil),
        (Race.self, nil), (RouteAction.self, RouteGroup.self), (PlanRoute.self, RouteGroup.self), (Anchor.self, nil),
        (Alarm.self, nil), (Access.self, nil),
        (Network.self, nil), (Advertise.self, nil), (BaseMapBuild.self, nil),
        (Weather.self, nil), (Tide.self, nil), (Fleet.self, FleetGroup.self),
        (FleetAccount.self, FleetGroup.self), (FleetSend.self, FleetGroup.self),
    ]

    /// Each desktop command by the name its description gives it.
    static var commands: [String: any SpecCommand.Type] {
        var byName: [String: any SpecCommand.Type] = [:]
        for row in table { byName[row.command.specName] = row.command }
        return byName
    }
}

extension SpecCommand {
    /// The name in the one description (`calibrate level`).
    static var specName: String { Options.spec.name }
}
