import Engine
import Marine
import Platform

/// The anchor watch kept across a restart or a power cut: `anchor.toml` in the state folder (beside `state.toml` and
/// `access.json`), written atomically whenever the anchor is dropped, moved, given a new circle or raised, and read
/// when the gateway starts, so that a reboot at 3 am does not disarm the drag alarm. A file that cannot be read, or
/// says something that cannot be true, is logged and left alone: the watch is then off, and the log says so.
public struct AnchorFile: Sendable {
    public let path: String

    public init(path: String) { self.path = path }

    /// The file beside a state file.
    public init(stateFile: String) { path = POSIX.folder(of: stateFile) + "/anchor.toml" }

    /// The anchor kept, nil when the file is missing or says none is down.
    public func load() throws(ConfigurationFile.Error) -> AnchorSet? {
        guard POSIX.exists(path) else { return nil }
        let bytes: [UInt8]
        do { bytes = try POSIX.readFile(path, limit: 65_536) } catch {
            throw ConfigurationFile.Error(line: nil, key: path, message: "\(error)")
        }
        let table: TOMLTable
        do { table = try TOMLReader.parse(String(decoding: bytes, as: UTF8.self)) } catch {
            throw ConfigurationFile.Error(line: error.line, key: path, message: error.message)
        }
        guard let anchor = table["anchor"]?.table else { return nil }
        func number(_ key: String) -> Double? { anchor[key]?.double ?? anchor[key]?.int.map(Double.init) }
        guard let latitude = number("latitude"), let longitude = number("longitude"), let radius = number("radius")
        else {
            throw ConfigurationFile.Error(
                line: nil, key: path + " [anchor]", message: "needs latitude, longitude and radius")
        }
        let set = AnchorSet(
            position: GeoPoint(latitude: latitude, longitude: longitude), radius: radius,
            droppedAt: number("dropped_at") ?? 0, depth: number("depth"), rode: number("rode"))
        guard set.isPlausible else {
            throw ConfigurationFile.Error(
                line: nil, key: path + " [anchor]", message: "not a position on the earth with a circle of 1 to 1852 m")
        }
        return set
    }

    /// The file's text for `set` (no `[anchor]` table when none is down).
    public static func text(_ set: AnchorSet?) -> String {
        var lines = ["# Telltale's anchor watch, written by the gateway when the anchor is dropped, moved or raised."]
        if let set {
            lines += [
                "", "[anchor]", "latitude = \(FixedDecimal.text(set.position.latitude, decimals: 7))",
                "longitude = \(FixedDecimal.text(set.position.longitude, decimals: 7))",
                "radius = \(FixedDecimal.text(set.radius, decimals: 1))", "dropped_at = \(Int(set.droppedAt))",
            ]
            if let depth = set.depth { lines.append("depth = \(FixedDecimal.text(depth, decimals: 1))") }
            if let rode = set.rode { lines.append("rode = \(FixedDecimal.text(rode, decimals: 1))") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes it atomically (a power cut leaves the old watch or the new one).
    public func save(_ set: AnchorSet?) throws(POSIX.Failure) { try POSIX.writeFileAtomically(path, Self.text(set)) }
}
