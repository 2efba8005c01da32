import Engine
import Gateway
import Marine
import Platform
import TestSupport
import Testing

/// The anchor watch kept in the state folder: written and read back, raised as no table, and every broken file
/// refused with a reason (the gateway then logs that the watch is off).
@Suite struct AnchorFileTests {
    @Test("written atomically and read back; raised is a file with no anchor")
    func roundTrip() throws {
        let folder = temporaryFolder("anchor")
        let file = AnchorFile(stateFile: folder + "/state.toml")
        #expect(file.path == folder + "/anchor.toml")
        #expect(try file.load() == nil, "no file: no anchor")
        let set = AnchorSet(
            position: GeoPoint(latitude: 50.7712345, longitude: -1.3054321), radius: 42.5, droppedAt: 1_764_041_234,
            depth: 5.2, rode: 30)
        try file.save(set)
        #expect(try file.load() == set)
        try file.save(nil)
        #expect(try file.load() == nil)
    }

    @Test(
        "a broken file is refused, never half read",
        arguments: [
            "[anchor]\nlatitude = 50.7\n",
            "[anchor]\nlatitude = 95\nlongitude = 1\nradius = 30\n",
            "[anchor]\nlatitude = 50\nlongitude = 1\nradius = 0\n",
            "[anchor]\nlatitude = 50\nlongitude = 1\nradius = 30\nrode = -4\n",
            "[anchor\nlatitude = 50",
            "\u{0}\u{1}\u{2}garbage",
        ])
    func broken(_ text: String) throws {
        let path = temporaryFolder("anchor-broken") + "/anchor.toml"
        try POSIX.writeFileAtomically(path, text)
        #expect(throws: ConfigurationFile.Error.self) { try AnchorFile(path: path).load() }
    }

    @Test("a file too long to be one is refused without reading it all")
    func tooLong() throws {
        let path = temporaryFolder("anchor-long") + "/anchor.toml"
        try POSIX.writeFileAtomically(path, String(repeating: "# padding\n", count: 20_000))
        #expect(throws: ConfigurationFile.Error.self) { try AnchorFile(path: path).load() }
    }

    @Test("[boat], [anchor], [alarms] anchor and [chart] in the configuration")
    func configuration() throws {
        let config = try ConfigurationFile.parse(
            """
            [boat]
            bow_offset = 3.5
            bow_height = 1.2
            [anchor]
            radius = 35
            hold = 30
            margin = 8
            [alarms]
            anchor = false
            [chart]
            track_hours = 12
            charts = "charts"
            seamarks = ""
            """, base: "/etc/telltale")
        #expect(config.engine.bowOffset == 3.5 && config.engine.anchor.bowHeight == 1.2)
        #expect(
            config.engine.anchor.radius == 35 && config.engine.anchor.hold == 30 && config.engine.anchor.margin == 8)
        #expect(config.engine.alarms.anchor == false && config.engine.trackHours == 12)
        #expect(config.chart.folder == "/etc/telltale/charts" && config.chart.seamarks == nil)
        #expect(config.chart.baseLayer?.hasPrefix("https://") == true)
        for bad in [
            "[anchor]\nradius = 0", "[anchor]\ndepth = 3", "[chart]\nbase_layer = \"ftp://x/{z}\"",
            "[boat]\nbow_height = -1",
        ] {
            #expect(throws: ConfigurationFile.Error.self, "\(bad)") { try ConfigurationFile.parse(bad) }
        }
    }
}
