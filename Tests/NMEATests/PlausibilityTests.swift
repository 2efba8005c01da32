import NMEA
import Testing

@Suite struct PlausibilityTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var body: String
        var quantity: Quantity
        var testDescription: String { body }
    }

    static let implausible: [Case] = [
        Case(body: "WIMWV,40.0,R,99999,N,A", quantity: .windSpeed),
        Case(body: "WIMWV,-999,R,10,N,A", quantity: .windAngle),
        Case(body: "WIMWV,40.0,R,-5,N,A", quantity: .windSpeed),
        Case(body: "WIMWV,40.0,R,250,M,A", quantity: .windSpeed),
        Case(body: "IIVHW,,,90,M,999,N,,", quantity: .boatSpeed),
        Case(body: "HCHDT,400,T", quantity: .direction),
        Case(body: "HCHDT,-999,T", quantity: .direction),
        Case(body: "HCHDG,98.3,0.0,E,200,W", quantity: .variation),
        Case(body: "SDDPT,-3.0,0.0", quantity: .depth),
        Case(body: "SDDBT,,f,-2,M,,F", quantity: .depth),
        Case(body: "YXMTW,99,C", quantity: .waterTemperature),
        Case(body: "IIXDR,A,nan,D,ROLL,A,inf,D,PTCH", quantity: .measurement),
        Case(body: "IIXDR,A,1e308,D,ROLL", quantity: .measurement),
        Case(body: "IIXDR,A,400,D,ROLL", quantity: .attitudeAngle),
        Case(body: "GPRMC,120000.00,A,5000.000,N,00100.000,W,5000,90.0,010126,,,A", quantity: .groundSpeed),
        Case(body: "GPVTG,450.0,T,,M,5.0,N,9.3,K,A", quantity: .direction),
        Case(body: "WIMWD,302.4,T,289.6,M,1000,N,514,M", quantity: .windSpeed),
        Case(body: "WIVWR,200,R,10,N,5.1,M,18.5,K", quantity: .sideAngle),
        Case(body: "GPXTE,A,A,-0.5,L,N,A", quantity: .distance),
        Case(body: "TIROT,99999,A", quantity: .rateOfTurn),
    ]

    @Test("values no instrument can measure are refused as implausible, naming the quantity", arguments: implausible)
    func refused(_ example: Case) throws {
        let sentence = try Sentence(parsing: checksummed(example.body))
        #expect(throws: DecodeError.implausible(example.quantity)) { try Message(sentence) }
        #expect(DecodeError.implausible(example.quantity).reason.name == "implausible")
    }

    @Test(
        "values at the edges of what boats meet are accepted",
        arguments: [
            "WIMWV,359.9,R,150.0,N,A", "WIMWV,-179.0,R,0.0,N,A", "IIVHW,,,90,M,45.0,N,,", "HCHDT,360.0,T",
            "HCHDT,0.0,T", "SDDPT,0.4,-1.2", "SDDPT,4500.0,0.0", "YXMTW,-1.8,C", "IIXDR,A,-65.0,D,ROLL,A,20.0,D,PTCH",
            "IIXDR,C,1013.2,B,AIRP,G,-8984,,MAGZ", "GPRMC,120000.00,A,5000.000,N,00100.000,W,0.0,0.0,010126,1.5,W,A",
            "TIROT,-300.0,A",
        ])
    func accepted(_ body: String) throws {
        let message = try Message(Sentence(parsing: checksummed(body)))
        #expect(message.implausibleQuantity == nil)
    }

    @Test("B&G's extra XDR field is still realigned, not called implausible")
    func extraField() throws {
        let message = try Message(Sentence(parsing: checksummed("IIXDR,A,12.3,D,1,ROLL,A,-2.0,D,PTCH")))
        guard case .xdr(let xdr) = message else {
            Issue.record("not an XDR")
            return
        }
        #expect(xdr.skippedFields > 0)
    }
}
