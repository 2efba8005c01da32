import ArgumentParser
import Fleet
import Marine
import Platform
import SignalK

extension Bench {
    /// `telltale-bench watch`: the shore's boat watch at a fleet's scale, as `ShoreWatch` drives it: each second
    /// every boat's position as the uplink publishes it (JSON, parsed), into `BoatWatch`, then its tick, and every
    /// alert through the delivery filter. Every boat at anchor; one in a hundred drags.
    struct Watch: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "watch",
            abstract: "Time the boat watch: every boat's position at 1 Hz judged against its anchor's circle.")

        @Option(help: "Boats watched.")
        var boats = 2000

        @Option(help: "Seconds of positions.")
        var seconds = 300

        func run() throws {
            let before = POSIX.residentKilobytes() ?? 0
            let base = GeoPoint(latitude: 47.5, longitude: -3.0)
            var watch = BoatWatch(settings: BoatWatch.Settings())
            var filter = DeliveryFilter()
            let names = (0..<boats).map { "boat\($0)" }
            let anchors = (0..<boats).map { index in
                Geodesic.wgs84.direct(from: base, azimuth: Double(index % 360), distance: Double(index) * 7).point
            }
            for (index, name) in names.enumerated() {
                _ = watch.anchor(name, at: anchors[index], radius: 40, time: 0)
            }
            var raised = 0
            var delivered = 0
            let started = monotonicSeconds()
            for second in 1...seconds {
                let time = Double(second)
                for (index, name) in names.enumerated() {
                    // A boat swinging 20 m about its anchor; one in a hundred dragging 1 m a second from second 60.
                    let drag = index % 100 == 0 && second > 60 ? Double(second - 60) : 0
                    let point = Geodesic.wgs84.direct(
                        from: anchors[index], azimuth: Double((second * 7 + index) % 360), distance: 20 + drag
                    ).point
                    let payload = Array(
                        #"{"value":{"latitude":\#(point.latitude),"longitude":\#(point.longitude)},"timestamp":"x"}"#
                            .utf8)
                    guard let json = JSONValue.parse(payload, maximumDepth: 6, maximumLength: 64 << 10),
                        let latitude = json["value"]?["latitude"]?.number,
                        let longitude = json["value"]?["longitude"]?.number
                    else { continue }
                    let actions = watch.position(name, GeoPoint(latitude: latitude, longitude: longitude), at: time)
                    for action in actions {
                        raised += 1
                        if filter.pass(action) { delivered += 1 }
                    }
                }
                for action in watch.tick(at: time) where filter.pass(action) { delivered += 1 }
            }
            let took = monotonicSeconds() - started
            let grown = (POSIX.residentKilobytes() ?? 0) - before
            print(
                "watch: \(boats) boats, \(seconds) s of positions at 1 Hz in \(FixedDecimal.text(took, decimals: 2)) s: "
                    + "\(FixedDecimal.text(took / Double(seconds) * 100, decimals: 2)) % of a core "
                    + "(\(FixedDecimal.text(took / Double(seconds * boats) * 1e6, decimals: 2)) µs a position, "
                    + "the JSON parsed); \(raised) alerts, \(delivered) delivered; resident memory grew \(grown) KiB")
        }
    }
}
