import Marine
import Platform

/// A GPX route file that the gateway follows and reloads when it changes on disk.
public struct RouteFile: Sendable {
    public enum LoadError: Error, CustomStringConvertible {
        case file(POSIX.Failure)
        case gpx(path: String, GPX.ParseError)

        public var description: String {
            switch self {
            case .file(let failure): "\(failure)"
            case .gpx(let path, let error): "\(path): \(error)"
            }
        }
    }

    public let path: String
    private var lastStamp: POSIX.FileStamp?

    public init(path: String) {
        self.path = path
    }

    /// Reads and parses the file now.
    public mutating func load() throws(LoadError) -> Route {
        lastStamp = POSIX.stamp(path)
        let bytes: [UInt8]
        do { bytes = try POSIX.readFile(path, limit: 16 << 20) } catch { throw .file(error) }
        do { return try GPX.route(from: String(decoding: bytes, as: UTF8.self)) } catch {
            throw .gpx(path: path, error)
        }
    }

    /// The route again if the file changed since the last load (modification time or size), else nil.
    /// A file that changed but does not parse is reported, and the old route stays in force.
    public mutating func reloadIfChanged() throws(LoadError) -> Route? {
        guard let current = POSIX.stamp(path), lastStamp.map({ $0 != current }) ?? true else { return nil }
        return try load()
    }
}
