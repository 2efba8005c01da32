import ArgumentParser
import Gateway
import Platform

/// `telltale basemap`: the panel's offline base map from GSHHG.
struct BaseMapBuild: SpecCommand {
    static let configuration = CommandConfiguration(BaseMapOptions.spec)

    @Option(name: .customLong("gshhg"), help: help("gshhg")) var gshhg = "/usr/share/gmt-gshhg"
    @Option(name: .customLong("output"), help: help("output")) var output = "."

    var options: BaseMapOptions {
        var options = BaseMapOptions()
        options.gshhg = gshhg
        options.output = output
        return options
    }

    func run(_ options: BaseMapOptions) throws(CommandError) { Console.out(try BaseMapCommand.run(options)) }
}
