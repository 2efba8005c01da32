import Engine
import Marine

/// A start line from a GPX file's two waypoints (`[race] line`): named `port`/`pin` and `starboard`/`committee`/
/// `boat`, else the first is the port end (``StartLine/init(waypoints:)``).
public enum StartLineFile {
    public static func load(_ path: String) throws(CommandError) -> StartLine {
        var file = RouteFile(path: path)
        let route: Route
        do { route = try file.load() } catch { throw CommandError("race: \(error)") }
        guard let line = StartLine(waypoints: route.waypoints) else {
            throw CommandError("race: \(path): the start line needs two waypoints (port and starboard ends) apart")
        }
        return line
    }
}
