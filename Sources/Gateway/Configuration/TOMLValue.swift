/// A TOML value with the line it was read on (see ``TOMLReader``).
public enum TOMLValue: Sendable {
    case string(String)
    case integer(Int)
    case float(Double)
    case boolean(Bool)
    case array([TOMLValue])
    case table(TOMLTable)

    public var string: String? { if case .string(let v) = self { v } else { nil } }
    public var int: Int? { if case .integer(let v) = self { v } else { nil } }
    public var double: Double? {
        switch self {
        case .float(let v): v
        default: nil
        }
    }
    /// A float, or an integer as one (`speed_factor = 1`, `deviation = [0, 4, 0, 0, 2]`).
    public var number: Double? {
        switch self {
        case .float(let v): v
        case .integer(let v): Double(v)
        default: nil
        }
    }
    public var bool: Bool? { if case .boolean(let v) = self { v } else { nil } }
    public var array: [TOMLValue]? { if case .array(let v) = self { v } else { nil } }
    public var table: TOMLTable? { if case .table(let v) = self { v } else { nil } }
}

/// A table: keys in the order written, each with its value and line.
public struct TOMLTable: Sendable {
    public private(set) var keys: [String] = []
    private var values: [String: (value: TOMLValue, line: Int)] = [:]

    public init() {}

    public subscript(key: String) -> TOMLValue? { values[key]?.value }

    /// The line a key was written on.
    public func line(of key: String) -> Int? { values[key]?.line }

    mutating func set(_ key: String, _ value: TOMLValue, line: Int) {
        if values[key] == nil { keys.append(key) }
        values[key] = (value, line)
    }
}

public struct TOMLError: Error, Sendable, CustomStringConvertible {
    public var line: Int
    public var message: String
    public var description: String { "line \(line): \(message)" }
}
