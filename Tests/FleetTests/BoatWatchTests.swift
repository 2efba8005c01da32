import Fleet
import Marine
import Testing

/// The boat watch ashore, fed as the shore feeds it: a drag with a bad fix before it, a silence with and without a
/// goodbye, the boat's own alarms; each alert once, again until acknowledged, then all clear.
@Suite struct BoatWatchTests {
    static let anchor = GeoPoint(latitude: 47.5, longitude: -3.0)

    /// A point `metres` north of the anchor.
    static func north(_ metres: Double) -> GeoPoint {
        GeoPoint(latitude: anchor.latitude + metres / 111_200, longitude: anchor.longitude)
    }

    static func raised(_ actions: [BoatWatch.Action]) -> [BoatWatch.Alert] {
        actions.compactMap { if case .raise(let alert) = $0 { alert } else { nil } }
    }

    @Test(
        "one bad fix outside the circle is no drag; outside for the grace and three fixes is, said once with the distance"
    )
    func drag() {
        var watch = BoatWatch()
        _ = watch.anchor("aurora", at: Self.anchor, radius: 50, time: 0)
        #expect(watch.position("aurora", Self.north(20), at: 10).isEmpty)
        // A multipath jump: one fix 300 m off, then back.
        #expect(watch.position("aurora", Self.north(300), at: 20).isEmpty)
        #expect(watch.position("aurora", Self.north(22), at: 30).isEmpty)
        // Dragging from 100 s: a fix every 10 s, each further out.
        var said: [BoatWatch.Alert] = []
        for (n, t) in stride(from: 100.0, through: 200, by: 10).enumerated() {
            said += Self.raised(watch.position("aurora", Self.north(60 + Double(n) * 5), at: t))
        }
        #expect(said.count == 1)
        #expect(said.first?.at == 130)  // 30 s after the first fix outside, with 4 fixes
        #expect(said.first?.kind == .anchorDrag)
        #expect(said.first.map { abs(($0.distance ?? 0) - 75) < 1 } == true)
        #expect(said.first?.message == "aurora is dragging its anchor: 75 m from it, the circle 50 m")
        #expect(watch.open.count == 1)
    }

    @Test("said again every 15 minutes until acknowledged; back inside the circle, or the anchor up: all clear")
    func repeatsAndClears() {
        var watch = BoatWatch()
        _ = watch.anchor("aurora", at: Self.anchor, radius: 50, time: 0)
        for t in stride(from: 0.0, through: 70, by: 10) { _ = watch.position("aurora", Self.north(80), at: t) }
        #expect(watch.open.count == 1)
        #expect(watch.tick(at: 920).isEmpty)
        #expect(watch.tick(at: 930).count == 1)  // 900 s after it was said at 30
        watch.acknowledge("aurora", .anchorDrag)
        _ = watch.heard("aurora", at: 1850)  // still sending (not silent)
        #expect(watch.tick(at: 1900).isEmpty)
        let clear = watch.position("aurora", Self.north(10), at: 2000)
        guard case .clear(let alert)? = clear.first else {
            Issue.record("no all clear: \(clear)")
            return
        }
        #expect(alert.message == "all clear: aurora back inside the circle")
        #expect(watch.open.isEmpty)
        // Dragging again, then the anchor raised: all clear, and no more watch of the circle.
        for t in stride(from: 3000.0, through: 3070, by: 10) { _ = watch.position("aurora", Self.north(80), at: t) }
        let up = watch.anchor("aurora", at: nil, radius: nil, time: 3100)
        #expect(up.count == 1)
        #expect(watch.position("aurora", Self.north(500), at: 3200).isEmpty)
    }

    @Test("silent after the time set: a boat that said goodbye said so; heard again, all clear")
    func silence() {
        var watch = BoatWatch()
        _ = watch.heard("aurora", at: 0)
        _ = watch.heard("brise", at: 0)
        _ = watch.online("brise", false, clean: true, at: 5)
        #expect(watch.tick(at: 899).isEmpty)
        let said = Self.raised(watch.tick(at: 905))
        #expect(said.map(\.boat) == ["aurora", "brise"])
        #expect(said.first?.message == "aurora has gone silent: nothing heard for 15 min, and no goodbye")
        #expect(said.last?.message.hasPrefix("brise was switched off (its gateway said goodbye") == true)
        #expect(watch.tick(at: 906).isEmpty)
        let back = watch.heard("aurora", at: 1000)
        guard case .clear(let alert)? = back.first else {
            Issue.record("no all clear")
            return
        }
        #expect(alert.message == "all clear: aurora heard again")
        #expect(watch.open.map(\.boat) == ["brise"])
    }

    @Test("the boat's own alarms: each said as it comes, once; gone, all clear")
    func ownAlarms() {
        var watch = BoatWatch()
        let shallow = "notifications.environment.depth.belowKeel"
        let first = Self.raised(watch.alarms("aurora", [shallow: "Shallow water: 1.8 m"], at: 10))
        #expect(first.map(\.message) == ["aurora: Shallow water: 1.8 m"])
        #expect(watch.alarms("aurora", [shallow: "Shallow water: 1.7 m"], at: 11).isEmpty)
        let over = watch.alarms("aurora", [:], at: 20)
        #expect(over.count == 1)
        if case .clear(let alert)? = over.first { #expect(alert.message == "all clear: aurora over") }
    }
}
