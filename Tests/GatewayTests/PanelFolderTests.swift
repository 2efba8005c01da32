import Platform
import SignalK
import TestSupport
import Testing

@testable import Gateway

/// The panel is served from its folder (`Sources/Panel/` in the working tree): every module, the page, the style sheet, the
/// settings page, byte for byte, each import of each module to a file that is served, nothing from the network.
@Suite struct PanelFolderTests {
    static let folder = projectFixtures() + "/../Sources/Panel"

    @Test("every file of Sources/Panel/ is served at its name, byte for byte, with its type")
    func everyFileServed() throws {
        let files = PanelFolder.files(in: Self.folder, log: .discard)
        let names = POSIX.list(Self.folder).filter { PanelFolder.contentType($0) != nil && !$0.hasPrefix(".") }
        #expect(names.count >= 15, "the modules, the page, the style sheet, the settings page: \(names)")
        for name in names {
            let served = try #require(files["/" + name], "\(name) is not served")
            let bytes = try #require(readFile(Self.folder + "/" + name))
            #expect(served.bytes == bytes, "\(name) is served as it is on disk")
            #expect(served.contentType == PanelFolder.contentType(name))
        }
        #expect(files["/page.js"]?.contentType == "text/javascript; charset=utf-8")
        #expect(files["/index.html"]?.contentType == "text/html; charset=utf-8")
    }

    @Test("the page loads its entry as a module, and every module's imports are files that are served")
    func importsResolve() throws {
        let files = PanelFolder.files(in: Self.folder, log: .discard)
        let page = String(decoding: try #require(files["/index.html"]).bytes, as: UTF8.self)
        #expect(page.contains(#"<script type="module" src="/page.js"></script>"#))
        #expect(page.contains(#"href="/panel.css""#))
        var imports = 0
        for (path, file) in files where path.hasSuffix(".js") {
            let text = String(decoding: file.bytes, as: UTF8.self)
            // `import { ... } from "./x.js";`, on one line or ending a block of names.
            for line in text.split(separator: "\n")
            where (line.hasPrefix("import ") || line.hasPrefix("} from ")) && line.contains(" from \"") {
                let parts = line.split(separator: "\"")
                let target = try #require(parts.count >= 2 ? String(parts[1]) : nil, "\(path): \(line)")
                #expect(target.hasPrefix("./") || target.hasPrefix("../"), "\(path) imports \(target) relatively")
                #expect(
                    files[Self.resolve(target, from: path)] != nil, "\(path) imports \(target), which is not served")
                imports += 1
            }
            // An XML namespace (the GPX the route editor writes) names a format, it is not fetched.
            let urls = text.split(separator: "\"").filter { $0.hasPrefix("http://") || $0.hasPrefix("https://") }
                .filter { !text.contains("xmlns=\"" + $0 + "\"") }
            #expect(urls.isEmpty, "\(path) fetches nothing from the network: \(urls)")
        }
        #expect(imports > 40, "the modules import one another (\(imports) imports)")
        let history = String(decoding: try #require(files["/history.js"]).bytes, as: UTF8.self)
        #expect(history.split(separator: "\"").contains { $0 == "/telltale/v1/history" })
    }

    /// The path a module's relative import names, from the module's own path.
    static func resolve(_ target: String, from path: String) -> String {
        var parts = path.split(separator: "/").dropLast().map(String.init)
        for part in target.split(separator: "/") {
            if part == ".." { _ = parts.popLast() } else if part != "." { parts.append(String(part)) }
        }
        return "/" + parts.joined(separator: "/")
    }

    @Test("the folder is found: configured, installed, or the working tree's above the program; none is said")
    func found() {
        #expect(PanelFolder.find(configured: "/boat/panel") == "/boat/panel")
        let tree = projectFixtures() + "/.."
        let found = PanelFolder.find(
            configured: nil, executable: tree + "/.build/x86_64-unknown-linux-gnu/release/telltale")
        #expect(found == PanelFolder.installed || found?.hasSuffix("/Sources/Panel") == true)
        var said: [String] = []
        let none = PanelFolder.files(in: "/nonexistent", log: Log { said.append($0.message) })
        #expect(none.isEmpty && said.first?.contains("no panel") == true)
    }
}
