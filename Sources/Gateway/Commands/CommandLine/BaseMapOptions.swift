/// What `telltale basemap` is told.
public struct BaseMapOptions: CommandOptions {
    /// The folder of GSHHG's binned files (Debian's gmt-gshhg-low, -high and -full).
    public var gshhg = "/usr/share/gmt-gshhg"
    public var output = "."

    public init() {}

    public static let spec = CommandSpec(
        "basemap", abstract: "Make the panel's offline base map from GSHHG's coastlines.",
        discussion: """
            Reads GSHHG's binned shorelines (binned_GSHHS_c|l|i|h|f.nc, LGPL-3, from Debian's gmt-gshhg-low, -high \
            and -full) with libnetcdf and writes one file a resolution (basemap-c.ttbm ... basemap-f.ttbm): each bin's \
            land as filled rings, which the gateway serves as they are and the panel draws under the charts. The \
            packages run it when they are built; the gateway never reads GSHHG itself.
            """,
        flags: [
            .option("gshhg", "DIR", "GSHHG's binned files.", example: "/usr/share/gmt-gshhg"),
            .option("output", "DIR", "Where the base map's files go.", example: "/usr/share/telltale/basemap"),
        ])

    public mutating func set(_ flag: String, _ value: String?) throws(CommandError) {
        switch flag {
        case "gshhg": gshhg = CommandParser.text(value)
        case "output": output = CommandParser.text(value)
        default: throw .unhandled(flag)
        }
    }

    public func validate() throws(CommandError) {}
}
