/// The tide paths' meta: the heights and times as signalk-tides publishes them, the stream predicted at the boat
/// apart from the current measured (`environment.current`, the specification's), and the water at low water.
extension SignalKPaths {
    static let tideTable: [String: SignalKPathInfo] = {
        var t: [String: SignalKPathInfo] = [:]
        func add(_ path: String, _ units: String?, _ name: String, _ description: String) {
            t[path] = SignalKPathInfo(units: units, displayName: name, description: description, timeout: 10)
        }
        add("environment.tide.heightNow", "m", "Tide", "The tide's height above the station's datum now (predicted)")
        add(
            "environment.tide.heightHigh", "m", "High water", "The next high water's height above the datum (predicted)"
        )
        add("environment.tide.timeHigh", nil, "High water at", "When the next high water is (predicted)")
        add("environment.tide.heightLow", "m", "Low water", "The next low water's height above the datum (predicted)")
        add("environment.tide.timeLow", nil, "Low water at", "When the next low water is (predicted)")
        add(
            "environment.tide.depthAtLow", "m", "Depth at low water",
            "The water there will be under the keel (or the transducer, with no draft set) at the next low water: "
                + "the sounding now less the tide now plus the tide then")
        add(
            "environment.tide.streamSetTrue", "rad", "Stream set (predicted)",
            "The direction the tidal stream is predicted to set at the vessel, from nearby current stations")
        add(
            "environment.tide.streamDrift", "m/s", "Stream (predicted)",
            "The tidal stream's speed predicted at the vessel, from nearby current stations")
        add(
            "environment.current.setTrue", "rad", "Set (measured)",
            "The current measured: the direction of the ground track less the way through the water")
        add(
            "environment.current.drift", "m/s", "Drift (measured)",
            "The current measured: the speed of the ground track less the way through the water")
        return t
    }()
}
