/// An address pattern as outputs name them: `*MWV`, `GP*`, `II*XDR`; `*` matches any run of characters.
///
/// Matched on the address's bytes, with no allocation: outputs check every sentence against their patterns.
public struct AddressPattern: Hashable, Sendable, CustomStringConvertible {
    public let text: String
    private let bytes: [UInt8]

    public init(_ text: String) {
        self.text = text
        bytes = Array(text.utf8)
    }

    public var description: String { text }

    /// Whether `address` matches: the usual greedy wildcard walk with one backtrack point.
    public func matches(_ address: Address) -> Bool {
        var p = 0
        var t = 0
        var star = -1
        var resume = 0
        while t < address.count {
            if p < bytes.count && bytes[p] == UInt8(ascii: "*") {
                star = p
                resume = t
                p += 1
            } else if p < bytes.count && bytes[p] == address[t] {
                p += 1
                t += 1
            } else if star >= 0 {
                p = star + 1
                resume += 1
                t = resume
            } else {
                return false
            }
        }
        while p < bytes.count && bytes[p] == UInt8(ascii: "*") { p += 1 }
        return p == bytes.count
    }

    /// `pattern` against the text of an address.
    public static func matches(_ pattern: String, _ text: String) -> Bool {
        guard let address = Address(text) else { return false }
        return AddressPattern(pattern).matches(address)
    }
}
