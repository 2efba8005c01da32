/// One kind of sentence, as a rate limit or a schedule counts it: the address, and the field that makes two
/// sentences of one address different things. `$IIMWV,..,R,..` (apparent) and `$IIMWV,..,T,..` (true) share an
/// address but are two readings; limiting one must not starve the other.
///
/// | Formatter | Distinguished by |
/// |---|---|
/// | MWV | the reference, `R` or `T` (field 2) |
/// | XDR | the first transducer name (field 4): `ROLL` and `GWDIR` are different instruments |
/// | ALR | the alarm number (field 2) |
/// | TXT | the text identifier (field 3) |
/// | GSV | the sentence number (field 2): each part of a satellite cycle |
public struct SentenceKind: Hashable, Sendable, CustomStringConvertible {
    public let address: Address
    /// The distinguishing field's text; nil for formatters that have one kind only.
    public let discriminator: String?

    public init(address: Address, discriminator: String?) {
        self.address = address
        self.discriminator = discriminator
    }

    public var description: String { address.description + (discriminator.map { "/" + $0 } ?? "") }
}

extension Sentence {
    /// The kind this sentence is of (see ``SentenceKind``).
    public var kind: SentenceKind {
        let field: Int? =
            switch address.formatter {
            case "MWV": 1
            case "XDR": 3
            case "ALR": 1
            case "TXT": 2
            case "GSV": 1
            default: nil
            }
        return SentenceKind(address: address, discriminator: field.flatMap { self.field($0) })
    }
}
