import Marine
import Platform
import TestSupport
import Testing

@testable import Gateway

/// A configured calibration file that cannot be read is not a configuration that cannot be run: the boat keeps her
/// instruments, uncalibrated, and the reason is kept to be said; `check-config` still names it.
@Suite struct UnreadableCalibrationTests {
    func configuration(calibration text: String) throws(ConfigurationFile.Error) -> (GatewayConfiguration, String) {
        let folder = temporaryFolder("unreadable-calibration")
        try? POSIX.writeFileAtomically(folder + "/calibration.toml", Array(text.utf8))
        let config = "[calibration]\nfile = \"calibration.toml\"\n"
        return (try ConfigurationFile.parse(config, base: folder), folder)
    }

    @Test func aBrokenFileLeavesTheWindUncalibratedAndSaysWhy() throws {
        for text in ["[sailing]\nawa_offset = 25\n", "[sailing]\nupwash_tws = [6.8, 12", "awa_offset = -4\n"] {
            let (parsed, folder) = try configuration(calibration: text)
            #expect(parsed.calibrationFile == folder + "/calibration.toml")
            #expect(parsed.calibrationUnreadable?.contains(folder + "/calibration.toml") == true)
            #expect(parsed.engine.wind.calibration.awaOffset == 0)
        }
    }

    @Test func aReadableFileIsAppliedAndNothingSaid() throws {
        let (parsed, _) = try configuration(calibration: "[sailing]\nawa_offset = -4.5\n")
        #expect(parsed.calibrationUnreadable == nil)
        #expect(parsed.engine.wind.calibration.awaOffset == -4.5)
    }

    @Test func checkConfigNamesIt() throws {
        let folder = temporaryFolder("unreadable-calibration-check")
        try POSIX.writeFileAtomically(folder + "/calibration.toml", Array("[sailing]\nawa_offset = 25\n".utf8))
        let text = "[calibration]\nfile = \"calibration.toml\"\n"
        #expect(throws: CommandError.self) { try RunCommand.check(text: text, base: folder, named: "boat.toml") }
        do {
            _ = try RunCommand.check(text: text, base: folder, named: "boat.toml")
        } catch {
            #expect(error.description.contains("boat.toml: [calibration]"))
            #expect(error.description.contains("awa_offset"))
        }
    }
}
