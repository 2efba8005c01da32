import Engine
import NMEA
import Router
import SignalK
import Testing

/// An input whose bytes make no sentences, as Signal K tells it: a warning the panel shows above its page, then normal.
@Suite struct InputNotificationTests {
    @Test("the router's word on an input goes into the model as notifications.telltale.input.<name>, warn then normal")
    func unreadableInput() throws {
        var feed = SignalKFeed(
            model: SignalKModel(urn: "urn:mrn:signalk:uuid:4d1c6b6e-2c1b-4a4e-9b1f-3c7b9a1d2e3f"),
            updateRate: 1)
        let unreadable = InputHealth.Change.unreadable(bytes: 330, sentences: 0, reason: nil)
        feed.take(.input(source: SourceID(2), name: "ais.usb", change: unreadable, time: 12, unixTime: 1_790_000_000))
        let raised = feed.takeUpdates()
        #expect(raised.map(\.path) == ["notifications.telltale.input.ais_usb"])
        #expect(
            raised.first?.value
                == .notification(
                    state: "warn", method: ["visual"],
                    message: "input ais.usb: 330 bytes in 10 s and no sentence in them (never a line end): "
                        + "check its speed and wiring"))
        let full = try #require(JSONValue.parse(feed.model.fullModel()))
        let vessel = full["vessels"]?["urn:mrn:signalk:uuid:4d1c6b6e-2c1b-4a4e-9b1f-3c7b9a1d2e3f"]
        #expect(vessel?["notifications"]?["telltale"]?["input"]?["ais_usb"]?["value"]?["state"]?.string == "warn")
        feed.take(.input(source: SourceID(2), name: "ais.usb", change: .readable, time: 62, unixTime: 1_790_000_050))
        #expect(
            feed.takeUpdates().first?.value
                == .notification(state: "normal", method: [], message: "input ais.usb: its lines are read again"))
    }
}
