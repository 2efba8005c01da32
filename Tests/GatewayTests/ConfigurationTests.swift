import Engine
import NMEA
import Platform
import TestSupport
import Testing

@testable import Gateway

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct ConfigurationTests {
    @Test("the bench profile is valid and says what make run promises")
    func benchProfile() throws {
        let folder = projectFixtures() + "/../Boards"
        let configuration = try ConfigurationFile.load(path: folder + "/bench.toml")
        #expect(configuration.inputs.first?.loop == true)
        #expect(configuration.outputs.first?.endpoint == .tcp(host: "0.0.0.0", port: 10110))
        #expect(configuration.route?.hasSuffix("Fixtures/demo-voyage/route.gpx") == true)
        #expect(configuration.web?.port == 3000, "the Signal K server and the panel on Signal K's usual port")
    }

    struct BadCase: Sendable, CustomTestStringConvertible {
        let text: String
        let line: Int?
        let key: String
        var testDescription: String { key }
    }

    @Test(
        "a bad configuration is refused with the key and its line",
        arguments: [
            BadCase(text: "talker = \"II\"\nrat = 10\n", line: 2, key: "rat"),
            BadCase(text: "rate = 100\n", line: 1, key: "rate"),
            BadCase(text: "[wind]\nheel_correction = \"yes\"\n", line: 2, key: "wind.heel_correction"),
            BadCase(
                text: "[[output]]\nurl = \"tcp://0.0.0.0:10110\"\n[[output]]\nurl = \"ftp://x\"\n", line: 4,
                key: "[[output]] #2 url"),
            BadCase(
                text: "[[output]]\nurl = \"stdout:\"\nkinds = [\"true-wind\", \"tru-wind\"]\n", line: 3,
                key: "[[output]] #1 kinds"),
            BadCase(
                text: "[[input]]\nname = \"a\"\nurl = \"file:x.nmea\"\n[[output]]\nname = \"a\"\nurl = \"stdout:\"\n",
                line: 5, key: "[[output]] #1 name"),
            BadCase(text: "[damping]\ntrue_wind = -1\n", line: 2, key: "damping.true_wind"),
            BadCase(text: "rate = \n", line: 1, key: "(syntax)"),
        ])
    func refused(_ c: BadCase) {
        do {
            _ = try ConfigurationFile.parse(c.text)
            Issue.record("accepted: \(c.text)")
        } catch {
            #expect(error.key == c.key)
            #expect(error.line == c.line)
        }
    }

    @Test("defaults: with only an output, every engine default holds and the standard kinds are built")
    func defaults() throws {
        let configuration = try ConfigurationFile.parse("[[output]]\nurl = \"stdout:\"\n")
        #expect(configuration.tickRate == 10)
        #expect(configuration.engine.timeouts.wind == 3)
        #expect(configuration.engine.damping.trueWind == 2)
        #expect(configuration.engine.kinds == ComputedKind.standard)
        #expect(configuration.outputs.first?.passThrough == true)
    }

    @Test("source priorities per quantity group come from [priority]")
    func priorities() throws {
        let configuration = try ConfigurationFile.parse(
            "[priority]\nwind = [\"masthead\", \"backup\"]\nposition = [\"gps2\"]\n[[output]]\nurl = \"stdout:\"\n")
        #expect(configuration.engine.priorities[.wind] == ["masthead", "backup"])
        #expect(configuration.engine.priorities[.position] == ["gps2"])
        #expect(throws: ConfigurationFile.Error.self) {
            try ConfigurationFile.parse("[priority]\nwinds = [\"a\"]\n")
        }
    }

    @Test("address patterns select sentences per output")
    func patterns() {
        var output = OutputConfiguration(name: "o", endpoint: .standardOutput)
        output.include = ["*MWV", "GP*"]
        output.exclude = ["GPGSV"]
        #expect(output.admits(Address("IIMWV")!) && output.admits(Address("GPRMC")!))
        #expect(!output.admits(Address("GPGSV")!) && !output.admits(Address("HCHDG")!))
    }
}
