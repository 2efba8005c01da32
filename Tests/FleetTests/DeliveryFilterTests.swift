import Marine
import Testing

@testable import Fleet

/// One dragging anchor, one message: the boat's own anchor alarm and the shore's watch of the circle deliver once
/// between them, their repeats and all clear with the one that went; other alerts pass untouched.
@Suite struct DeliveryFilterTests {
    static func alert(_ boat: String, _ kind: BoatWatch.Kind) -> BoatWatch.Alert {
        BoatWatch.Alert(boat: boat, kind: kind, message: "m", position: nil, distance: nil, at: 0)
    }

    static let own = alert("cargo", .alarm("notifications.navigation.anchor"))
    static let shore = alert("cargo", .anchorDrag)

    /// What passes of each action, in order.
    static func run(_ actions: [BoatWatch.Action]) -> [Bool] {
        var filter = DeliveryFilter()
        return actions.map { filter.pass($0) }
    }

    @Test("the boat's alarm first: sent; the shore's drag, its repeats and its all clear not; the alarm's clear sent")
    func boatFirst() {
        let passed = Self.run([
            .raise(Self.own), .raise(Self.shore), .again(Self.shore), .again(Self.own), .clear(Self.shore),
            .clear(Self.own),
        ])
        #expect(passed == [true, false, false, true, false, true])
    }

    @Test("the one sent clears while the other stands: no all clear yet; the other's repeats and all clear go out")
    func handOver() {
        let passed = Self.run([
            .raise(Self.shore), .raise(Self.own), .clear(Self.shore), .again(Self.own), .clear(Self.own),
            .raise(Self.shore),
        ])
        #expect(passed == [true, false, false, true, true, true])
    }

    @Test("another boat, a silence, a shallow alarm: each its own; a clear of what was never raised goes nowhere")
    func others() {
        let passed = Self.run([
            .raise(Self.own), .raise(Self.alert("brise", .anchorDrag)), .raise(Self.alert("cargo", .silent)),
            .raise(Self.alert("cargo", .alarm("notifications.depth"))), .clear(Self.alert("cargo", .silent)),
            .clear(Self.alert("zed", .silent)),
        ])
        #expect(passed == [true, true, true, true, true, false])
    }
}
