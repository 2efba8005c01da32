/// A race-timer button's presses, as on a dinghy's stopwatch: a short press, or a long hold.
///
/// Pure: edges in with their times (pressed = the line pulled low), gestures out. A press shorter than `shortest` is
/// noise; one held `longPress` is a hold, reported while still held, and its release adds nothing.
public struct ButtonGesture: Sendable {
    public enum Gesture: String, Hashable, Sendable {
        case press
        case hold
    }

    public var shortest = 0.03
    public var longPress = 2.0
    private var pressedAt: Double?
    private var holdReported = false

    public init() {}

    /// An edge at `time`: `pressed` true when the button went down.
    public mutating func edge(pressed: Bool, at time: Double) -> Gesture? {
        if pressed {
            pressedAt = time
            holdReported = false
            return nil
        }
        guard let since = pressedAt else { return nil }
        pressedAt = nil
        guard !holdReported, time - since >= shortest else { return nil }
        return .press
    }

    /// While held: the hold once it passes `longPress`.
    public mutating func check(at time: Double) -> Gesture? {
        guard let since = pressedAt, !holdReported, time - since >= longPress else { return nil }
        holdReported = true
        return .hold
    }

    /// When ``check(at:)`` should be asked next: the long press's moment while the button is down.
    public var holdDue: Double? { holdReported ? nil : pressedAt.map { $0 + longPress } }
}
