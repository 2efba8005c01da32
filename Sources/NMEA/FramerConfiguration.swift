/// How strictly a ``SentenceFramer`` reads its input.
public struct FramerConfiguration: Hashable, Sendable {
    /// The NMEA 0183 limit: 82 bytes with `$` and CR LF.
    public static let strictMaximumLength = 82
    /// The default when reading: twice the standard limit, because real B&G firmware sends longer XDR lines and
    /// some converters pad fields. Telltale never emits more than ``strictMaximumLength``.
    public static let lenientMaximumLength = 164
    /// The largest maximum that can be configured (the inline storage of a ``Sentence`` with CR LF).
    public static let largestMaximumLength = Sentence.capacity + 2

    /// The most bytes a sentence may have, counted with `$` and CR LF; clamped to ``largestMaximumLength``.
    public var maximumLength: Int {
        didSet { maximumLength = FramerConfiguration.clamp(maximumLength) }
    }
    /// Reject sentences without a `*hh` checksum (the default); false accepts them for old devices.
    public var requiresChecksum: Bool
    /// Count lines starting with `#` as comments instead of rejects (log files carry headers this way).
    public var skipsCommentLines: Bool

    public init(
        maximumLength: Int = FramerConfiguration.lenientMaximumLength,
        requiresChecksum: Bool = true,
        skipsCommentLines: Bool = false
    ) {
        self.maximumLength = FramerConfiguration.clamp(maximumLength)
        self.requiresChecksum = requiresChecksum
        self.skipsCommentLines = skipsCommentLines
    }

    /// Strict NMEA 0183: at most 82 bytes, checksum required.
    public static let strict = FramerConfiguration(maximumLength: strictMaximumLength)

    private static func clamp(_ length: Int) -> Int { min(max(length, 8), largestMaximumLength) }
}

/// What a ``SentenceFramer`` has seen so far.
public struct FramerStatistics: Hashable, Sendable {
    /// Sentences passed on.
    public var sentences = 0
    /// Lines rejected, by reason.
    public var rejects = RejectCounts()
    /// Comment lines skipped (only with ``FramerConfiguration/skipsCommentLines``).
    public var comments = 0
    /// Bytes fed in.
    public var bytes = 0

    public init() {}
}

/// One result of framing.
public enum FramerEvent: Sendable {
    /// A sentence whose checksum, address and bytes are good.
    case sentence(Sentence)
    /// A line that is not passed on, with why and its first bytes.
    case rejected(FramingError, Excerpt)
}
