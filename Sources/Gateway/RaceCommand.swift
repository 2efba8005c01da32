import Engine
import Marine

/// `telltale race start|pause|reset|sync|port|starboard`: tells the running gateway's start timer and start line, through its Signal K server on
/// this machine (a PUT from loopback, which `put_networks` admits by default).
public enum RaceCommand {
    /// The timer's commands, and a ping of either end of the start line from where the bow is now.
    public static let words = ["start", "pause", "reset", "sync", "port", "starboard"]

    /// The start line from a GPX file's waypoints (``StartLine/init(waypoints:)``).
    public static func startLine(from path: String) throws(CommandError) -> StartLine {
        var file = RouteFile(path: path)
        let route: Route
        do { route = try file.load() } catch { throw CommandError("race: \(error)") }
        guard let line = StartLine(waypoints: route.waypoints) else {
            throw CommandError("race: \(path): the start line needs two waypoints (port and starboard ends) apart")
        }
        return line
    }

    /// Sends `word`; returns what the gateway said, or throws when it cannot be reached or refuses.
    public static func send(_ word: String, host: String = "127.0.0.1", port: Int = 3000) throws(CommandError) -> String
    {
        guard words.contains(word) else {
            throw CommandError("race: \(word)? say start, pause, reset, sync, or port or starboard to ping an end")
        }
        let answer = try LocalGateway.request(
            "PUT", "/signalk/v1/api/vessels/self/telltale/race/command", body: "{\"value\":\"\(word)\"}", host: host,
            port: port, what: "race")
        guard answer.status == 200 else { throw CommandError("race: the gateway refused \(word): \(answer.line)") }
        return word == "port" || word == "starboard" ? "start line: \(word) end set" : "race timer: \(word)"
    }
}
