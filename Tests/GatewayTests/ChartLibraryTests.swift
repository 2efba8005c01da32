import Platform
import TestSupport
import Testing

@testable import Gateway

/// The charts folder with files that are not charts: listed as broken with a reason, never served, nothing crashes;
/// a name outside the folder's files is never opened.
@Suite struct ChartLibraryTests {
    @Test("random bytes, text and an SQLite file with no tiles table: listed as broken, every tile 404")
    func brokenFiles() throws {
        let folder = temporaryFolder("charts")
        var random = [UInt8](repeating: 0, count: 5000)
        for index in random.indices { random[index] = UInt8(truncatingIfNeeded: index &* 2_654_435_761 >> 7) }
        try POSIX.writeFileAtomically(folder + "/noise.mbtiles", random)
        try POSIX.writeFileAtomically(folder + "/text.mbtiles", "not a chart\n")
        try POSIX.writeFileAtomically(folder + "/readme.txt", "not listed\n")
        var configuration = ChartConfiguration()
        configuration.folder = folder
        let library = ChartLibrary(configuration)
        var reports: [String] = []
        library.report = { name, reason in reports.append(name + ": " + reason) }
        #expect(library.names == ["noise", "text"])
        let list = library.listJSON(now: 0)
        #expect(list.contains(#""name":"noise","title":"noise","format":"png","error":"#))
        #expect(list.contains(#""name":"text","title":"text","format":"png","error":"#))
        for name in ["noise", "text", "readme", "missing"] {
            let (status, _, _) = library.answer(.tile(name: name, z: 3, x: 1, y: 1), now: 0)
            #expect(status == 404, "\(name)")
        }
        // Each broken file is told of once (for the log) and not opened again, however often it is asked for,
        // until it changes.
        _ = library.listJSON(now: 1)
        _ = library.answer(.tile(name: "text", z: 3, x: 1, y: 1), now: 2)
        #expect(
            reports.sorted() == [
                "noise: not an MBTiles file (no tiles table)", "text: not an MBTiles file (no tiles table)",
            ])
        try POSIX.writeFileAtomically(folder + "/text.mbtiles", "still not a chart, and longer\n")
        _ = library.listJSON(now: 3)
        #expect(reports.count == 3 && reports.last?.hasPrefix("text: ") == true, "\(reports)")
    }
}
