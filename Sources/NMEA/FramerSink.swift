/// Where a framer hands what it completes, for callers that want the sentence lent rather than copied into a
/// ``FramerEvent``.
public protocol FramerSink {
    mutating func take(_ sentence: inout Sentence)
    mutating func reject(_ error: FramingError, _ excerpt: Excerpt)
}

/// A sink that only counts: what framing alone costs, measured (`telltale-bench decode --framing-only`) on the
/// framer compiled for it rather than on its unspecialised generic form, which a caller in another module gets.
public struct SentenceCounter: FramerSink {
    public private(set) var sentences = 0
    public private(set) var rejects = 0
    /// Bytes of the sentences taken, start character through checksum.
    public private(set) var sentenceBytes = 0

    public init() {}

    public mutating func take(_ sentence: inout Sentence) {
        sentences &+= 1
        sentenceBytes &+= sentence.count
    }

    public mutating func reject(_ error: FramingError, _ excerpt: Excerpt) { rejects &+= 1 }
}

extension SentenceFramer {
    /// Feeds a buffer to a ``SentenceCounter``, with the framer specialised for it.
    public mutating func feed(_ buffer: UnsafeBufferPointer<UInt8>, into counter: inout SentenceCounter) {
        frame(buffer, into: &counter)
    }

    /// Ends the stream for a ``SentenceCounter``.
    public mutating func finish(into counter: inout SentenceCounter) {
        endLine(&counter)
    }
}

/// The closure API over the sink one.
struct EventSink: FramerSink {
    let body: (FramerEvent) -> Void

    mutating func take(_ sentence: inout Sentence) { body(.sentence(sentence)) }
    mutating func reject(_ error: FramingError, _ excerpt: Excerpt) { body(.rejected(error, excerpt)) }
}
