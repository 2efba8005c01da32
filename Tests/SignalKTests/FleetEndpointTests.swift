import Fleet
import Testing

@testable import SignalK

/// The server's `/telltale/v1/fleet`, as a boat and as `telltale fleet` serve it.
@Suite struct FleetEndpointTests {
    @Test("GET /telltale/v1/fleet: a fleet's boats, and a boat's own gateway saying it is none (the panel asks both)")
    func fleetOrBoat() {
        var boat = StreamTests.Harness()
        boat.server.opened(1, peer: [127, 0, 0, 1], at: 0)
        boat.send(1, "GET /telltale/v1/fleet HTTP/1.1\r\nHost: b\r\n\r\n")
        #expect(boat.text(1).hasPrefix("HTTP/1.1 200"))
        #expect(boat.text(1).hasSuffix(#"{"fleet":false}"#))
        #expect(boat.server.fleetReads == 0)

        var model = FleetModel()
        model.take(
            topic: "telltale/arrow/navigation/position",
            payload: FleetEndpointTests.bytes(FleetEndpointTests.position(50.7, -1.3, 5)), at: 10)
        var shore = StreamTests.Harness()
        shore.server.fleet = model.json(at: 12)
        shore.server.opened(1, peer: [127, 0, 0, 1], at: 0)
        shore.send(1, "GET /telltale/v1/fleet HTTP/1.1\r\nHost: b\r\n\r\n")
        #expect(shore.text(1).hasPrefix("HTTP/1.1 200"))
        #expect(shore.text(1).contains(#"{"fleet":true,"#) && shore.text(1).contains(#""id":"arrow""#))
        #expect(shore.server.fleetReads == 1)
    }

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    static func position(_ lat: Double, _ lon: Double, _ second: Int) -> String {
        "{\"value\":{\"latitude\":\(lat),\"longitude\":\(lon)},\"timestamp\":\"2026-11-25T10:00:\(second < 10 ? "0" : "")\(second).000Z\",\"$source\":\"gps.GP\"}"
    }
}
