import Marine
import Platform

/// One of GSHHG's binned shoreline files (`binned_GSHHS_<c|l|i|h|f>.nc`, netCDF-4, from Debian's `gmt-gshhg-*`)
/// read whole with libnetcdf, opened with dlopen(3) only by `telltale basemap build` (#42): the gateway itself never
/// maps it. The variables GMT's own reader uses, by name.
struct GSHHGFile {
    typealias Open = @convention(c) (UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<Int32>?) -> Int32
    typealias VariableID = @convention(c) (Int32, UnsafePointer<CChar>?, UnsafeMutablePointer<Int32>?) -> Int32
    typealias GetInts = @convention(c) (Int32, Int32, UnsafeMutablePointer<Int32>?) -> Int32
    typealias GetShorts = @convention(c) (Int32, Int32, UnsafeMutablePointer<Int16>?) -> Int32
    typealias Close = @convention(c) (Int32) -> Int32
    typealias Message = @convention(c) (Int32) -> UnsafePointer<CChar>?

    let binMinutes: Int
    let binsAcross: Int
    let binCount: Int
    let firstSegment: [Int32]
    let segmentCount: [Int16]
    let nodeLevels: [Int16]
    let segmentInfo: [Int32]
    let firstPoint: [Int32]
    let x: [Int16]
    let y: [Int16]

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init(path: String) throws(Failure) {
        let library: DynamicLibrary
        let open: Open
        let variable: VariableID
        let getInts: GetInts
        let getShorts: GetShorts
        let close: Close
        let message: Message
        do throws(DynamicLibrary.Failure) {
            library = try DynamicLibrary.open(["libnetcdf.so.19", "libnetcdf.so.22", "libnetcdf.so"])
            open = try library.function("nc_open", as: Open.self)
            variable = try library.function("nc_inq_varid", as: VariableID.self)
            getInts = try library.function("nc_get_var_int", as: GetInts.self)
            getShorts = try library.function("nc_get_var_short", as: GetShorts.self)
            close = try library.function("nc_close", as: Close.self)
            message = try library.function("nc_strerror", as: Message.self)
        } catch {
            throw Failure(description: "\(error) (Debian's libnetcdf19 reads GSHHG's files)")
        }
        var file: Int32 = -1
        let opened = open(path, 0, &file)
        guard opened == 0 else {
            throw Failure(description: "\(path): \(message(opened).map { String(cString: $0) } ?? "cannot open")")
        }
        defer { _ = close(file) }
        func id(_ name: String) throws(Failure) -> Int32 {
            var found: Int32 = -1
            guard variable(file, name, &found) == 0 else { throw Failure(description: "\(path) has no \(name)") }
            return found
        }
        func ints(_ name: String, _ count: Int) throws(Failure) -> [Int32] {
            let variableID = try id(name)
            var values = [Int32](repeating: 0, count: max(count, 1))
            let got = values.withUnsafeMutableBufferPointer { getInts(file, variableID, $0.baseAddress) }
            guard got == 0 else { throw Failure(description: "\(path): \(name) cannot be read") }
            return Array(values.prefix(count))
        }
        func shorts(_ name: String, _ count: Int) throws(Failure) -> [Int16] {
            let variableID = try id(name)
            var values = [Int16](repeating: 0, count: max(count, 1))
            let got = values.withUnsafeMutableBufferPointer { getShorts(file, variableID, $0.baseAddress) }
            guard got == 0 else { throw Failure(description: "\(path): \(name) cannot be read") }
            return Array(values.prefix(count))
        }
        binMinutes = Int(try ints("Bin_size_in_minutes", 1)[0])
        binsAcross = Int(try ints("N_bins_in_360_longitude_range", 1)[0])
        binCount = Int(try ints("N_bins_in_file", 1)[0])
        let segments = Int(try ints("N_segments_in_file", 1)[0])
        let points = Int(try ints("N_points_in_file", 1)[0])
        guard binMinutes > 0, binsAcross * binMinutes == 360 * 60, binCount == binsAcross * binsAcross / 2,
            segments >= 0, points >= 0
        else { throw Failure(description: "\(path): not a GSHHG binned file (\(binMinutes)' bins, \(binCount))") }
        firstSegment = try ints("Id_of_first_segment_in_a_bin", binCount)
        segmentCount = try shorts("N_segments_in_a_bin", binCount)
        nodeLevels = try shorts("Embedded_node_levels_in_a_bin", binCount)
        segmentInfo = try ints("Embedded_npts_levels_exit_entry_for_a_segment", segments)
        firstPoint = try ints("Id_of_first_point_in_a_segment", segments)
        x = try shorts("Relative_longitude_from_SW_corner_of_bin", points)
        y = try shorts("Relative_latitude_from_SW_corner_of_bin", points)
    }

    /// The corner levels of bin `bin`: south-west, south-east, north-east, north-west.
    func corners(_ bin: Int) -> [Int] {
        let packed = Int(UInt16(bitPattern: nodeLevels[bin]))
        return [(packed >> 9) & 7, (packed >> 6) & 7, (packed >> 3) & 7, packed & 7]
    }

    /// The segments of bin `bin`; nil when the file's counts point outside it.
    func segments(_ bin: Int) -> [BaseMap.Segment]? {
        let first = Int(firstSegment[bin])
        let count = Int(segmentCount[bin])
        guard count >= 0, first >= 0, first + count <= segmentInfo.count else { return nil }
        var out: [BaseMap.Segment] = []
        for index in first..<(first + count) {
            let info = Int(segmentInfo[index])
            let points = info >> 9
            let start = Int(firstPoint[index])
            guard points > 0, start >= 0, start + points <= x.count else { return nil }
            out.append(
                BaseMap.Segment(
                    level: (info >> 6) & 7, entry: (info >> 3) & 7, exit: info & 7,
                    x: x[start..<(start + points)].map { UInt16(bitPattern: $0) },
                    y: y[start..<(start + points)].map { UInt16(bitPattern: $0) }))
        }
        return out
    }

    /// The south-west corner of bin `bin`, degrees (longitude 0 to 360).
    func southWest(_ bin: Int) -> (latitude: Double, longitude: Double) {
        let size = Double(binMinutes) / 60
        return (90 - Double(bin / binsAcross + 1) * size, Double(bin % binsAcross) * size)
    }
}
