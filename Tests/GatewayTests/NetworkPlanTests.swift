import Platform
import TestSupport
import Testing

@testable import Gateway

/// network.toml as the image reads it at boot: checked key by key, and turned into hostapd, wpa_supplicant and
/// systemd-networkd files that no typed value can add a line to.
@Suite struct NetworkPlanTests {
    @Test func noFileMeansTheBoatsOwnAccessPoint() throws {
        let settings = try NetworkSettings.parse("")
        #expect(settings.mode == .accessPoint)
        let plan = NetworkPlan(
            settings, ssid: NetworkPlan.defaultSSID(identity: "00000000a1b2c3d4\0"), passphrase: "abcde-fghjk-mnpqr",
            madePassphrase: true, webPort: 3000)
        #expect(plan.ssid == "telltale-c3d4")
        let hostapd = try #require(plan.files.first { $0.name == "hostapd.conf" })
        #expect(hostapd.mode == 0o600)
        #expect(hostapd.text.contains("ssid2=" + NetworkPlan.hex("telltale-c3d4") + "\n"))
        #expect(hostapd.text.contains("wpa=2\n"))
        #expect(hostapd.text.contains("wpa_passphrase=abcde-fghjk-mnpqr\n"))
        let network = try #require(plan.files.first { $0.name == "access-point.network" })
        #expect(network.text.contains("Address=192.168.4.1/24\nDHCPServer=yes\n"))
        #expect(network.text.contains("EmitRouter=no"))
        // The passphrase was made here: the boot partition is told it, with where the panel is.
        let note = try #require(plan.files.first { $0.name == "telltale-wifi.txt" })
        #expect(note.text.contains("abcde-fghjk-mnpqr"))
        #expect(note.text.contains("http://192.168.4.1:3000/"))
        let plan2 = try #require(plan.files.first { $0.name == "plan.env" })
        #expect(plan2.text.contains("MODE=access-point\n"))
    }

    @Test func networksToJoinWithTheAccessPointAsFallback() throws {
        let settings = try NetworkSettings.parse(
            """
            country = "GB"
            [[wifi]]
            ssid = "Marina Guest"
            passphrase = "harbour wall"
            [[wifi]]
            ssid = "Open Cafe"
            [access_point]
            ssid = "Tern"
            passphrase = "my own passphrase"
            channel = 11
            address = "10.7.0.1/24"
            fallback_seconds = 90
            """)
        #expect(settings.mode == .joinThenAccessPoint)
        let plan = NetworkPlan(
            settings, ssid: "Tern", passphrase: "my own passphrase", madePassphrase: false, webPort: 80)
        let supplicant = try #require(plan.files.first { $0.name == "wpa_supplicant.conf" }).text
        #expect(supplicant.contains("country=GB\n"))
        #expect(supplicant.contains("ssid=" + NetworkPlan.hex("Marina Guest") + "\n"))
        #expect(supplicant.contains("psk=\"harbour wall\"\n"))
        #expect(supplicant.contains("ssid=" + NetworkPlan.hex("Open Cafe") + "\n\tscan_ssid=1\n\tkey_mgmt=NONE\n"))
        // The first listed is preferred.
        let priorities = supplicant.split(separator: "\n").filter { $0.hasPrefix("\tpriority=") }
        #expect(priorities == ["\tpriority=2", "\tpriority=1"])
        let hostapd = try #require(plan.files.first { $0.name == "hostapd.conf" }).text
        #expect(hostapd.contains("channel=11\n"))
        #expect(hostapd.contains("country_code=GB\n"))
        #expect(try #require(plan.files.first { $0.name == "plan.env" }).text.contains("FALLBACK_SECONDS=90\n"))
        #expect(
            try #require(plan.files.first { $0.name == "access-point.network" }).text.contains("Address=10.7.0.1/24"))
        // The sailor chose the passphrase: nothing is written to the boot partition.
        #expect(!plan.files.contains { $0.name == "telltale-wifi.txt" })
    }

    @Test func aValueCannotAddALineToTheFiles() throws {
        // A newline in a quoted TOML string is refused by the check; the SSID goes in hex whatever it holds.
        #expect(throws: ConfigurationFile.Error.self) {
            try NetworkSettings.parse("[access_point]\nssid = \"boat\\nwpa=0\"\n")
        }
        let settings = try NetworkSettings.parse("[access_point]\nssid = \"Jo's \\\"boat\\\" $(reboot)\"\n")
        let plan = NetworkPlan(
            settings, ssid: settings.accessPoint.ssid!, passphrase: "12345678", madePassphrase: false, webPort: 3000)
        let env = try #require(plan.files.first { $0.name == "plan.env" }).text
        #expect(env.contains("SSID='Jo'\\''s \"boat\" $(reboot)'\n"))
        for file in plan.files where file.name.hasSuffix(".conf") {
            #expect(!file.text.contains("reboot"))
        }
    }

    @Test func mistakesAreNamedEachWithItsLine() {
        do {
            _ = try NetworkSettings.parse(
                """
                country = "uk"
                [[wifi]]
                passphrase = "short"
                [access_point]
                passphrase = "1234567"
                channel = 14
                address = "192.168.4.0/24"
                colour = "blue"
                """)
            Issue.record("accepted")
        } catch {
            let text = error.description
            #expect(text.contains("line 1: country:"))
            #expect(text.contains("line 2: [[wifi]] #1: a network needs its ssid"))
            #expect(text.contains("line 5: access_point.passphrase: a WPA2 passphrase is 8 to 63"))
            #expect(text.contains("line 6: access_point.channel: must be from 1 to 13"))
            #expect(text.contains("line 7: access_point.address:"))
            #expect(text.contains("access_point.colour: unknown key"))
        }
    }

    @Test func passphrasesAreEvenlyDrawnAndEasyToType() {
        let alphabet = Set("abcdefghjkmnpqrstuvwxyz23456789")
        let passphrase = NetworkPlan.passphrase(from: (0..<64).map { UInt8($0 * 7 % 256) })
        #expect(passphrase.count == 17)
        #expect(passphrase.split(separator: "-").map(\.count) == [5, 5, 5])
        #expect(passphrase.filter { $0 != "-" }.allSatisfy { alphabet.contains($0) })
        // Bytes 248 and above are skipped (they would favour the first eight characters).
        let skipped = NetworkPlan.passphrase(from: [255, 250, 248] + [UInt8](repeating: 0, count: 61))
        #expect(skipped == "aaaaa-aaaaa-aaaaa")
        #expect(NetworkPlan.passphrase(from: [UInt8](repeating: 31, count: 64)) == "aaaaa-aaaaa-aaaaa")
        #expect(NetworkPlan.passphrase(from: [UInt8](repeating: 30, count: 64)) == "99999-99999-99999")
    }

    @Test func theCommandKeepsTheMadePassphraseAndReportsABadFile() throws {
        let folder = temporaryFolder("network")
        let settings = folder + "/network.toml"
        var options = NetworkOptions()
        options.settings = settings
        options.state = folder + "/state"
        options.output = folder + "/out/network"
        var logged: [String] = []
        _ = try NetworkCommand.run(options) { logged.append($0) }
        let first = try POSIX.readFile(options.state + "/access-point-passphrase")
        _ = try NetworkCommand.run(options) { logged.append($0) }
        #expect(try POSIX.readFile(options.state + "/access-point-passphrase") == first)
        #expect(logged.isEmpty)
        #expect(!POSIX.exists(options.output + "/network-error.txt"))
        try POSIX.writeFileAtomically(settings, "[access_point]\nchannel = 99\n")
        let said = try NetworkCommand.run(options) { logged.append($0) }
        #expect(said.contains("access point"))
        #expect(logged.count == 1 && logged[0].contains("channel"))
        let note = String(decoding: try POSIX.readFile(options.output + "/network-error.txt"), as: UTF8.self)
        #expect(note.contains("line 2: access_point.channel"))
    }

    @Test func theServicesAreAdvertisedWithSignalKsKeys() throws {
        var configuration = try ConfigurationFile.parse(
            """
            [[output]]
            name = "plotter"
            url = "tcp://0.0.0.0:10110"
            [[output]]
            name = "opencpn"
            url = "tcp://0.0.0.0:2000"
            [web]
            listen = "0.0.0.0:3000"
            name = "Tern & <Co>"
            """)
        let file = Advertisement.serviceFile(configuration, urn: "urn:mrn:signalk:uuid:x")
        for type in ["_http._tcp", "_signalk-http._tcp", "_signalk-ws._tcp"] {
            #expect(file.contains("<type>\(type)</type>\n    <port>3000</port>"))
        }
        #expect(file.contains("<type>_nmea-0183._tcp</type>\n    <port>10110</port>"))
        #expect(file.contains("<type>_nmea-0183._tcp</type>\n    <port>2000</port>"))
        for key in ["txtvers=1", "roles=master,main", "self=urn:mrn:signalk:uuid:x", "swname=telltale", "swvers="] {
            #expect(file.contains("<txt-record>\(key)"))
        }
        #expect(file.contains("Tern &amp; &lt;Co&gt; (Telltale on %h)"))
        configuration.web = nil
        #expect(!Advertisement.serviceFile(configuration, urn: "u").contains("signalk"))
    }
}
