import Fleet
import Testing

@testable import Gateway

/// Several brokers (#43): `[uplink] broker` as a list, each boat on the one a hash of its name picks, the same every
/// time, the boats spread over them.
@Suite struct UplinkBrokersTests {
    @Test("one broker as before; a list: the boat's broker picked by its name, stable, spread, each URL checked")
    func brokers() throws {
        let one = try ConfigurationFile.parse("[uplink]\nbroker = \"mqtt://shore:1884\"\nboat = \"arrow\"\n")
        #expect(one.uplink?.host == "shore" && one.uplink?.port == 1884 && one.uplink?.brokers == ["mqtt://shore:1884"])
        let list = #"["mqtt://a:1883", "mqtt://b:1883", "mqtt://c:1883"]"#
        var hosts: [String: Int] = [:]
        for index in 0..<600 {
            let text = "[uplink]\nbroker = \(list)\nboat = \"boat\(index)\"\n"
            let parsed = try ConfigurationFile.parse(text)
            let again = try ConfigurationFile.parse(text)
            let host = try #require(parsed.uplink?.host)
            #expect(again.uplink?.host == host, "the same boat, the same broker")
            hosts[host, default: 0] += 1
        }
        #expect(hosts.keys.sorted() == ["a", "b", "c"])
        #expect(hosts.values.allSatisfy { $0 > 150 }, "spread: \(hosts)")
        // FNV-1a of the name: known values, so another build or machine picks the same.
        #expect(UplinkConfiguration.brokerIndex(boat: "arrow", of: 1) == 0)
        #expect(UplinkConfiguration.brokerIndex(boat: "a", of: 1000) == Int(UInt32(0xE40C_292C) % 1000))
        for bad in [#"[]"#, #"["mqtt://a:1883", "http://b"]"#, #"[1, 2]"#] {
            #expect(throws: ConfigurationFile.Error.self, "\(bad)") {
                _ = try ConfigurationFile.parse("[uplink]\nbroker = \(bad)\nboat = \"x\"\n")
            }
        }
    }
}
