import NMEA

/// Readies an input sentence to go out again unchanged, within the rules of the wire.
///
/// Inputs are read with a lenient length limit (B&G sends XDR lines over 82 bytes), but nothing leaves Telltale
/// over 82 bytes: such a sentence is re-encoded from its message with the codec's shortening (XDR quadruples dropped
/// from the end, identifiers shortened) when its type can be encoded, and dropped otherwise.
public enum PassThrough {
    public enum Outcome: Sendable {
        /// The sentence as it came (at most 82 bytes).
        case unchanged(Sentence)
        /// Re-encoded to fit.
        case shortened(Sentence)
        /// Too long and not of a type that can be shortened.
        case dropped
    }

    /// `message` is the sentence decoded (nil for a type Telltale does not decode): it is not decoded again here.
    public static func prepare(_ sentence: Sentence, message: Message?) -> Outcome {
        guard sentence.wireLength > FramerConfiguration.strictMaximumLength else { return .unchanged(sentence) }
        guard let talker = sentence.address.talker, let message, var shortened = try? message.encode(talker: talker)
        else { return .dropped }
        shortened.tagBlock = sentence.tagBlock
        return .shortened(shortened)
    }
}
