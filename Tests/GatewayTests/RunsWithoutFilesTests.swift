import Platform
import TestSupport
import Testing

@testable import Gateway

#if canImport(Glibc)
    import Glibc
#endif

/// Files a configuration names that cannot be read (a route, a polar, a start line, a calibration: not there yet on a
/// boot partition that is late, broken by hand or by the card) leave the boat without them, not without her
/// instruments; `check-config` names each and exits 3, which the image's `telltale-data` reads to keep the sailor's
/// configuration rather than put the one before in its place. A configuration `run` refuses exits 1. Until 2026-12-02
/// a polar that could not be read refused the whole configuration, and on a card whose boot partition was late the
/// image's example took the place of the sailor's one (and kept it).
@Suite(.serialized) struct RunsWithoutFilesTests {
    func status(_ path: String) -> (Int32, String) {
        do throws(CommandError) {
            return (0, try RunCommand.check(path))
        } catch {
            return (error.status, error.description)
        }
    }

    @Test("check-config: 3 with every file run goes without named, 1 for what run refuses, 0 when all is read")
    func exitStatus() throws {
        let folder = temporaryFolder("runs-without")
        let demo = projectFixtures() + "/demo-voyage"
        let config = folder + "/telltale.toml"
        try POSIX.writeFile(folder + "/calibration.toml", "[sailing]\nawa_offset = -4.30\nupwash_tws = [6.8, 12")
        try POSIX.writeFile(folder + "/polar.csv", "TWA;6;10\n52;five;6\n")
        let files = [
            ("route = \"/nonexistent/route.gpx\"\n", "route: cannot open /nonexistent/route.gpx"),
            ("polar = \"missing.csv\"\n", "line 1: polar: "),
            ("polar = \"polar.csv\"\n", "line 1: polar: "),
            ("[race]\nline = \"/nonexistent/line.gpx\"\n", "race: cannot open /nonexistent/line.gpx"),
            ("[calibration]\nfile = \"calibration.toml\"\n", "[calibration] "),
        ]
        for (text, said) in files {
            try POSIX.writeFile(config, text)
            let (code, words) = status(config)
            #expect(code == CommandError.runsWithoutFiles && code == 3, "\(text): \(code) \(words)")
            #expect(words.hasPrefix(config + ": ") && words.contains(said), "\(text): \(words)")
        }
        try POSIX.writeFile(config, files[0].0 + files[1].0 + files[3].0 + files[4].0)
        let (all, words) = status(config)
        #expect(all == 3 && words.split(separator: "\n").count == 4, "\(words)")
        for (text, said) in [("polar = 12\n", "polar"), ("[race\n", "line 2"), ("speling = 1\n", "unknown key")] {
            try POSIX.writeFile(config, "route = \"/nonexistent/route.gpx\"\n" + text)
            let (code, words) = status(config)
            #expect(code == 1 && words.contains(said), "\(text): \(code) \(words)")
        }
        try POSIX.writeFile(config, "route = \"\(demo)/route.gpx\"\npolar = \"\(demo)/polar.csv\"\n")
        #expect(status(config).0 == 0, "\(status(config).1)")
    }

    @Test("a polar that cannot be read: the configuration is read, without targets, the reason kept with its line")
    func polarUnreadable() throws {
        let folder = temporaryFolder("runs-without-polar")
        let parsed = try ConfigurationFile.parse("talker = \"II\"\npolar = \"missing.csv\"\n", base: folder)
        #expect(parsed.engine.polar == nil && parsed.polarPath == folder + "/missing.csv")
        let reason = try #require(parsed.polarUnreadable)
        #expect(reason.hasPrefix("line 2: polar: ") && reason.contains(folder + "/missing.csv"), "\(reason)")
        #expect(parsed.engine.talker == "II")
    }

    @Test("a replay refuses a polar it cannot read (66), to standard output and to the configuration's outputs")
    func replayRefuses() throws {
        let folder = temporaryFolder("runs-without-replay")
        for outputs in ["", "[[output]]\nname = \"o\"\nurl = \"udp://127.0.0.1:19999\"\n"] {
            try POSIX.writeFile(folder + "/boat.toml", "polar = \"missing.csv\"\n" + outputs)
            var options = ReplayOptions()
            options.logs = [projectFixtures() + "/demo-voyage/voyage.nmea"]
            options.config = folder + "/boat.toml"
            do throws(CommandError) {
                _ = try ReplayCommand.perform(options) { _ in }
                Issue.record("a replay ran without the polar its configuration names")
            } catch {
                #expect(error.status == 66 && error.description.contains("polar: cannot open"), "\(error)")
            }
        }
    }

    @Test("a replay refuses a calibration it cannot read, unless --calibration names one it can, in both modes")
    func replayCalibration() throws {
        let folder = temporaryFolder("runs-without-replay-calibration")
        try POSIX.writeFile(folder + "/short.toml", "[sailing]\nawa_offset = -4.30\nupwash_tws = [6.8, 12")
        try POSIX.writeFile(folder + "/good.toml", "[sailing]\nawa_offset = -4\nspeed_factor = 1\n")
        let voyage = try POSIX.readFile(projectFixtures() + "/demo-voyage/voyage.nmea")
        let minute = voyage.split(separator: UInt8(ascii: "\n")).prefix(600).map { String(decoding: $0, as: UTF8.self) }
        try POSIX.writeFile(folder + "/minute.nmea", minute.joined(separator: "\n") + "\n")
        let named = "[calibration]\nfile = \"short.toml\"\n"
        // (the configuration's calibration, --calibration, what the replay says: nil when it runs)
        let cases: [(String, String?, String?)] = [
            (named, nil, "boat.toml: line 3: "), ("", folder + "/short.toml", "--calibration"),
            (named, folder + "/good.toml", nil), ("", folder + "/missing.toml", "--calibration"),
        ]
        for outputs in ["", "[[output]]\nname = \"o\"\nurl = \"udp://127.0.0.1:19999\"\n"] {
            for (section, calibration, refused) in cases {
                try POSIX.writeFile(folder + "/boat.toml", "status_line = false\n" + outputs + section)
                var options = ReplayOptions()
                options.logs = [folder + "/minute.nmea"]
                options.config = folder + "/boat.toml"
                options.calibration = calibration
                options.fast = true
                do throws(CommandError) {
                    _ = try ReplayCommand.perform(options) { _ in }
                    #expect(refused == nil, "ran with \(calibration ?? section) unreadable (outputs: \(outputs))")
                } catch {
                    #expect(refused != nil && error.status == 66, "\(calibration ?? section): \(error)")
                    #expect(error.description.contains(refused ?? "?"), "\(error)")
                }
            }
        }
    }

    @Test("the gateway runs on a configuration whose polar cannot be read, computes the wind and says why")
    func gatewayRuns() throws {
        let folder = temporaryFolder("runs-without-gateway")
        let text = """
            polar = "/nonexistent/polar.csv"
            status_line = false
            [[input]]
            name = "demo"
            url = "file:\(projectFixtures())/demo-voyage/voyage.nmea"
            speed = 20
            """
        var configuration = try ConfigurationFile.parse(text, base: folder)
        configuration.outputs = [OutputConfiguration(name: "tcp", endpoint: .tcp(host: "127.0.0.1", port: 0))]
        configuration.engine.kinds = configuration.requiredKinds
        let messages = MessageBox()
        let runtime = try Runtime(configuration: configuration) { messages.append($0.message) }
        let reader = LoopbackClient(port: try #require(runtime.tcpPorts["tcp"]), receiveBuffer: 1 << 20)
        runtime.run(duration: 3)
        reader.drain()
        let said = messages.items.filter { $0.contains("line 1: polar: ") && $0.contains("/nonexistent/polar.csv") }
        #expect(said.count == 1 && said.first?.hasSuffix("no polar targets nor performance") == true, "\(said)")
        let trueWind = String(decoding: reader.bytes, as: UTF8.self).split(separator: "\r\n").filter {
            $0.dropFirst(3).hasPrefix("MWV") && $0.contains(",T,")
        }
        // Computed once a second: 4 in 2 s, with or without a polar.
        #expect(trueWind.count >= 3, "\(trueWind.count) MWV T")
    }
}
