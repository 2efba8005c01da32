import Marine
import Platform

/// `telltale basemap` (#42): GSHHG's five resolutions into the base map's files (``BaseMap``), a bin at a time.
public enum BaseMapCommand {
    public static func run(_ options: BaseMapOptions) throws(CommandError) -> String {
        var report = ""
        for resolution in BaseMap.Resolution.allCases {
            let path = options.gshhg + "/binned_GSHHS_\(resolution.letter).nc"
            guard POSIX.exists(path) else {
                report += "basemap: \(path) is missing (apt install gmt-gshhg-low gmt-gshhg-high gmt-gshhg-full)\n"
                continue
            }
            let file: GSHHGFile
            do { file = try GSHHGFile(path: path) } catch { throw CommandError("basemap: \(error)", status: 66) }
            var bins: [[BaseMap.Ring]] = []
            var left = 0
            var rings = 0
            var points = 0
            for bin in 0..<file.binCount {
                guard let segments = file.segments(bin),
                    let made = BaseMap.rings(segments: segments, corners: file.corners(bin))
                else {
                    left += 1
                    bins.append([])
                    continue
                }
                rings += made.count
                for ring in made { points += ring.x.count }
                bins.append(made)
            }
            let bytes = BaseMap.encode(
                resolution: resolution, binMinutes: file.binMinutes, binsAcross: file.binsAcross, bins: bins)
            let out = options.output + "/basemap-\(resolution.letter).ttbm"
            do {
                try POSIX.makeDirectories(options.output)
                try POSIX.writeFileAtomically(out, bytes)
            } catch { throw CommandError("basemap: \(error)", status: 73) }
            report +=
                "basemap: \(out): \(file.binCount) bins of \(file.binMinutes)', \(rings) rings, \(points) points, "
                + "\(bytes.count) bytes" + (left > 0 ? " (\(left) bins that do not join up left out)" : "") + "\n"
        }
        let (gazetteer, said) = Gazetteer.fromGeoNames()
        if let gazetteer {
            let out = options.output + "/gazetteer.txt"
            do { try POSIX.writeFileAtomically(out, Array(gazetteer.utf8)) } catch {
                throw CommandError("basemap: \(error)", status: 73)
            }
            report += "basemap: \(out): \(said), \(gazetteer.utf8.count) bytes\n"
        } else {
            report += "basemap: no gazetteer (apt install libgeonames0): \(said)\n"
        }
        return report
    }
}
