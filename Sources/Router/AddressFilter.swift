import NMEA

/// An output's `include` and `exclude` address patterns, compiled once.
public struct AddressFilter: Sendable {
    public let include: [AddressPattern]
    public let exclude: [AddressPattern]

    public init(include: [String], exclude: [String]) {
        self.include = include.map(AddressPattern.init)
        self.exclude = exclude.map(AddressPattern.init)
    }

    /// Whether a sentence with this address may go out: not excluded, and included when there is an include list.
    public func admits(_ address: Address) -> Bool {
        if exclude.contains(where: { $0.matches(address) }) { return false }
        return include.isEmpty || include.contains { $0.matches(address) }
    }
}
