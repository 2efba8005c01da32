import NMEA
import Testing

/// A unit field is empty or the letter the sentence's layout fixes. Fuzzing Irene's logs with the checksums made good
/// found sentences whose unit letters were mangled (VLW's `N` as `nan`, MTW's `C` as `nan`, VWR's `N` as `NaN`) read
/// and passed on as they came, the decoders having skipped the unit fields.
@Suite struct UnitLetterTests {
    /// Each sentence as real instruments send it, and the index of one of its unit fields.
    static let sentences: [(body: String, unit: Int)] = [
        ("GPBOD,097.0,T,103.2,M,POINTB,POINTA", 1), ("GPBOD,097.0,T,103.2,M,POINTB,POINTA", 3),
        ("SDDBT,7.8,f,2.4,M,1.3,F", 1), ("SDDBT,7.8,f,2.4,M,1.3,F", 3), ("SDDBT,7.8,f,2.4,M,1.3,F", 5),
        ("GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,", 9),
        ("GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,", 11),
        ("WIMDA,29.97,I,1.015,B,18.5,C,14.2,C,62.0,,11.1,C,245.0,T,243.0,M,12.0,N,6.2,M", 5),
        ("WIMDA,29.97,I,1.015,B,18.5,C,14.2,C,62.0,,11.1,C,245.0,T,243.0,M,12.0,N,6.2,M", 17),
        ("YXMTW,15.5,C", 1), ("IIMWD,245.0,T,243.0,M,12.0,N,6.2,M", 5), ("IIVWR,023,L,04.3,N,2.2,M,8.0,K", 3),
        ("IIVWR,023,L,04.3,N,2.2,M,8.0,K", 7), ("IIVHW,,,196,M,04.2,N,7.8,K", 5), ("IIVHW,,,196,M,04.2,N,7.8,K", 3),
        ("IIVLW,01522,N,000.0,N", 1), ("IIVLW,01522,N,000.0,N", 3), ("IIVPW,4.5,N,2.3,M", 1),
        ("GPVTG,054.7,T,034.4,M,005.5,N,010.2,K,A", 5), ("GPVTG,054.7,T,034.4,M,005.5,N,010.2,K,A", 7),
        ("GPWCV,4.2,N,WPT1,A", 1), ("GPBWC,225444,4917.24,N,12309.57,W,051.9,T,031.6,M,001.3,N,004,A", 10),
        ("GPXTE,A,A,0.67,L,N,A", 4), ("GPAPB,A,A,0.10,R,N,V,V,011,M,DEST,011,M,011,M,A", 4),
    ]

    func fields(_ body: String) -> [String] {
        body.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }

    @Test("a unit letter mangled on the wire makes the sentence unreadable, naming the field", arguments: sentences)
    func mangled(body: String, unit: Int) throws {
        #expect(throws: Never.self) { try Message(Sentence(parsing: checksummed(body))) }
        for garbage in ["nan", "X", "NN", "n"] {
            var parts = fields(body)
            parts[unit + 1] = garbage
            let framed = try Sentence(parsing: checksummed(parts.joined(separator: ",")))
            #expect(throws: DecodeError.invalidField(index: unit)) { try Message(framed) }
        }
    }

    @Test("an empty unit field is read: the value's unit is the layout's", arguments: sentences)
    func empty(body: String, unit: Int) throws {
        var parts = fields(body)
        parts[unit + 1] = ""
        #expect(throws: Never.self) { try Message(Sentence(parsing: checksummed(parts.joined(separator: ",")))) }
    }

    @Test("a cross track error in kilometres (XTE, APB) is read in nautical miles")
    func crossTrackKilometres() throws {
        let xte = try XTE(Sentence(parsing: checksummed("GPXTE,A,A,1.852,L,K,A")))
        #expect(abs(xte.magnitude! - 1) < 1e-12)
        let apb = try APB(Sentence(parsing: checksummed("GPAPB,A,A,3.704,R,K,V,V,011,M,DEST,011,M,011,M,A")))
        #expect(abs(apb.crossTrackError! - 2) < 1e-12)
        #expect(try XTE(Sentence(parsing: checksummed("GPXTE,A,A,0.67,L,N,A"))).magnitude == 0.67)
    }
}
