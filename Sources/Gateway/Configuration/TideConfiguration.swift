import Platform

/// `[tides]`: the tide and the tidal stream on board, predicted from harmonics files (docs/tides.md).
public struct TideConfiguration: Sendable, Equatable {
    /// On wherever a harmonics file is found; `enabled = false` turns it off.
    public var enabled = true
    /// Harmonics files or folders searched before the tides folder and Debian's `xtide-data`.
    public var files: [String] = []
    /// The sailor's own harmonics files; nil: `tides/` beside the state file (``folder(stateFile:)``).
    public var folder: String?
    /// The tide station the heights come from, by name; nil: the nearest within ``tideRadius``.
    public var station: String?
    /// Metres: how far the nearest tide station may be for its heights to stand for the boat's.
    public var tideRadius = 30 * 1852.0
    /// Metres: how far a current station may be for its stream to count at the boat (and in the router's current).
    public var currentRadius = 5 * 1852.0

    public init() {}

    /// The tides folder: the configured one, else beside the state file; nil with neither.
    public func folder(stateFile: String?) -> String? {
        folder ?? stateFile.map { POSIX.folder(of: $0) + "/tides" }
    }
}
