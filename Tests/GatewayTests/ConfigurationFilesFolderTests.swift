import Platform
import TestSupport
import Testing

@testable import Gateway

/// `files`: where a configuration's relative paths are, when not beside the file. The image's trap it closes: a sailor
/// writes `polar = "polar.csv"` beside `telltale.toml` on the card, and the Pi runs a copy kept elsewhere.
@Suite struct ConfigurationFilesFolderTests {
    /// A card with the polar and route beside its telltale.toml (naming the card in `files` when `named`), and the
    /// folder its copy is run from.
    func card(_ name: String, named: Bool) throws -> (card: String, copy: String) {
        let card = temporaryFolder(name + "-card")
        let copy = temporaryFolder(name + "-copy")
        let fixtures = projectFixtures() + "/demo-voyage"
        for file in ["polar.csv", "route.gpx", "voyage.nmea"] {
            try POSIX.writeFileAtomically(card + "/" + file, try POSIX.readFile(fixtures + "/" + file))
        }
        let text =
            (named ? "files = \"\(card)\"\n" : "") + "polar = \"polar.csv\"\nroute = \"route.gpx\"\n"
            + "[[input]]\nname = \"log\"\nurl = \"file:voyage.nmea\"\n"
        try POSIX.writeFile(card + "/telltale.toml", text)
        try POSIX.writeFile(copy + "/telltale.toml", text)
        return (card, copy)
    }

    @Test("files names the folder relative paths are in: the copy run elsewhere reads the card's polar and route")
    func copyReadsTheCard() throws {
        let (card, copy) = try card("files-absolute", named: true)
        for path in [card, copy] {
            let configuration = try ConfigurationFile.load(path: path + "/telltale.toml")
            #expect(configuration.polarPath == card + "/polar.csv" && configuration.polarUnreadable == nil)
            #expect(configuration.engine.polar != nil && configuration.route == card + "/route.gpx")
            #expect(configuration.inputs.first?.endpoint == .file(path: card + "/voyage.nmea"))
        }
    }

    @Test("without files, the copy looks beside itself: the polar not there, said, as before")
    func withoutFiles() throws {
        let (card, copy) = try card("files-none", named: false)
        #expect(try ConfigurationFile.load(path: card + "/telltale.toml").polarUnreadable == nil)
        let copied = try ConfigurationFile.load(path: copy + "/telltale.toml")
        #expect(copied.polarPath == copy + "/polar.csv" && copied.polarUnreadable?.contains("polar: ") == true)
    }

    @Test("a relative files is taken from the file's folder; a trailing slash is the same folder")
    func relative() throws {
        let base = temporaryFolder("files-relative")
        let parsed = try ConfigurationFile.parse("files = \"card/\"\nroute = \"route.gpx\"\n", base: base)
        #expect(parsed.route == base + "/card/route.gpx")
    }

    @Test("files that is not a folder's path is refused with its line", arguments: ["files = 3\n", "files = \"\"\n"])
    func refused(_ text: String) {
        #expect {
            _ = try ConfigurationFile.parse("talker = \"II\"\n" + text)
        } throws: { error in
            (error as? ConfigurationFile.Error).map { $0.key == "files" && $0.line == 2 } ?? false
        }
    }
}
