/// A decoded message's fields under canboat's field ids and in its units (radians, m/s, metres, kelvin, pascals,
/// seconds; a lookup as its number): what `telltale n2k --decode` prints, so that its output can be held field by
/// field against any decoder built on canboat's database (the decode check holds it against PyPI's `nmea2000`).
public enum N2KFieldValue: Equatable, Sendable {
    case number(Double?)
    case text(String?)
}

extension N2KFieldValue {
    static func integer(_ value: Int?) -> N2KFieldValue { .number(value.map(Double.init)) }
    static func flag(_ value: Bool?) -> N2KFieldValue { .number(value.map { $0 ? 1 : 0 }) }
}

extension N2KValue {
    /// The fields Telltale reads of the message, in canboat's order; empty for `.other`. Each PGN's own are beside
    /// its type (`PGNs/`).
    public var fields: [(id: String, value: N2KFieldValue)] {
        switch self {
        case .heading(let value): return value.fields
        case .rateOfTurn(let value): return value.fields
        case .attitude(let value): return value.fields
        case .variation(let value): return value.fields
        case .rudder(let value): return value.fields
        case .speed(let value): return value.fields
        case .depth(let value): return value.fields
        case .log(let value): return value.fields
        case .position(let value): return value.fields
        case .course(let value): return value.fields
        case .gnss(let value): return value.fields
        case .setAndDrift(let value): return value.fields
        case .systemTime(let value): return value.fields
        case .crossTrack(let value): return value.fields
        case .navigation(let value): return value.fields
        case .route(let value): return value.fields
        case .wind(let value): return value.fields
        case .environment(let value): return value.fields
        case .aisPosition(let value): return value.fields
        case .aisStatic(let value): return value.fields
        case .addressClaim(let value): return value.fields
        case .heartbeat(let value): return value.fields
        case .product(let value): return value.fields
        case .configuration(let value): return value.fields
        case .pgnList(let value): return value.fields
        case .headingControl(let value): return value.fields
        case .seatalkPilotMode(let value): return value.fields
        case .seatalkLockedHeading(let value): return value.fields
        case .seatalkWindDatum(let value): return value.fields
        case .request(let pgn): return [("pgn", .integer(Int(pgn)))]
        case .acknowledgement(let control, let pgn):
            return [("control", .integer(control)), ("pgn", .integer(Int(pgn)))]
        case .other:
            return []
        }
    }
}
