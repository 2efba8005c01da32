import Platform
import SignalK

/// The gateway's settings as the panel's settings page reads and changes them: the configuration file `run` was
/// started on (its text, checked exactly as `telltale check-config` checks a file, and saved so that a power cut
/// leaves the old file or the new one whole, the one before kept as `.previous`), the image's network (the access
/// point's name and passphrase) and what the boot found wrong (a refused telltale.toml or network.toml).
public struct GatewaySettings: Sendable {
    /// Where the settings live (on the image by default; tests point them elsewhere).
    public struct Paths: Sendable {
        /// The configuration file `run` was started on; nil when it was started on flags alone.
        public var configuration: String?
        /// The access point's summary, written at boot by `telltale network`.
        public var network = "/run/telltale/network/access-point.toml"
        /// What the boot refused or worked around, each a file whose text is shown as it is (the image writes them:
        /// a telltale.toml refused, network.toml refused, the boot partition late or broken, a damaged configuration
        /// replaced, files it names the gateway runs without, an emergency mode gone through).
        public var notes = [
            "/run/telltale/boot-configuration-refused.txt", "/run/telltale/network/network-error.txt",
            "/run/telltale/boot-partition.txt", "/run/telltale/configuration-restored.txt",
            "/run/telltale/files-unreadable.txt", "/run/telltale/rescue.txt",
        ]

        public init(configuration: String? = nil) {
            self.configuration = configuration
        }
    }

    /// What a request comes to: the answer, and whether the gateway restarts on a new configuration once it is sent.
    public struct Answer: Sendable, Equatable {
        public var status: Int
        public var json: String
        public var restart = false
    }

    public let paths: Paths
    /// The files the running configuration names that the gateway may be running without (a calibration or a polar
    /// it could not read; its route and start line, when they cannot be read now): a new configuration naming one
    /// that still cannot be read is no worse, so it is saved with a word rather than refused.
    public let goneWithout: Set<String>

    public init(paths: Paths, goneWithout: Set<String> = []) {
        self.paths = paths
        self.goneWithout = goneWithout
    }

    /// The settings of a gateway running on `configuration` (the files it could not read included).
    public init(running configuration: GatewayConfiguration) {
        self.init(paths: configuration.settingsPaths, goneWithout: Self.goneWithout(of: configuration))
    }

    public func handle(_ kind: SignalKServer.SettingsRequest.Kind) -> Answer {
        switch kind {
        case .read: return Answer(status: 200, json: read())
        case .check(let text):
            guard let path = paths.configuration else { return noFile() }
            do throws(CommandError) {
                let summary = try RunCommand.check(
                    text: text, base: POSIX.folder(of: path), named: "telltale.toml",
                    goneWithout: goneWithout)
                return Answer(status: 200, json: Self.result(200, summary))
            } catch {
                return Answer(status: 400, json: Self.result(400, error.description))
            }
        case .save(let text): return save(text)
        case .notes: return Answer(status: 200, json: notesJSON())
        }
    }

    /// The notes the boot left, each file's text (empty files and missing ones left out).
    public func notes() -> [String] {
        paths.notes.compactMap { path in
            guard let bytes = try? POSIX.readFile(path, limit: 16 * 1024), !bytes.isEmpty else { return nil }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// `{"notes": [...]}`, for the instruments page (nothing in them is secret).
    private func notesJSON() -> String {
        var json = JSONWriter()
        json.beginObject()
        json.beginArray("notes")
        for note in notes() { json.value(nil, note) }
        json.endArray()
        json.endObject()
        return json.text
    }

    private func noFile() -> Answer {
        Answer(status: 409, json: Self.result(409, "the gateway was started without a configuration file (--config)"))
    }

    private func read() -> String {
        var json = JSONWriter()
        json.beginObject()
        json.value("version", TelltaleVersion.string)
        json.beginObject("configuration")
        if let path = paths.configuration {
            json.value("path", path)
            json.value("text", (try? POSIX.readFile(path)).map { String(decoding: $0, as: UTF8.self) } ?? "")
            json.value("writable", POSIX.isWritable(POSIX.folder(of: path)))
        } else {
            json.null("path")
        }
        json.endObject()
        if let bytes = try? POSIX.readFile(paths.network),
            let table = try? TOMLReader.parse(String(decoding: bytes, as: UTF8.self))
        {
            json.beginObject("network")
            for key in ["mode", "ssid", "passphrase", "address"] {
                if let value = table[key]?.string { json.value(key, value) }
            }
            json.beginArray("joins")
            for network in table["joins"]?.array ?? [] {
                if let name = network.string { json.value(nil, name) }
            }
            json.endArray()
            json.endObject()
        } else {
            json.null("network")
        }
        json.beginArray("notes")
        for note in notes() { json.value(nil, note) }
        json.endArray()
        json.endObject()
        return json.text
    }

    private func save(_ text: String) -> Answer {
        guard let path = paths.configuration else { return noFile() }
        let summary: String
        do throws(CommandError) {
            summary = try RunCommand.check(
                text: text, base: POSIX.folder(of: path), named: "telltale.toml",
                goneWithout: goneWithout)
        } catch {
            return Answer(status: 400, json: Self.result(400, error.description))
        }
        do throws(POSIX.Failure) {
            if let current = try? POSIX.readFile(path) {
                try POSIX.writeFileAtomically(path + ".previous", current)
            }
            try POSIX.writeFileAtomically(path, text)
        } catch {
            return Answer(status: 409, json: Self.result(409, "not saved: \(error)"))
        }
        return Answer(
            status: 200, json: Self.result(200, "saved: the gateway restarts on it. " + summary), restart: true)
    }

    /// The files `configuration` names that the gateway may run without: a calibration or a polar it could not read
    /// at start (broken by hand or by the card, on a boot partition that was late), its route and start line (once
    /// read, kept; not there, gone without until a restart reads them, or the route comes).
    static func goneWithout(of configuration: GatewayConfiguration) -> Set<String> {
        var files = Set([configuration.route, configuration.race.line].compactMap { $0 })
        if configuration.calibrationUnreadable != nil, let file = configuration.calibrationFile { files.insert(file) }
        if configuration.polarUnreadable != nil, let file = configuration.polarPath { files.insert(file) }
        return files
    }

    /// After a saved configuration would not start: the one before it back in its place (the refused one kept as
    /// `.refused`). False when there was none to go back to.
    public static func restorePrevious(_ path: String) -> Bool {
        guard let previous = try? POSIX.readFile(path + ".previous") else { return false }
        if let refused = try? POSIX.readFile(path) { try? POSIX.writeFileAtomically(path + ".refused", refused) }
        do throws(POSIX.Failure) {
            try POSIX.writeFileAtomically(path, previous)
            return true
        } catch {
            return false
        }
    }

    static func result(_ status: Int, _ message: String) -> String {
        var json = JSONWriter()
        json.beginObject()
        json.value("state", "COMPLETED")
        json.value("statusCode", status)
        json.value("message", message)
        json.endObject()
        return json.text
    }
}
