import Testing

@testable import Bridge

/// pypilot's protocol (#41): what Telltale reads of `name=value` lines, what it sends for each order, and lines it
/// cannot read passed over.
@Suite struct PypilotLinkTests {
    @Test("its values read: engaged, the mode in the API's words, the heading command as a heading or a wind angle")
    func reads() {
        var link = PypilotLink()
        let changed = [
            link.received("ap.enabled=false", at: 1), link.received("ap.mode=\"nav\"", at: 1),
            link.received("ap.heading_command=350.5", at: 1),
        ]
        #expect(changed == [true, true, true])
        #expect(link.state == "standby" && link.apiMode == "route")
        #expect(abs((link.target ?? 0) - 350.5 * Double.pi / 180) < 1e-12)
        let again = link.received("ap.enabled=false", at: 2)
        #expect(!again, "said again: no change")
        #expect(link.lastHeard == 2)
        _ = link.received("ap.mode=\"true wind\"", at: 3)
        _ = link.received("ap.heading_command=-40.0", at: 3)
        #expect(link.apiMode == "wind" && abs((link.target ?? 0) + 40 * Double.pi / 180) < 1e-12)
        _ = link.received("ap.heading=123.4", at: 4)
        #expect(link.lastHeard == 4, "any value keeps it heard")
    }

    @Test("what cannot be true or read is passed over and counted")
    func hostile() {
        var link = PypilotLink()
        _ = link.received("ap.enabled=true", at: 0)
        _ = link.received("ap.heading_command=100", at: 0)
        for line in [
            "ap.heading_command=1e999", "ap.heading_command=nan", "ap.heading_command=720", "ap.enabled=maybe",
            "ap.mode=compass", "no equals sign", "ap.mode=\"" + String(repeating: "y", count: 100) + "\"",
        ] {
            _ = link.received(line, at: 1)
        }
        #expect(link.unreadable == 7)
        #expect(link.enabled == true && link.headingCommand == 100 && link.mode == nil)
    }

    @Test("orders as pypilot's lines: modes, engaged, the heading command in tenths; what it cannot take refused")
    func orders() {
        var link = PypilotLink()
        _ = link.received("ap.mode=\"compass\"", at: 0)
        _ = link.received("ap.heading_command=355.0", at: 0)
        #expect((try? link.lines(.engage(mode: "route")).get()) == ["ap.mode=\"nav\"\n", "ap.enabled=true\n"])
        #expect((try? link.lines(.standby).get()) == ["ap.enabled=false\n"])
        #expect((try? link.lines(.turn(10 * Double.pi / 180)).get()) == ["ap.heading_command=5.0\n"], "across north")
        #expect((try? link.lines(.heading(-Double.pi / 2)).get()) == ["ap.heading_command=270.0\n"])
        if case .failure = link.lines(.windAngle(0.5)) {} else { Issue.record("a wind angle on the compass") }
        if case .failure = link.lines(.engage(mode: "banana")) {} else { Issue.record() }
        _ = link.received("ap.mode=\"wind\"", at: 1)
        _ = link.received("ap.heading_command=-40.0", at: 1)
        #expect((try? link.lines(.turn(-5 * Double.pi / 180)).get()) == ["ap.heading_command=-45.0\n"])
        link.reset()
        if case .failure = link.lines(.turn(0.1)) {} else { Issue.record("a turn with the command unknown") }
    }
}
