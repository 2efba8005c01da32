import Bridge
import SignalK

extension Runtime {
    /// The autopilots heard on the NMEA 2000 bus (#41), once a second: each to the Autopilot API, the default one under
    /// `steering.autopilot.*`; a pilot not heard for ten seconds is `off-line` (said in the log when it goes and comes
    /// back). Read only: no command goes to a pilot yet.
    func keepAutopilots(at now: Double) {
        guard let n2k else { return }
        let watch = n2k.bus.pilots
        let statuses = watch.listed.map { pilot in
            let online = watch.isOnline(pilot.address, at: now)
            return AutopilotStatus(
                id: "\(pilot.kind.rawValue)-\(pilot.address)", provider: "telltale-n2k",
                state: online ? pilot.state : "off-line", mode: pilot.mode, target: online ? pilot.target : nil,
                targetIsMagnetic: pilot.targetIsMagnetic, engaged: online ? pilot.engaged : nil,
                modes: pilot.kind == .raymarine ? ["compass", "gps", "wind", "route"] : ["compass", "route"])
        }
        // The default pilot's values again each second, as a pilot repeats them (a value not refreshed would be
        // withdrawn as stale).
        if let first = statuses.first, let state {
            state.feed.take(autopilot: first, at: engineTime(now), unixTime: unixTime(at: now))
        }
        guard statuses != autopilots else { return }
        for status in statuses {
            let before = autopilots.first { $0.id == status.id }
            if status.state == "off-line" && before?.state != "off-line" {
                log.warning(
                    "autopilot.offline", "autopilot: \(status.id) is not heard any more (off-line)",
                    [("pilot", status.id)])
            } else if before == nil || (before?.state == "off-line" && status.state != "off-line") {
                log.notice(
                    "autopilot.heard", "autopilot: \(status.id) heard: \(status.state ?? "state not said yet")",
                    [("pilot", status.id)])
            }
        }
        autopilots = statuses
        web?.server.setAutopilots(statuses)
    }
}
