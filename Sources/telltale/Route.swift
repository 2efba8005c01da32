import ArgumentParser
import Gateway
import Platform

/// `telltale route WORD` (to the running gateway) and `telltale route plan` (the router).
struct RouteGroup: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "route", abstract: "The running gateway's route, and the weather router (route plan).",
        subcommands: [RouteAction.self, PlanRoute.self], defaultSubcommand: RouteAction.self)
}

/// `telltale route start|pause|resume|stop|advance`.
struct RouteAction: SpecCommand {
    static let configuration = CommandConfiguration(RouteOptions.spec, name: "action")

    @Argument(help: argumentHelp(0)) var command: String
    @Option(name: .customLong("port"), help: help("port")) var port = 3000

    var options: RouteOptions {
        get throws {
            var options = RouteOptions()
            try options.argument(command)
            options.port = port
            return options
        }
    }

    func run(_ options: RouteOptions) throws(CommandError) {
        guard let command = options.engineCommand else { return }
        Console.out(try GatewayClient.send(command, port: options.port) + "\n")
    }
}

/// `telltale route plan --from LAT,LON --to LAT,LON --grib FILE --polar FILE ...`.
struct PlanRoute: SpecCommand {
    static let configuration = CommandConfiguration(RoutePlanOptions.spec, name: "plan")

    @Option(name: .customLong("from"), help: help("from")) var from: String?
    @Option(name: .customLong("to"), help: help("to")) var to: String?
    @Option(name: .customLong("depart"), help: help("depart")) var depart: String?
    @Option(name: .customLong("grib"), help: help("grib")) var gribs: [String] = []
    @Option(name: .customLong("polar"), help: help("polar")) var polar: String?
    @Option(name: .customLong("gpx"), help: help("gpx")) var gpx: String?
    @Option(name: .customLong("waypoints"), help: help("waypoints")) var waypoints: String?
    @Option(name: .customLong("learnt-polar"), help: help("learnt-polar")) var learntPolar: String?
    @Flag(name: .customLong("json"), help: help("json")) var json = false
    @Option(name: .customLong("basemap"), help: help("basemap")) var basemap: String?
    @Option(name: .customLong("margin"), help: help("margin")) var margin: String?
    @Option(name: .customLong("performance"), help: help("performance")) var performance: String?
    @Option(name: .customLong("step"), help: help("step")) var step: String?
    @Option(name: .customLong("max-wind"), help: help("max-wind")) var maxWind: String?
    @Option(name: .customLong("no-run-above"), help: help("no-run-above")) var noRunAbove: String?
    @Option(name: .customLong("motor-below"), help: help("motor-below")) var motorBelow: String?
    @Option(name: .customLong("motor-speed"), help: help("motor-speed")) var motorSpeed: String?
    @Option(name: .customLong("tack"), help: help("tack")) var tack: String?
    @Option(name: .customLong("gybe"), help: help("gybe")) var gybe: String?
    @Option(name: .customLong("window"), help: help("window")) var window: String?
    @Option(name: .customLong("every"), help: help("every")) var every: String?
    @Flag(name: .customLong("no-tides"), help: help("no-tides")) var noTides = false
    @Option(name: .customLong("tide-file"), help: help("tide-file")) var tideFiles: [String] = []
    @Option(name: .customLong("avoid"), help: help("avoid")) var avoid: [String] = []

    var options: RoutePlanOptions {
        get throws {
            var options = RoutePlanOptions()
            for (flag, value) in [
                ("from", from), ("to", to), ("depart", depart), ("polar", polar), ("gpx", gpx), ("basemap", basemap),
                ("waypoints", waypoints), ("learnt-polar", learntPolar),
                ("margin", margin), ("performance", performance), ("step", step), ("max-wind", maxWind),
                ("no-run-above", noRunAbove), ("motor-below", motorBelow), ("motor-speed", motorSpeed),
                ("tack", tack), ("gybe", gybe), ("window", window), ("every", every),
            ] {
                if let value { try options.set(flag, value) }
            }
            for file in gribs { try options.set("grib", file) }
            for file in tideFiles { try options.set("tide-file", file) }
            for file in avoid { try options.set("avoid", file) }
            if json { try options.set("json", nil) }
            if noTides { try options.set("no-tides", nil) }
            try options.validate()
            return options
        }
    }

    func run(_ options: RoutePlanOptions) throws(CommandError) { Console.out(try RoutePlanCommand.run(options)) }
}
