import Marine
import NMEA

/// One alarm as Signal K and the panel see it.
public struct AlarmStatus: Hashable, Sendable {
    /// Below `notifications.` (`heel.over`).
    public var path: String
    /// The ALR alarm number.
    public var number: Int
    public var isActive: Bool
    public var isAcknowledged: Bool
    public var message: String

    public init(path: String, number: Int, isActive: Bool, isAcknowledged: Bool, message: String) {
        self.path = path
        self.number = number
        self.isActive = isActive
        self.isAcknowledged = isAcknowledged
        self.message = message
    }
}
