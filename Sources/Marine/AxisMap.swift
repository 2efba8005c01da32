/// How an IMU chip is mounted: which chip axis (with its sign) points forward, to starboard and down.
///
/// Written as three terms, for body x (forward), y (starboard), z (down): `"x,-y,-z"` is a chip whose x points
/// forward and whose y and z point to port and up (a common breakout board lying flat, components up). Board
/// profiles and the configuration carry it as data.
public struct AxisMap: Hashable, Sendable, CustomStringConvertible {
    /// For each body axis: the chip axis index (0 x, 1 y, 2 z) and its sign.
    public let axes: [(index: Int, sign: Double)]

    public static let identity = AxisMap(unchecked: [(0, 1), (1, 1), (2, 1)])

    private init(unchecked axes: [(index: Int, sign: Double)]) {
        self.axes = axes
    }

    /// Parses `"x,-y,-z"`; nil unless each chip axis appears exactly once.
    public init?(_ text: String) {
        let terms = text.split(separator: ",").map { $0.trimmingCharacters }
        guard terms.count == 3 else { return nil }
        var axes: [(index: Int, sign: Double)] = []
        for term in terms {
            var sign = 1.0
            var name = Substring(term)
            if let first = name.first, first == "-" || first == "+" {
                sign = first == "-" ? -1 : 1
                name = name.dropFirst()
            }
            guard let index = ["x", "y", "z"].firstIndex(of: name.lowercased()) else { return nil }
            axes.append((index, sign))
        }
        guard Set(axes.map { $0.0 }).count == 3 else { return nil }
        self.axes = axes
    }

    /// A chip-frame vector in the body frame.
    public func apply(_ v: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(v[axes[0].index] * axes[0].sign, v[axes[1].index] * axes[1].sign, v[axes[2].index] * axes[2].sign)
    }

    public var description: String {
        axes.map { ($0.sign < 0 ? "-" : "") + ["x", "y", "z"][$0.index] }.joined(separator: ",")
    }

    public static func == (lhs: AxisMap, rhs: AxisMap) -> Bool { lhs.description == rhs.description }
    public func hash(into hasher: inout Hasher) { hasher.combine(description) }
}

extension Substring {
    fileprivate var trimmingCharacters: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
