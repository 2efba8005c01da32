/// A sentence type that Telltale can read into typed fields.
public protocol DecodableSentence: Sendable {
    static var formatter: Formatter { get }
    /// Reads the fields after the address. Empty fields become nil, never zero.
    init(fields: inout FieldReader) throws(DecodeError)
}

extension DecodableSentence {
    /// Decodes a framed sentence of this type (the talker is not checked).
    public init(_ sentence: Sentence) throws(DecodeError) {
        self = try sentence.withFieldReader { (reader: inout FieldReader) throws(DecodeError) -> Self in
            try Self(fields: &reader)
        }
    }
}
