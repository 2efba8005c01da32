import Platform
import SignalK
import TestSupport
import Testing

@testable import Gateway

/// The panel served from the binary is the panel in Sources/Gateway/Web/Panel: `make panel` was run after each edit.
@Suite struct PanelFilesTests {
    @Test("the embedded panel files are byte for byte the files in Sources/Gateway/Web/Panel")
    func embeddedMatchesSources() throws {
        let folder = projectFixtures() + "/../Sources/Gateway/Web/Panel"
        // The script is kept in parts (js/*.js), served as one: the parts in name order, a blank line between two.
        let parts = POSIX.list(folder + "/js").filter { $0.hasSuffix(".js") }.sorted()
        #expect(parts.count >= 5, "the script's parts: \(parts)")
        var script: [UInt8] = []
        for part in parts {
            var bytes = try #require(readFile(folder + "/js/" + part), "\(part) is missing")
            while bytes.last == 0x0A { bytes.removeLast() }
            if !script.isEmpty { script += [0x0A, 0x0A] }
            script += bytes
        }
        for (served, file) in [("/index.html", "index.html"), ("/panel.css", "panel.css"), ("/panel.js", "js")] {
            let source = try #require(file == "js" ? script : readFile(folder + "/" + file), "\(file) is missing")
            let embedded = try #require(PanelFiles.all[served], "\(served) is not served")
            // The generator drops the file's trailing newlines.
            var trimmed = source
            while trimmed.last == 0x0A { trimmed.removeLast() }
            #expect(embedded.bytes == trimmed, "\(served) differs from \(file): run `make panel`")
        }
    }

    @Test("the page asks only for files the binary serves, and the history the server keeps")
    func pageReferences() throws {
        let page = String(decoding: try #require(PanelFiles.all["/index.html"]).bytes, as: UTF8.self)
        for reference in ["/panel.css", "/panel.js"] {
            #expect(page.utf8.count > 0 && PanelFiles.all[reference] != nil)
            #expect(page.split(separator: "\"").contains { $0 == reference }, "\(reference) is linked")
        }
        let script = String(decoding: try #require(PanelFiles.all["/panel.js"]).bytes, as: UTF8.self)
        #expect(script.split(separator: "\"").contains { $0 == "/telltale/v1/history" })
        let urls = script.split(separator: "\"").filter { $0.hasPrefix("http://") || $0.hasPrefix("https://") }
        #expect(urls.isEmpty, "nothing from the network: \(urls)")
    }
}
