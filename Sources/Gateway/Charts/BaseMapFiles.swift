import Marine
import Platform

/// The offline base map's files (#42), one a resolution, each mapped read-only once: a bin asked for is copied out
/// of the mapping as it is, so the pages the phones look at are the kernel's to keep or drop and the gateway's own
/// memory does not grow with the map. A file that is missing or not a base map is left out (and said once).
final class BaseMapFiles {
    /// Where the package puts them.
    static let installed = "/usr/share/telltale/basemap"
    /// The most bytes one answer carries (64 bins of the full resolution are rarely over 2 MB).
    static let maximumAnswer = 8 << 20

    let folder: String
    private var files: [UInt8: (header: BaseMap.Header, bytes: UnsafeRawBufferPointer)] = [:]

    /// The folder to serve from: `configured` ("" for none), the installed one, or `.build/basemap` above the
    /// program (a build in the working tree); nil when none has the crude file.
    static func find(configured: String?, executable: String? = POSIX.executablePath()) -> String? {
        if let configured { return configured.isEmpty ? nil : configured }
        if POSIX.exists(installed + "/basemap-c.ttbm") { return installed }
        return WorkingTree.folder(".build/basemap", holding: "basemap-c.ttbm", executable: executable)
    }

    init(folder: String, log: (String) -> Void) {
        self.folder = folder
        for resolution in BaseMap.Resolution.allCases {
            let letter = resolution.byte
            let path = folder + "/basemap-" + resolution.letter + ".ttbm"
            guard POSIX.exists(path) else { continue }
            do {
                let bytes = try POSIX.map(path, limit: 256 << 20)
                guard let header = BaseMap.Header(bytes), header.letter == letter else {
                    log("\(path) is not a base map file: left out")
                    continue
                }
                files[letter] = (header, bytes)
            } catch {
                log("\(error): left out")
            }
        }
        let places = folder + "/gazetteer.txt"
        if POSIX.exists(places) {
            do { gazetteer = try POSIX.map(places, limit: 16 << 20) } catch {
                log("\(error): no search by place names")
            }
        }
    }

    var resolutions: Int { files.count }

    /// The gazetteer beside the base map (`telltale basemap`), mapped; nil when it is not there.
    private(set) var gazetteer: UnsafeRawBufferPointer?

    /// Places whose name begins with `query` (JSON), or nil without a gazetteer.
    func places(_ query: String) -> String? {
        gazetteer.map { Gazetteer.search(query, in: $0) }
    }

    /// The bins asked for, each as its number, its length and its bytes (u32 little-endian, then the bytes); nil when
    /// the resolution is not on board or a bin is not in it.
    func bins(_ letter: UInt8, _ bins: [Int]) -> [UInt8]? {
        guard let file = files[letter] else { return nil }
        var out: [UInt8] = []
        for bin in bins {
            guard let range = file.header.range(of: bin, in: file.bytes) else { return nil }
            guard out.count + 8 + range.count <= Self.maximumAnswer else { break }
            for value in [bin, range.count] {
                out += [
                    UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8(value >> 24),
                ]
            }
            out += file.bytes[range]
        }
        return out
    }
}
