import Gateway
import Marine
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct RouteFileTests {
    func write(_ text: String, to path: String) {
        let file = fopen(path, "w")!
        fputs(text, file)
        fclose(file)
    }

    func gpx(_ names: [String]) -> String {
        let points = names.enumerated().map { index, name in
            "<rtept lat=\"50.\(index)\" lon=\"-1\"><name>\(name)</name></rtept>"
        }
        return "<gpx version=\"1.1\"><rte>" + points.joined() + "</rte></gpx>"
    }

    @Test("a changed file is noticed and reloaded; a broken one is reported and the old route stays")
    func reload() throws {
        var template = Array("/tmp/telltale-route-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        #expect(fd >= 0)
        close(fd)
        let path = String(cString: template)
        defer { unlink(path) }
        write(gpx(["A", "B"]), to: path)
        var file = RouteFile(path: path)
        #expect(try file.load().waypoints.map(\.id) == ["A", "B"])
        #expect(try file.reloadIfChanged() == nil)
        write(gpx(["A", "B", "C"]), to: path)
        #expect(try file.reloadIfChanged()?.waypoints.map(\.id) == ["A", "B", "C"])
        write("<gpx><rte>", to: path)
        #expect(throws: RouteFile.LoadError.self) { try file.reloadIfChanged() }
    }
}
