import Router

/// An input whose lines cannot be read, as a notification (`notifications.telltale.input.<name>`, state `warn`, shown
/// above the panel's page), and `normal` again once it reads well.
extension SignalKModel {
    public mutating func input(_ name: String, _ change: InputHealth.Change, at time: Double, unixTime: Double) {
        let path = "notifications.telltale.input." + Self.sourceName(name)
        let value: SignalKValue
        switch change {
        case .unreadable(let bytes, let sentences, let reason):
            value = .notification(
                state: "warn", method: ["visual"],
                message: "input \(name): " + InputHealth.words(bytes: bytes, sentences: sentences, reason: reason)
                    + ": check its speed and wiring")
        case .readable:
            value = .notification(state: "normal", method: [], message: "input \(name): its lines are read again")
        }
        set(path, value, source: Self.computedSource, time: time, timestamp: SignalKTime.text(unixTime: unixTime))
    }
}
