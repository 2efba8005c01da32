import Testing

@testable import Gateway

/// `[autopilot] pypilot` (#41): an address, an address and port, or "mdns" to find it; anything else refused with
/// what is wanted.
@Suite struct AutopilotConfigurationTests {
    @Test("an address (23322 unless given), or mdns; names and nonsense refused")
    func pypilot() throws {
        let mdns = try ConfigurationFile.parse("[autopilot]\npypilot = \"mdns\"\n")
        #expect(mdns.autopilot.pypilotDiscovery && mdns.autopilot.pypilotHost == nil)
        let plain = try ConfigurationFile.parse("[autopilot]\npypilot = \"192.168.4.20\"\n")
        #expect(!plain.autopilot.pypilotDiscovery && plain.autopilot.pypilotHost == "192.168.4.20")
        #expect(plain.autopilot.pypilotPort == 23322)
        let port = try ConfigurationFile.parse("[autopilot]\npypilot = \"10.0.0.5:2000\"\n")
        #expect(port.autopilot.pypilotHost == "10.0.0.5" && port.autopilot.pypilotPort == 2000)
        let none = try ConfigurationFile.parse("")
        #expect(none.autopilot.pypilotHost == nil && !none.autopilot.pypilotDiscovery)
        for bad in ["pypilot.local", "mdns:23322", "10.0.0.5:0", "10.0.0.5:99999", "", ":23322"] {
            #expect(throws: ConfigurationFile.Error.self, "\(bad)") {
                _ = try ConfigurationFile.parse("[autopilot]\npypilot = \"\(bad)\"\n")
            }
        }
    }
}
