/// A decoded sentence type whose values can be judged against their physical ranges.
protocol PlausibilityJudged {
    /// Checks each value that has a range (a type with none checks nothing).
    func judge(_ judge: inout Judge)
}

extension PlausibilityJudged {
    func judge(_ judge: inout Judge) {}

    /// The first quantity whose value cannot be true, or nil when every value is within its range.
    var implausibleQuantity: Quantity? {
        var judge = Judge()
        self.judge(&judge)
        return judge.found
    }
}

/// Keeps the first quantity found out of range.
struct Judge {
    static let knotsPerMetrePerSecond = 3600.0 / 1852
    private(set) var found: Quantity?

    @inline(__always)
    mutating func check(_ quantity: Quantity, _ value: Double?) {
        if found == nil && !quantity.admits(value) { found = quantity }
    }

    mutating func check(sideWind wind: SideWind) {
        check(.sideAngle, wind.angle)
        check(.windSpeed, wind.speedKnots.map { $0 * 1852 / 3600 })
        check(.windSpeed, wind.speedMetresPerSecond)
        check(.windSpeed, wind.speedKilometresPerHour.map { $0 / 3.6 })
    }

    mutating func check(waypoint bearing: WaypointBearing) {
        check(.direction, bearing.bearingTrue)
        check(.direction, bearing.bearingMagnetic)
        check(.distance, bearing.distance)
    }
}

extension Message {
    /// The first quantity whose value cannot be true, or nil when every value is within its range. Decoding judges
    /// each type before it becomes a `Message` (a copy of the enum per judgement cost more than the judging).
    public var implausibleQuantity: Quantity? {
        switch self {
        case .rmc(let s): s.implausibleQuantity
        case .gga(let s): s.implausibleQuantity
        case .gll(let s): s.implausibleQuantity
        case .vtg(let s): s.implausibleQuantity
        case .zda(let s): s.implausibleQuantity
        case .hdg(let s): s.implausibleQuantity
        case .hdm(let s): s.implausibleQuantity
        case .hdt(let s): s.implausibleQuantity
        case .vhw(let s): s.implausibleQuantity
        case .mwv(let s): s.implausibleQuantity
        case .vwr(let s): s.implausibleQuantity
        case .vwt(let s): s.implausibleQuantity
        case .mwd(let s): s.implausibleQuantity
        case .vpw(let s): s.implausibleQuantity
        case .dbt(let s): s.implausibleQuantity
        case .dpt(let s): s.implausibleQuantity
        case .mtw(let s): s.implausibleQuantity
        case .mda(let s): s.implausibleQuantity
        case .vlw(let s): s.implausibleQuantity
        case .xdr(let s): s.implausibleQuantity
        case .rmb(let s): s.implausibleQuantity
        case .apb(let s): s.implausibleQuantity
        case .xte(let s): s.implausibleQuantity
        case .bwc(let s): s.implausibleQuantity
        case .bwr(let s): s.implausibleQuantity
        case .bod(let s): s.implausibleQuantity
        case .rte(let s): s.implausibleQuantity
        case .wcv(let s): s.implausibleQuantity
        case .rot(let s): s.implausibleQuantity
        case .rsa(let s): s.implausibleQuantity
        case .alr(let s): s.implausibleQuantity
        case .txt(let s): s.implausibleQuantity
        case .ack(let s): s.implausibleQuantity
        case .acn(let s): s.implausibleQuantity
        case .vdm(let s): s.implausibleQuantity
        }
    }
}
