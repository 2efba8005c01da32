import CPosix
import Platform
import SignalK
import TestSupport
import Testing

@testable import Gateway

/// The settings page's door, end to end: `telltale run` on a configuration file, its settings read over HTTP, a bad
/// configuration refused with check-config's words, a good one saved (the one before kept) and run, and one that
/// passes the check but cannot start put back to the one before.
@Suite(.serialized) struct SettingsTests {
    /// A port nothing listens on now.
    func freePort() -> Int {
        let server = LoopbackServer()
        return server.port
    }

    func configuration(web: Int, output: Int) -> String {
        """
        talker = "II"
        status_line = false
        [[output]]
        name = "plotter"
        url = "tcp://127.0.0.1:\(output)"
        [web]
        listen = "127.0.0.1:\(web)"
        """
    }

    /// A request to the gateway under test; a connection refused is tried again for 20 s (on a loaded machine the
    /// gateway may be between two starts: its own restart, or another test's SIGHUP to this process).
    func request(_ method: String, _ path: String, _ body: String? = nil, port: Int) throws -> LocalGateway.Answer {
        let deadline = POSIX.monotonic() + 20
        while true {
            do {
                return try LocalGateway.request(
                    method, path, body: body, host: "127.0.0.1", port: port, what: "settings")
            } catch {
                guard "\(error)".contains("nothing answers") || "\(error)".contains("is telltale running"),
                    POSIX.monotonic() < deadline
                else { throw error }
                POSIX.sleep(until: POSIX.monotonic() + 0.1)
            }
        }
    }

    /// Waits (20 s at most: CI runs these beside hundreds of others and a Pi build) until `port` answers on
    /// loopback, or stops answering.
    func wait(port: Int, listening: Bool) -> Bool {
        let deadline = POSIX.monotonic() + 20
        while POSIX.monotonic() < deadline {
            let answers = (try? request("GET", "/signalk", port: port)) != nil
            if answers == listening { return true }
            POSIX.sleep(until: POSIX.monotonic() + 0.05)
        }
        return false
    }

    func listens(_ port: Int) -> Bool {
        guard let address = POSIX.SocketAddress(host: "127.0.0.1", port: port),
            let fd = try? POSIX.socket(.stream, for: address, naming: "test")
        else { return false }
        defer { POSIX.close(fd) }
        guard let connected = try? POSIX.connect(fd, to: address, naming: "test") else { return false }
        if connected { return true }
        var fds = [pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)]
        _ = POSIX.poll(&fds, seconds: 1)
        return POSIX.socketError(fd) == 0
    }

    @Test(
        "saved from the settings page: checked as check-config checks, the old file kept, the gateway restarted on it")
    func saveAndRestart() throws {
        let folder = temporaryFolder("settings")
        let path = folder + "/telltale.toml"
        let web = freePort()
        let first = freePort()
        let second = freePort()
        let original = configuration(web: web, output: first)
        try POSIX.writeFileAtomically(path, original)
        var options = RunOptions()
        options.config = path
        // Each start's limit, should the test stop early; the test ends it itself.
        options.duration = 120
        let run = options
        let stop = StopRequest()
        let gateway = TestThread { try? RunCommand.run(run, stop: stop) { _ in } }
        defer {
            stop.raise()
            gateway.join()
        }
        #expect(wait(port: web, listening: true))

        let read = try request("GET", "/telltale/v1/settings", port: web)
        #expect(read.status == 200)
        let settings = try #require(JSONValue.parse(Array(read.body.utf8)))
        #expect(settings["configuration"]?["text"]?.string == original)
        #expect(settings["configuration"]?["path"]?.string == path)
        #expect(settings["configuration"]?["writable"] == .bool(true))

        // A mistake: refused with the line, nothing saved, nothing restarted.
        let bad = "tick_rate = 900\n" + original
        let refused = try request("PUT", "/telltale/v1/settings/configuration", bad, port: web)
        #expect(refused.status == 400)
        #expect(refused.body.contains("tick_rate"))
        #expect(try POSIX.readFile(path) == Array(original.utf8))
        #expect(listens(first))

        // A body nesting 8,000 arrays deep (16 KB, under the request's limit) once ran the gateway's stack out while
        // it was read: now refused with the line, and the gateway still answers.
        let deep = "x = " + String(repeating: "[", count: 8000) + String(repeating: "]", count: 8000) + "\n"
        let nested = try request("PUT", "/telltale/v1/settings/check", deep, port: web)
        #expect(nested.status == 400 && nested.body.contains("nest at most 32 deep"))
        #expect(try request("GET", "/telltale/v1/settings", port: web).status == 200)

        // Checked only: valid, and still nothing saved.
        let next = configuration(web: web, output: second)
        let checked = try request("PUT", "/telltale/v1/settings/check", next, port: web)
        #expect(checked.status == 200 && checked.body.contains("valid (0 inputs, 1 output"))
        #expect(try POSIX.readFile(path) == Array(original.utf8))

        // Saved: the new file in place, the old one beside it, and the gateway serving the new output.
        let saved = try request("PUT", "/telltale/v1/settings/configuration", next, port: web)
        #expect(saved.status == 200 && saved.body.contains("restarts"))
        #expect(try POSIX.readFile(path) == Array(next.utf8))
        #expect(try POSIX.readFile(path + ".previous") == Array(original.utf8))
        let deadline = POSIX.monotonic() + 20
        while !listens(second) && POSIX.monotonic() < deadline { POSIX.sleep(until: POSIX.monotonic() + 0.05) }
        #expect(listens(second))
        #expect(!listens(first))

        // Valid on paper, but its output port is taken: the gateway goes back to the file before it.
        let taken = LoopbackServer()
        let doomed = configuration(web: web, output: taken.port)
        let accepted = try request("PUT", "/telltale/v1/settings/configuration", doomed, port: web)
        #expect(accepted.status == 200)
        let back = POSIX.monotonic() + 20
        while POSIX.monotonic() < back {
            if (try? POSIX.readFile(path)) == Array(next.utf8) && listens(second) { break }
            POSIX.sleep(until: POSIX.monotonic() + 0.05)
        }
        #expect(try POSIX.readFile(path) == Array(next.utf8))
        #expect(try POSIX.readFile(path + ".refused") == Array(doomed.utf8))
        #expect(listens(second))
        _ = taken
    }

    @Test("the image's network summary and the boot's refusals are shown; no file means nothing to save")
    func networkAndNotes() throws {
        let folder = temporaryFolder("settings-notes")
        var paths = GatewaySettings.Paths()
        paths.network = folder + "/access-point.toml"
        paths.notes = [folder + "/refused.txt", folder + "/missing.txt"]
        try POSIX.writeFileAtomically(
            paths.network,
            "mode = \"access-point\"\nssid = \"telltale-c3d4\"\npassphrase = \"abcde-fghjk-mnpqr\"\n"
                + "address = \"192.168.4.1\"\njoins = []\n")
        try POSIX.writeFileAtomically(folder + "/refused.txt", "telltale.toml on the card: line 3: talker: ...")
        let answer = GatewaySettings(paths: paths).handle(.read)
        let json = try #require(JSONValue.parse(Array(answer.json.utf8)))
        #expect(json["network"]?["ssid"]?.string == "telltale-c3d4")
        #expect(json["network"]?["passphrase"]?.string == "abcde-fghjk-mnpqr")
        #expect(json["notes"]?.array?.count == 1)
        #expect(json["configuration"]?["path"] == .null)
        let save = GatewaySettings(paths: paths).handle(.save("talker = \"II\"\n"))
        #expect(save.status == 409 && !save.restart)
        // The notes alone, for the instruments page (no passphrase in them).
        let notes = GatewaySettings(paths: paths).handle(.notes)
        let list = try #require(JSONValue.parse(Array(notes.json.utf8))?["notes"]?.array)
        #expect(
            notes.status == 200 && list.count == 1 && list[0].string?.hasPrefix("telltale.toml on the card") == true)
        #expect(!notes.json.contains("abcde-fghjk-mnpqr"))
        #expect(GatewaySettings.Paths().notes.contains("/run/telltale/boot-partition.txt"))
    }

    @Test("the notes are for every device that may read; the settings for an admin only")
    func notesForAll() throws {
        let web = freePort()
        let folder = temporaryFolder("settings-notes-open")
        let path = folder + "/telltale.toml"
        try POSIX.writeFileAtomically(path, configuration(web: web, output: freePort()) + "\nput_networks = []\n")
        var options = RunOptions()
        options.config = path
        options.duration = 120
        let run = options
        let stop = StopRequest()
        let gateway = TestThread { try? RunCommand.run(run, stop: stop) { _ in } }
        defer {
            stop.raise()
            gateway.join()
        }
        #expect(wait(port: web, listening: true))
        let notes = try request("GET", "/telltale/v1/notes", port: web)
        #expect(notes.status == 200 && notes.body.contains("\"notes\":["))
        let settings = try request("GET", "/telltale/v1/settings", port: web)
        #expect(settings.status == 401 || settings.status == 403)
    }

    @Test("a calibration file the gateway runs without (broken) does not stop the Wi-Fi being changed; a new one does")
    func brokenCalibration() throws {
        let folder = temporaryFolder("settings-calibration")
        let path = folder + "/telltale.toml"
        try POSIX.writeFileAtomically(folder + "/calibration.toml", "[sailing]\nawa_offset = \"half a\n")
        try POSIX.writeFileAtomically(folder + "/other.toml", "[sailing]\nawa_offset = 45.0\n")
        let broken = "talker = \"II\"\n[calibration]\nfile = \"calibration.toml\"\n"
        try POSIX.writeFileAtomically(path, broken)
        // The gateway as `run` starts it on that file: uncalibrated, the file named as the one it runs without.
        var running = try ConfigurationFile.load(path: path)
        running.settingsPaths.configuration = path
        let settings = GatewaySettings(running: running)
        #expect(settings.goneWithout == [folder + "/calibration.toml"])
        // check-config still refuses it at a desk.
        #expect(throws: CommandError.self) { try RunCommand.check(path) }
        // The same file named again, the rest changed: saved, and the answer says the boat stays uncalibrated.
        let changed = "status_line = false\n" + broken
        let saved = settings.handle(.save(changed))
        #expect(saved.status == 200 && saved.restart, "\(saved.json)")
        #expect(saved.json.contains("still uncalibrated") && saved.json.contains("calibration.toml"), "\(saved.json)")
        #expect(try POSIX.readFile(path) == Array(changed.utf8))
        // Another file that cannot be applied (an offset past its bound): refused, nothing saved.
        let other = "status_line = false\ntalker = \"II\"\n[calibration]\nfile = \"other.toml\"\n"
        let refused = settings.handle(.save(other))
        #expect(refused.status == 400 && !refused.restart && refused.json.contains("other.toml"), "\(refused.json)")
        #expect(try POSIX.readFile(path) == Array(changed.utf8))
        // Once the calibration is mended, a broken one is refused again: only what the gateway runs without now passes.
        try POSIX.writeFileAtomically(path, "talker = \"II\"\n")
        running = try ConfigurationFile.load(path: path)
        running.settingsPaths.configuration = path
        #expect(GatewaySettings(running: running).handle(.save(broken)).status == 400)
    }

    @Test("a polar and a route the gateway runs without (not there yet) do not stop a change; other such files do")
    func goneWithoutFiles() throws {
        let folder = temporaryFolder("settings-gone-without")
        let path = folder + "/telltale.toml"
        let late = "route = \"/nonexistent/late/route.gpx\"\npolar = \"/nonexistent/late/polar.csv\"\n"
        try POSIX.writeFileAtomically(path, late)
        var running = try ConfigurationFile.load(path: path)
        running.settingsPaths.configuration = path
        let settings = GatewaySettings(running: running)
        #expect(settings.goneWithout == ["/nonexistent/late/route.gpx", "/nonexistent/late/polar.csv"])
        let changed = "status_line = false\n" + late
        let saved = settings.handle(.save(changed))
        #expect(saved.status == 200 && saved.restart, "\(saved.json)")
        #expect(saved.json.contains("still without the route, as now: route: cannot open /nonexistent/late/route.gpx"))
        #expect(saved.json.contains("still without the polar, as now: line 3: polar: cannot open"), "\(saved.json)")
        #expect(try POSIX.readFile(path) == Array(changed.utf8))
        // Another polar that cannot be read: refused, nothing saved; at a desk, check-config names both (exit 3).
        let other = "status_line = false\nroute = \"/nonexistent/late/route.gpx\"\npolar = \"/nonexistent/other.csv\"\n"
        let refused = settings.handle(.save(other))
        #expect(refused.status == 400 && refused.json.contains("other.csv") && !refused.json.contains("route.gpx"))
        #expect(try POSIX.readFile(path) == Array(changed.utf8))
        #expect(throws: CommandError.self) { try RunCommand.check(path) }
    }
}
