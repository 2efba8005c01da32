/// A tidal constituent Telltale computes for any year: its equilibrium argument from the sun's and moon's mean
/// motions (Schureman's Doodson-style multipliers of T, s, h, p and p₁, and a constant), its node factor and nodal
/// phase from the lunar terms it is made of. These are the 37 constituents NOAA predicts with (all but one of the
/// reference stations in XTide's free file use only these); any other is read from its file's own tables.
struct TideConstituent: Sendable {
    /// The lunar terms node factors are built from (Schureman's table 2).
    enum NodeBase: Sendable {
        case m2, o1, k1, k2, j1, oo1, mf, mm, m1, l2, m3
    }

    let name: String
    /// Multipliers of the mean sun's hour angle T, the moon's longitude s, the sun's h, the lunar perigee p and the
    /// solar perigee p₁, and a constant in degrees.
    let t: Double
    let s: Double
    let h: Double
    let p: Double
    let p1: Double
    let constant: Double
    /// f = Π f(base)^|n|, u = Σ n·u(base).
    let node: [(base: NodeBase, count: Int)]
    /// NOAA's M1 turns with the perigee (T − s + h + p) while its argument keeps the perigee in u, which is taken
    /// for the middle of the year: its speed has one p more than its V.
    var speedPerigee = 0.0

    /// V₀ + u at `start` (V₀ there, u and f at `middle`), in degrees, and f.
    func yearArgument(start: TideAstronomy, middle: TideAstronomy) -> (argument: Double, factor: Double) {
        let v =
            t * start.hourAngle + s * start.moon + h * start.sun + p * start.lunarPerigee
            + p1 * start.solarPerigee + constant
        var f = 1.0
        var u = 0.0
        for term in node {
            let (baseF, baseU) = middle.node(term.base)
            for _ in 0..<(term.count < 0 ? -term.count : term.count) { f *= baseF }
            u += Double(term.count) * baseU
        }
        return (TideAstronomy.wrap(v + u / TideAstronomy.radian), f)
    }

    static func named(_ name: String) -> TideConstituent? { all.first { $0.name == name } }

    private static func c(
        _ name: String, _ t: Double, _ s: Double, _ h: Double, _ p: Double, _ p1: Double, _ constant: Double,
        _ node: [(base: NodeBase, count: Int)] = []
    ) -> TideConstituent {
        TideConstituent(name: name, t: t, s: s, h: h, p: p, p1: p1, constant: constant, node: node)
    }

    private static let m1: TideConstituent = {
        var m1 = c("M1", 1, -1, 1, 0, 0, -90, [(.m1, 1)])
        m1.speedPerigee = 1
        return m1
    }()

    static let all: [TideConstituent] = [
        c("M2", 2, -2, 2, 0, 0, 0, [(.m2, 1)]), c("S2", 2, 0, 0, 0, 0, 0), c("N2", 2, -3, 2, 1, 0, 0, [(.m2, 1)]),
        c("K1", 1, 0, 1, 0, 0, -90, [(.k1, 1)]), c("M4", 4, -4, 4, 0, 0, 0, [(.m2, 2)]),
        c("O1", 1, -2, 1, 0, 0, 90, [(.o1, 1)]), c("M6", 6, -6, 6, 0, 0, 0, [(.m2, 3)]),
        c("MK3", 3, -2, 3, 0, 0, -90, [(.m2, 1), (.k1, 1)]), c("S4", 4, 0, 0, 0, 0, 0),
        c("MN4", 4, -5, 4, 1, 0, 0, [(.m2, 2)]), c("NU2", 2, -3, 4, -1, 0, 0, [(.m2, 1)]), c("S6", 6, 0, 0, 0, 0, 0),
        c("MU2", 2, -4, 4, 0, 0, 0, [(.m2, 1)]), c("2N2", 2, -4, 2, 2, 0, 0, [(.m2, 1)]),
        c("OO1", 1, 2, 1, 0, 0, -90, [(.oo1, 1)]), c("LDA2", 2, -1, 0, 1, 0, 180, [(.m2, 1)]),
        c("S1", 1, 0, 0, 0, 0, 0), m1, c("J1", 1, 1, 1, -1, 0, -90, [(.j1, 1)]),
        c("MM", 0, 1, 0, -1, 0, 0, [(.mm, 1)]), c("SSA", 0, 0, 2, 0, 0, 0), c("SA", 0, 0, 1, 0, 0, 0),
        c("MSF", 0, 2, -2, 0, 0, 0, [(.m2, -1)]), c("MF", 0, 2, 0, 0, 0, 0, [(.mf, 1)]),
        c("RHO1", 1, -3, 3, -1, 0, 90, [(.o1, 1)]), c("Q1", 1, -3, 1, 1, 0, 90, [(.o1, 1)]),
        c("T2", 2, 0, -1, 0, 1, 0), c("R2", 2, 0, 1, 0, -1, 180), c("2Q1", 1, -4, 1, 2, 0, 90, [(.o1, 1)]),
        c("P1", 1, 0, -1, 0, 0, 90), c("2SM2", 2, 2, -2, 0, 0, 0, [(.m2, -1)]), c("M3", 3, -3, 3, 0, 0, 0, [(.m3, 1)]),
        c("L2", 2, -1, 2, -1, 0, 180, [(.l2, 1)]), c("2MK3", 3, -4, 3, 0, 0, 90, [(.m2, 2), (.k1, -1)]),
        c("K2", 2, 0, 2, 0, 0, 0, [(.k2, 1)]), c("M8", 8, -8, 8, 0, 0, 0, [(.m2, 4)]),
        c("MS4", 4, -2, 2, 0, 0, 0, [(.m2, 1)]),
    ]

    /// The speed the multipliers give, degrees an hour: how a constituent of a file is checked to be the one its name
    /// says before its arguments are computed rather than read.
    var speed: Double {
        t * 15 + s * 0.549_016_53 + h * 0.041_068_64 + (p + speedPerigee) * 0.004_641_83 + p1 * 0.000_001_96
    }
}
