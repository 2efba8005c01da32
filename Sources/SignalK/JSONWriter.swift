/// A small JSON writer: the command line prints a handful of objects and needs no Foundation for it.
public struct JSONWriter {
    public init() {}

    public private(set) var text = ""
    private var needsComma: [Bool] = [false]

    public mutating func beginObject(_ key: String? = nil) {
        prefix(key)
        text += "{"
        needsComma.append(false)
    }

    public mutating func endObject() {
        needsComma.removeLast()
        text += "}"
    }

    public mutating func beginArray(_ key: String? = nil) {
        prefix(key)
        text += "["
        needsComma.append(false)
    }

    public mutating func endArray() {
        needsComma.removeLast()
        text += "]"
    }

    public mutating func value(_ key: String?, _ value: Int) {
        prefix(key)
        text += String(value)
    }

    public mutating func value(_ key: String?, _ value: Double?) {
        prefix(key)
        if let value, value.isFinite { text += String(value) } else { text += "null" }
    }

    public mutating func null(_ key: String?) {
        prefix(key)
        text += "null"
    }

    public mutating func value(_ key: String?, _ value: Bool) {
        prefix(key)
        text += value ? "true" : "false"
    }

    /// Text already written as JSON (a value of another writer).
    public mutating func raw(_ key: String?, _ json: String) {
        prefix(key)
        text += json
    }

    public mutating func value(_ key: String?, _ value: String) {
        prefix(key)
        text += JSONWriter.quoted(value)
    }

    private mutating func prefix(_ key: String?) {
        if needsComma[needsComma.count - 1] { text += "," }
        needsComma[needsComma.count - 1] = true
        if let key { text += JSONWriter.quoted(key) + ":" }
    }

    public static func quoted(_ value: String) -> String {
        var result = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
