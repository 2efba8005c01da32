import Platform
import SignalK

/// The instrument panel's files, served at `/` from a folder of plain files (ES modules, the page, its style sheet,
/// the settings page): `/usr/share/telltale/panel` from the package and the image, the working tree's `Sources/Panel/`
/// for a build made in it (`make run`, the checks), or `[web] panel`. Each file is mapped read-only once, at the start:
/// the kernel reads its pages when a phone first asks for it and may drop them again, so the panel costs the
/// gateway's own memory nothing; an edit in the working tree needs a reload of the gateway, not a rebuild.
package enum PanelFolder {
    /// Where the package installs the panel.
    package static let installed = "/usr/share/telltale/panel"
    /// The largest file served (a module is a few kilobytes; a mistake in the folder must not map a disk image).
    package static let maximumFile = 1 << 20

    /// The folder to serve: `configured` when given, else the installed one, else the nearest `Sources/Panel/` above this
    /// program (a build in the working tree). Nil when none holds an `index.html`.
    package static func find(configured: String?, executable: String? = POSIX.executablePath()) -> String? {
        if let configured { return configured }
        if POSIX.exists(installed + "/index.html") { return installed }
        return WorkingTree.folder("Sources/Panel", holding: "index.html", executable: executable)
    }

    /// The content type a file is served with, by its name; nil for a file the panel does not serve.
    package static func contentType(_ name: String) -> String? {
        if name.hasSuffix(".html") { return "text/html; charset=utf-8" }
        if name.hasSuffix(".js") { return "text/javascript; charset=utf-8" }
        if name.hasSuffix(".css") { return "text/css; charset=utf-8" }
        if name.hasSuffix(".svg") { return "image/svg+xml" }
        if name.hasSuffix(".png") { return "image/png" }
        if name.hasSuffix(".webmanifest") { return "application/manifest+json" }
        return nil
    }

    /// Every file of `folder` the panel serves (and of its `tests/`, the modules' unit tests), each mapped, by the path
    /// it is served at. A file that cannot be mapped is logged and left out; a folder without the page is said.
    package static func files(in folder: String?, log: Log) -> [String: SignalKServer.StaticFile] {
        guard let folder, POSIX.exists(folder + "/index.html") else {
            log.error(
                "web.panel",
                "web: no panel (no index.html in \(folder ?? installed)): Signal K is served, the instruments page is not",
                [("path", folder ?? installed)])
            return [:]
        }
        var files: [String: SignalKServer.StaticFile] = [:]
        for (prefix, place) in [("/", folder), ("/tests/", folder + "/tests")] {
            for name in POSIX.list(place).sorted() where !name.hasPrefix(".") {
                guard let type = contentType(name) else { continue }
                let path = place + "/" + name
                do throws(POSIX.Failure) {
                    files[prefix + name] = SignalKServer.StaticFile(
                        contentType: type, mapped: try POSIX.map(path, limit: maximumFile))
                } catch {
                    log.warning("web.panel", "web: the panel's \(name): \(error); not served", [("path", path)])
                }
            }
        }
        log.info("web.panel", "web: the panel from \(folder) (\(files.count) files)", [("path", folder)])
        return files
    }
}
