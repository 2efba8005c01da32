import Gateway
import Marine
import SignalK
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Polar files as sailors have them: a table, Expedition's rows, ORC's certificate JSON; and `polar` in the
/// configuration, checked by check-config.
@Suite struct PolarFileTests {
    func temporary(_ name: String, _ text: String) -> String {
        let folder = temporaryFolder("polar")
        let path = folder + "/" + name
        let file = fopen(path, "w")!
        fputs(text, file)
        fclose(file)
        return path
    }

    static let orc = """
        {"rms": [{"YachtName": "TEST", "Allowances": {
          "WindSpeeds": [6, 10],
          "R52": [720, 600], "R90": [600, 514.2857142857143], "R150": [800, 600],
          "BeatAngle": [44, 42], "Beat": [1000, 800],
          "GybeAngle": [150, 160], "Run": [900, 700]}}]}
        """

    @Test("ORC's certificate JSON: speeds are 3600 over the allowances, targets the VMG over the cosine")
    func orc() throws {
        let polar = try PolarFile.load(temporary("boat.json", Self.orc))
        #expect(polar.curves.map(\.windSpeed) == [6, 10])
        #expect(abs(polar.speed(angle: 52, windSpeed: 6) - 5) < 1e-9)  // 3600 / 720
        #expect(abs(polar.speed(angle: 90, windSpeed: 10) - 7) < 1e-9)  // 3600 / 514.29
        let beat = polar.beat(windSpeed: 6)
        #expect(beat.angle == 44)
        // A VMG of 3600 / 1000 = 3.6 kn at 44°: 3.6 / cos 44° = 5.0046 kn through the water.
        #expect(abs(beat.speed - 5.0046) < 0.0001 && abs(beat.windwardSpeed - 3.6) < 1e-9)
        let run = polar.run(windSpeed: 10)
        #expect(run.angle == 160 && abs(-run.windwardSpeed - 3600.0 / 700) < 1e-9)
        // The target points are on the curve too.
        #expect(abs(polar.speed(angle: 44, windSpeed: 6) - beat.speed) < 1e-9)
        // One boat's file, not in an rms list, reads the same.
        let single = try PolarFile.load(
            temporary("one.json", "{\"Allowances\": {\"WindSpeeds\": [6], \"R60\": [600]}}"))
        #expect(abs(single.speed(angle: 60, windSpeed: 6) - 6) < 1e-9)
    }

    @Test("ORC's JSON with wind angles no wind has (1e300 ended the gateway until 2026-12-01): those left out")
    func orcImpossibleAngles() throws {
        let text =
            "{\"Allowances\": {\"WindSpeeds\": [6], \"WindAngles\": [1e300, -5, 52, 90], "
            + "\"R52\": [720], \"R90\": [600]}}"
        let polar = try PolarFile.load(temporary("angles.json", text))
        #expect(polar.curves.map(\.windSpeed) == [6])
        #expect(abs(polar.speed(angle: 52, windSpeed: 6) - 5) < 1e-9)
        #expect(abs(polar.speed(angle: 90, windSpeed: 6) - 6) < 1e-9)
    }

    @Test("a JSON that is not ORC's, a bad table, a missing file: each refused, saying why")
    func refused() {
        for (name, text, words) in [
            ("a.json", "{\"boat\": 1}", "not ORC certificate JSON"),
            ("b.csv", "TWA;6\n90;x\n", "line 2: x is not a boat speed"),
        ] {
            #expect {
                try PolarFile.load(temporary(name, text))
            } throws: { error in
                "\(error)".contains(words)
            }
        }
        #expect(throws: CommandError.self) { try PolarFile.load("/nonexistent/boat.pol") }
    }

    @Test("polar in the configuration, relative to it; check-config names a bad one")
    func configuration() throws {
        let good = temporary("boat.csv", "TWA;6;10\n52;5;6\n")
        let folder = "/" + good.split(separator: "/").dropLast().joined(separator: "/")
        let config = try ConfigurationFile.parse("polar = \"boat.csv\"\n", base: folder)
        #expect(config.engine.polar?.speed(angle: 52, windSpeed: 10) == 6)
        // Not there: the gateway runs without targets (RunsWithoutFilesTests); check-config names it.
        let missing = try ConfigurationFile.parse("polar = \"missing.csv\"\n", base: folder)
        #expect(missing.engine.polar == nil && missing.polarUnreadable?.contains(folder + "/missing.csv") == true)
        #expect {
            try RunCommand.check(text: "polar = \"missing.csv\"\n", base: folder, named: "boat.toml")
        } throws: { error in
            "\(error)".hasPrefix("boat.toml: line 1: polar: ") && "\(error)".contains("missing.csv")
        }
    }
}
