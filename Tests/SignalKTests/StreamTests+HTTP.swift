import Engine
import NMEA
import TestSupport
import Testing

@testable import SignalK

/// The server's HTTP side: discovery, the model, files, PUT, the settings, a refusal and what waits behind it.
extension StreamTests {

    @Test("HTTP: discovery, model, 404, static files, keep-alive and close")
    func httpRoutes() {
        var h = Harness()
        h.server.opened(1, peer: [127, 0, 0, 1], at: 0)
        h.send(
            1,
            "GET /signalk HTTP/1.1\r\nHost: boat.local:3000\r\n\r\nGET /signalk/v1/api/vessels/self/nothing HTTP/1.1\r\n\r\n"
        )
        #expect(h.text(1).hasPrefix("HTTP/1.1 200 OK"))
        #expect(h.text(1).contains("ws://boat.local:3000/signalk/v1/stream"))
        #expect(h.text(1).contains("HTTP/1.1 404 Not Found"))
        #expect(!h.closed.contains(1), "keep-alive")
        h.server.opened(2, peer: [127, 0, 0, 1], at: 0)
        h.send(2, "GET / HTTP/1.1\r\nConnection: close\r\n\r\n")
        #expect(h.text(2).hasPrefix("HTTP/1.1 200 OK") && h.text(2).hasSuffix("<p>panel</p>"))
        #expect(h.closed.contains(2))
        h.server.opened(3, peer: [127, 0, 0, 1], at: 0)
        h.send(3, "DELETE /signalk HTTP/1.1\r\n\r\n")
        #expect(h.text(3).hasPrefix("HTTP/1.1 405"))
    }

    @Test("PUT: applied from an allowed network, refused (401, no token) from another, checked before anything is done")
    func put() {
        var h = Harness(put: NetworkRule.loopback)
        let request = Self.put("telltale/route/command", "advance")
        h.server.opened(1, peer: [127, 0, 0, 1], at: 0)
        h.send(1, request)
        #expect(h.text(1).hasPrefix("HTTP/1.1 200") && h.commands == [.route(.advance)])
        h.server.opened(2, peer: [192, 168, 1, 20], at: 0)
        h.send(2, request)
        #expect(h.text(2).hasPrefix("HTTP/1.1 401") && h.commands.count == 1)
        h.server.opened(3, peer: [127, 0, 0, 1], at: 0)
        h.send(3, Self.put("notifications/heel/over", "acknowledge"))
        #expect(h.commands.last == .acknowledge(.overHeel))
        h.server.opened(4, peer: [127, 0, 0, 1], at: 0)
        h.send(4, Self.put("telltale/race/command", "sync"))
        #expect(h.commands.last == .race(.sync))
        h.server.opened(5, peer: [127, 0, 0, 1], at: 0)
        h.send(5, Self.put("telltale/race/command", "fly"))
        #expect(h.text(5).hasPrefix("HTTP/1.1 400") && h.commands.count == 3)
        #expect(h.text(5).contains("race commands: start|pause|reset|sync|port|starboard"))
    }

    @Test("settings: read, checked and saved through the shell, only from the networks that may change things")
    func settingsRoutes() throws {
        var h = Harness(put: NetworkRule.loopback)
        h.server.opened(1, peer: [127, 0, 0, 1], at: 0)
        let text = "talker = \"II\"\n"
        h.send(
            1,
            "GET /telltale/v1/settings HTTP/1.1\r\n\r\n"
                + "PUT /telltale/v1/settings/check HTTP/1.1\r\nContent-Length: \(text.utf8.count)\r\n\r\n\(text)"
                + "PUT /telltale/v1/settings/configuration HTTP/1.1\r\nContent-Length: \(text.utf8.count)\r\n\r\n\(text)"
                + "GET /signalk HTTP/1.1\r\nHost: b\r\n\r\n")
        #expect(h.settings == [.read, .check(text), .save(text)])
        let answers = h.text(1)
        let first = try #require(answers.firstRange(of: #"{"answered":1}"#))
        let third = try #require(answers.firstRange(of: #"{"answered":3}"#))
        let discovery = try #require(answers.firstRange(of: "\"endpoints\""))
        #expect(first.lowerBound < third.lowerBound && third.lowerBound < discovery.lowerBound, "answers in order")
        // From a network that may not change things: refused, the shell never asked.
        h.server.opened(2, peer: [192, 168, 1, 20], at: 0)
        h.send(2, "GET /telltale/v1/settings HTTP/1.1\r\n\r\n")
        #expect(h.text(2).hasPrefix("HTTP/1.1 401") && h.settings.count == 3)
        h.server.opened(3, peer: [127, 0, 0, 1], at: 0)
        h.send(3, "GET /telltale/v1/settings/configuration HTTP/1.1\r\n\r\n")
        #expect(h.text(3).hasPrefix("HTTP/1.1 405"))
        h.server.opened(4, peer: [127, 0, 0, 1], at: 0)
        h.send(
            4,
            Array("PUT /telltale/v1/settings/configuration HTTP/1.1\r\nContent-Length: 3\r\n\r\n".utf8) + [
                0xFF, 0xFE, 0,
            ])
        #expect(h.text(4).hasPrefix("HTTP/1.1 400") && h.settings.count == 3)
    }

    @Test("a refused command is answered 409 with the engine's reason, and a request pipelined after it waits its turn")
    func refusedCommand() throws {
        var h = Harness()
        h.outcome = .refused("no route: set route in the configuration, or follow one from a plotter")
        h.server.opened(1, peer: [127, 0, 0, 1], at: 0)
        h.send(1, Self.put("telltale/route/command", "advance") + "GET /signalk HTTP/1.1\r\nHost: boat.local\r\n\r\n")
        let text = h.text(1)
        let refusal = try #require(text.firstRange(of: "HTTP/1.1 409"))
        let discovery = try #require(text.firstRange(of: "HTTP/1.1 200"))
        #expect(refusal.lowerBound < discovery.lowerBound, "answers keep the order of the requests")
        #expect(text.contains("no route: set route in the configuration"))
        #expect(h.commands == [.route(.advance)])
        h.server.opened(2, peer: [127, 0, 0, 1], at: 0)
        h.send(2, Self.put("notifications/sea/serpent", "acknowledge"))
        #expect(h.text(2).hasPrefix("HTTP/1.1 404") && h.text(2).contains("no such alarm: sea.serpent"))
    }
}
