import Marine

extension JSONValue {
    /// The value as JSON text again (numbers as ``JSONWriter`` writes them).
    public var text: String {
        var writer = JSONWriter()
        write(nil, into: &writer)
        return writer.text
    }

    func write(_ key: String?, into writer: inout JSONWriter) {
        switch self {
        case .null: writer.null(key)
        case .bool(let value): writer.value(key, value)
        case .number(let value): writer.value(key, value)
        case .string(let value): writer.value(key, value)
        case .array(let values):
            writer.beginArray(key)
            for value in values { value.write(nil, into: &writer) }
            writer.endArray()
        case .object(let members):
            writer.beginObject(key)
            for (name, value) in members { value.write(name, into: &writer) }
            writer.endObject()
        }
    }
}
