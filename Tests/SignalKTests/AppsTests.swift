import Engine
import Marine
import NMEA
import TestSupport
import Testing

@testable import SignalK

/// What the crew's apps send, as the reference server takes it (#27): alarm method and state, the Course API, CORS,
/// request queries, another vessel's context, the hello's version.
@Suite struct AppsTests {
    typealias Harness = StreamTests.Harness
    static let upgrade =
        "GET /signalk/v1/stream?subscribe=none HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"

    static func request(_ method: String, _ path: String, _ body: String = "") -> String {
        "\(method) \(path) HTTP/1.1\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body
    }

    /// A masked client text frame.
    static func frame(_ text: String) -> [UInt8] {
        let payload = Array(text.utf8)
        let mask: [UInt8] = [9, 8, 7, 6]
        var frame: [UInt8] = [0x81]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else {
            frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        }
        return frame + mask + payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    }

    @Test("KIP's alarm PUTs: method without sound silences, state normal clears, as signalk-server's put.ts")
    func alarmMethodAndState() {
        var h = Harness()
        h.server.opened(1, peer: [127, 0, 0, 1], at: 0)
        h.send(
            1,
            Self.request("PUT", "/signalk/v1/api/vessels/self/notifications/heel/over/method", #"{"value":["visual"]}"#)
        )
        #expect(h.commands == [.silence(.overHeel)] && h.text(1).hasPrefix("HTTP/1.1 200"))
        h.send(
            1, Self.request("PUT", "/signalk/v1/api/vessels/self/notifications/heel/over/state", #"{"value":"normal"}"#)
        )
        #expect(h.commands.last == .clear(.overHeel))
        h.sent[1] = []
        h.send(
            1, Self.request("PUT", "/signalk/v1/api/vessels/self/notifications/heel/over/state", #"{"value":"alarm"}"#))
        #expect(h.text(1).hasPrefix("HTTP/1.1 400") && h.commands.count == 2)
        h.sent[1] = []
        h.send(
            1,
            Self.request(
                "PUT", "/signalk/v1/api/vessels/self/notifications/heel/over/method", #"{"value":["visual","sound"]}"#))
        #expect(h.text(1).hasPrefix("HTTP/1.1 409") && h.commands.count == 2)
        h.sent[1] = []
        h.send(
            1,
            Self.request("PUT", "/signalk/v1/api/vessels/self/notifications/nothing/here/state", #"{"value":"normal"}"#)
        )
        #expect(h.text(1).hasPrefix("HTTP/1.1 404"))
        // The same over the stream, with KIP's requestId.
        h.server.opened(2, peer: [127, 0, 0, 1], at: 0)
        h.send(2, Self.upgrade)
        h.send(2, Self.frame(#"{"requestId":"k1","put":{"path":"notifications.heel.over.method","value":[]}}"#))
        #expect(h.commands.last == .silence(.overHeel))
    }

    @Test("Course API: GET before and after, every PUT and DELETE as the engine's commands, features, bad bodies 400")
    func courseAPI() throws {
        var h = Harness()
        h.server.opened(1, peer: [127, 0, 0, 1], at: 0)
        h.send(1, Self.request("GET", "/signalk/v2/features"))
        #expect(h.text(1).contains(#"{"apis":["course","history","resources","weather"],"plugins":[]}"#))
        h.sent[1] = []
        h.send(1, Self.request("GET", "/signalk/v2/api/vessels/self/navigation/course"))
        #expect(h.text(1).hasSuffix(#""arrivalCircle":0,"activeRoute":null,"nextPoint":null,"previousPoint":null}"#))
        // The engine's leg, in the model as the engine publishes it.
        var values = InstrumentValues()
        var leg = NavigationLeg(
            origin: Waypoint(id: "A", position: GeoPoint(latitude: 50, longitude: -1)),
            destination: Waypoint(id: "B", position: GeoPoint(latitude: 50.1, longitude: -1)))
        leg.routeName = "Round the Island"
        leg.destinationIndex = 1
        leg.waypointCount = 4
        leg.arrivalRadius = 92.6
        values.navigationLeg = leg
        h.model.update(values, alarms: [], at: 1, unixTime: 0)
        h.sent[1] = []
        h.send(1, Self.request("GET", "/signalk/v2/api/vessels/self/navigation/course"))
        let body = h.text(1)
        #expect(body.contains(#""arrivalCircle":92.6"#))
        #expect(
            body.contains(
                #""activeRoute":{"href":"/resources/routes/7e11a1e0-2c5b-4d0a-9f3e-5a1b0c7d2e94","name":"Round the Island","pointIndex":1,"pointTotal":4,"reverse":false}"#
            ))
        #expect(body.contains(#""nextPoint":{"type":"RoutePoint","position":{"latitude":50.1,"longitude":-1}}"#))
        h.send(
            1,
            Self.request(
                "PUT", "/signalk/v2/api/vessels/self/navigation/course/destination",
                #"{"position":{"latitude":50.5,"longitude":-1.25}}"#))
        #expect(h.commands.last == .destination(GeoPoint(latitude: 50.5, longitude: -1.25)))
        h.send(1, Self.request("DELETE", "/signalk/v2/api/vessels/self/navigation/course"))
        #expect(h.commands.last == .route(.stop))
        h.send(
            1,
            Self.request("PUT", "/signalk/v2/api/vessels/self/navigation/course/activeRoute/nextPoint", #"{"value":1}"#)
        )
        #expect(h.commands.last == .route(.advance))
        h.sent[1] = []
        h.send(
            1,
            Self.request(
                "PUT", "/signalk/v2/api/vessels/self/navigation/course/destination",
                #"{"position":{"latitude":91,"longitude":0}}"#))
        #expect(h.text(1).hasPrefix("HTTP/1.1 400") && h.commands.count == 3)
        // The rest of signalk-server's course routes, as the engine's commands.
        let course = "/signalk/v2/api/vessels/self/navigation/course/"
        for (action, body, command) in [
            ("restart", "", EngineCommand.route(.rejoin)), ("arrivalCircle", #"{"value":150}"#, .arrivalCircle(150)),
            ("activeRoute/pointIndex", #"{"value":2}"#, .routePoint(2)), ("activeRoute/reverse", "", .route(.reverse)),
            ("activeRoute/nextPoint", #"{"value":-1}"#, .route(.back)),
        ] {
            h.send(1, Self.request("PUT", course + action, body))
            #expect(h.commands.last == command, "\(action)")
        }
        #expect(h.commands.count == 8)
        for (action, body) in [
            ("arrivalCircle", #"{"value":-5}"#), ("activeRoute/pointIndex", #"{"value":1.5}"#),
            ("activeRoute/nextPoint", #"{"value":3}"#),
        ] {
            h.sent[1] = []
            h.send(1, Self.request("PUT", course + action, body))
            #expect(h.text(1).hasPrefix("HTTP/1.1 400") && h.commands.count == 8, "\(action) \(body)")
        }
        h.sent[1] = []
        h.send(1, Self.request("GET", course + "arrivalCircle/meta"))
        #expect(h.text(1).contains(#"{"arrivalCircle":{"description":"#) && h.text(1).contains(#""units":"m"}}"#))
        h.sent[1] = []
        h.send(1, Self.request("PUT", course + "targetArrivalTime", #"{"value":"2026-11-25T12:00:00Z"}"#))
        #expect(h.text(1).hasPrefix("HTTP/1.1 501"))
        // From a network that may not change things: refused, nothing asked of the engine.
        h.server.opened(2, peer: [192, 168, 1, 20], at: 0)
        h.send(2, Self.request("DELETE", "/signalk/v2/api/vessels/self/navigation/course"))
        #expect(h.text(2).hasPrefix("HTTP/1.1 401") && h.commands.count == 8)
        h.sent[2] = []
        h.send(2, Self.request("PUT", course + "restart"))
        #expect(h.text(2).hasPrefix("HTTP/1.1 401") && h.commands.count == 8)
    }

    @Test("CORS preflight, hello version, query for a request, a PUT to another vessel refused")
    func smaller() {
        var h = Harness { $0.serverVersion = "9.8.7" }
        h.server.opened(1, peer: [127, 0, 0, 1], at: 0)
        h.send(
            1,
            "OPTIONS /signalk/v1/api/vessels/self/notifications/heel/over HTTP/1.1\r\nOrigin: http://kip.local\r\n"
                + "Access-Control-Request-Method: PUT\r\nAccess-Control-Request-Headers: content-type, authorization\r\n\r\n"
        )
        #expect(
            h.text(1).hasPrefix("HTTP/1.1 204") && h.text(1).contains("Access-Control-Allow-Methods: GET, HEAD, PUT"))
        #expect(h.text(1).contains("Access-Control-Allow-Headers: content-type, authorization"))
        h.server.opened(2, peer: [127, 0, 0, 1], at: 0)
        h.send(2, Self.upgrade)
        #expect(h.text(2).contains(#""version":"9.8.7""#))
        h.send(2, Self.frame(#"{"requestId":"r1","put":{"path":"telltale.route.command","value":"advance"}}"#))
        #expect(h.commands == [.route(.advance)])
        h.sent[2] = []
        h.send(2, Self.frame(#"{"requestId":"r1","query":true}"#))
        #expect(h.text(2).contains(#""requestId":"r1","state":"COMPLETED","statusCode":200"#))
        h.sent[2] = []
        h.send(2, Self.frame(#"{"requestId":"r2","query":true}"#))
        #expect(h.text(2).contains(#"{"requestId":"r2","statusCode":404}"#))
        h.sent[2] = []
        h.send(
            2,
            Self.frame(
                #"{"context":"vessels.urn:mrn:imo:mmsi:230000000","requestId":"r3","put":{"path":"telltale.route.command","value":"stop"}}"#
            ))
        #expect(h.text(2).contains(#""statusCode":405"#) && h.commands.count == 1)
        h.server.opened(3, peer: [127, 0, 0, 1], at: 0)
        h.send(
            3,
            Self.request(
                "PUT", "/signalk/v1/api/vessels/urn:mrn:imo:mmsi:230000000/telltale/route/command", #"{"value":"stop"}"#
            ))
        #expect(h.text(3).hasPrefix("HTTP/1.1 404") && h.commands.count == 1)
    }

    @Test("one value a path: the engine's by default, a configured priority, every source with sourcePolicy=all")
    func oneValuePerPath() throws {
        var h = Harness()
        let mwv = try Sentence(parsing: checksummed("WIMWV,40.0,R,12.0,N,A"))
        h.model.observe(mwv, input: "instruments", at: 1, unixTime: 0)
        var values = InstrumentValues()
        values.apparentWind = RelativeWind(angle: 41, speed: 6.2)
        h.model.update(values, alarms: [], at: 1, unixTime: 0)
        #expect(h.model.preferredSource("environment.wind.angleApparent") == "telltale.computed")
        let leaf = try #require(h.model.branch(["vessels", "self", "environment", "wind", "angleApparent"]))
        #expect(leaf.hasPrefix(#"{"value":0.715585,"$source":"telltale.computed""#), "the engine's value first")
        #expect(leaf.contains(#""values":{"instruments.WI""#), "the other kept under values")
        for (id, query) in [(1, "subscribe=self"), (2, "subscribe=self&sourcePolicy=all")] {
            h.server.opened(id, peer: [127, 0, 0, 1], at: 0)
            h.send(
                id,
                "GET /signalk/v1/stream?\(query) HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        }
        h.drive(at: 1.1) { server, model, act in server.tick(model: model, at: 1.1, act) }
        h.sent = [:]
        h.model.observe(mwv, input: "instruments", at: 1.2, unixTime: 0)
        h.model.update(values, alarms: [], at: 1.2, unixTime: 0)
        let updates = h.model.takeUpdates()
        h.drive(at: 1.2) { server, model, act in server.publish(updates, model: model, at: 1.2, act) }
        #expect(h.text(1).contains("telltale.computed") && !h.text(1).contains("instruments.WI"))
        #expect(h.text(2).contains("telltale.computed") && h.text(2).contains("instruments.WI"))
        // A configured priority: the instrument's own value first.
        h.model.sourcePriority["environment.wind.angleApparent"] = ["instruments.WI", "telltale.computed"]
        #expect(h.model.preferredSource("environment.wind.angleApparent") == "instruments.WI")
        #expect(h.model.preferredSource("environment.wind.speedApparent") == "telltale.computed")
        // True heading: the compass's own, at its rate, before the engine's copy at the update rate.
        h.model.observe(
            try Sentence(parsing: checksummed("HCHDG,90.0,0.0,E,2.0,W")), input: "compass", at: 1.3, unixTime: 0)
        values.headingTrue = 88
        h.model.update(values, alarms: [], at: 1.3, unixTime: 0)
        #expect(h.model.preferredSource("navigation.headingTrue") == "compass.HC")
    }

    @Test("meta only with sendMeta=all; no cached values with sendCachedValues=false")
    func streamOptions() {
        var h = Harness()
        var values = InstrumentValues()
        values.headingTrue = 90
        h.model.update(values, alarms: [], at: 1, unixTime: 0)
        _ = h.model.takeUpdates()
        for (id, query) in [
            (1, "subscribe=self"), (2, "subscribe=self&sendMeta=all"), (3, "subscribe=self&sendCachedValues=false"),
        ] {
            h.server.opened(id, peer: [127, 0, 0, 1], at: 0)
            h.send(
                id,
                "GET /signalk/v1/stream?\(query) HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        }
        h.drive(at: 1.1) { server, model, act in server.tick(model: model, at: 1.1, act) }
        #expect(h.text(1).contains("navigation.headingTrue") && !h.text(1).contains("\"meta\""))
        #expect(h.text(2).contains("navigation.headingTrue") && h.text(2).contains("\"meta\""))
        #expect(!h.text(3).contains("navigation.headingTrue"))
    }
}
