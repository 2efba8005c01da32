/// Puts AIS messages of several fragments back together (`!AIVDM,2,1,3,A,...` then `!AIVDM,2,2,3,A,...`).
///
/// The fragments of one message come one after another from one source, with the same sequential id and channel.
/// A fragment out of order, one whose message was never begun, or a message not finished within ``timeout`` is
/// dropped and counted; at most ``maximumPartial`` messages wait at once, so a source that sends only first
/// fragments holds a bounded amount. Pure: times come in as arguments.
public struct AISAssembler: Sendable {
    public struct Statistics: Hashable, Sendable {
        /// Whole messages handed on (single-fragment ones included).
        public var messages = 0
        /// Fragments that fitted no message being put together (out of order, or its start missed).
        public var strayFragments = 0
        /// Messages begun and never finished (a fragment lost, or too late).
        public var incomplete = 0
    }

    private struct Partial: Sendable {
        var source: Int
        var sequence: Int
        var channel: UInt8
        var count: Int
        var next: Int
        var sixBits: [UInt8]
        var started: Double
    }

    /// Seconds from a message's first fragment to its last.
    public static let timeout = 5.0
    public static let maximumPartial = 8

    public private(set) var statistics = Statistics()
    private var partials: [Partial] = []

    public init() {}

    /// Takes a fragment from `source` (any number that tells the inputs apart); the message's bits when it completes
    /// one.
    public mutating func add(_ fragment: VDM, source: Int, at time: Double) -> AISBits? {
        partials.removeAll {
            let stale = time - $0.started > Self.timeout || time < $0.started
            if stale { statistics.incomplete += 1 }
            return stale
        }
        if fragment.fragmentCount == 1 {
            statistics.messages += 1
            return AISBits(sixBits: fragment.payload, fillBits: fragment.fillBits)
        }
        let sequence = fragment.sequenceID ?? -1
        let channel = fragment.channel ?? 0
        let index = partials.firstIndex {
            $0.source == source && $0.sequence == sequence && $0.channel == channel
                && $0.count == fragment.fragmentCount
        }
        if fragment.fragmentNumber == 1 {
            if let index {
                partials.remove(at: index)
                statistics.incomplete += 1
            }
            if partials.count >= Self.maximumPartial {
                partials.removeFirst()
                statistics.incomplete += 1
            }
            partials.append(
                Partial(
                    source: source, sequence: sequence, channel: channel, count: fragment.fragmentCount, next: 2,
                    sixBits: fragment.payload, started: time))
            return nil
        }
        guard let index, partials[index].next == fragment.fragmentNumber else {
            statistics.strayFragments += 1
            return nil
        }
        partials[index].sixBits += fragment.payload
        guard fragment.fragmentNumber == fragment.fragmentCount else {
            partials[index].next += 1
            return nil
        }
        let whole = partials.remove(at: index)
        statistics.messages += 1
        return AISBits(sixBits: whole.sixBits, fillBits: fragment.fillBits)
    }
}
