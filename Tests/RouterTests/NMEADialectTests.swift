import NMEA
import Router
import TestSupport
import Testing

@Suite struct NMEADialectTests {
    func sentence(_ body: String) throws -> Sentence { try Sentence(parsing: checksummed(body)) }

    static let apb = "IIAPB,A,A,0.012,L,N,V,V,122.3,T,EAST,122.3,T,122.2,T,D"
    static let withMode = [
        apb, "IIRMB,A,0.01,L,START,EAST,5046.3980,N,00116.9980,W,0.75,122.3,3.4,V,D", "IIXTE,A,A,0.012,L,N,D",
        "IIBWC,130228.70,5046.3980,N,00116.9980,W,122.3,T,123.8,M,0.75,N,EAST,D", "IIWCV,3.41,N,EAST,D",
        "GPRMC,100000.00,A,5046.7998,N,00117.9999,W,3.43,115.7,210626,1.5,W,D",
        "GPVTG,115.7,T,117.2,M,3.43,N,6.34,K,D",
    ]

    /// OpenCPN's NMEA 0183 library reads APB's checksum after data field 14: a 15th field is taken for a bad checksum.
    func openCPNAccepts(_ sentence: Sentence) -> Bool {
        sentence.address.formatter != "APB" || sentence.fieldCount <= 14
    }

    @Test("the default dialect writes APB in the 14 fields OpenCPN reads and keeps every other FAA mode field")
    func compatible() throws {
        for body in Self.withMode {
            let original = try sentence(body)
            let adapted = NMEADialect.compatible.adapt(original)
            #expect(openCPNAccepts(adapted), "\(adapted)")
            #expect(openCPNAccepts(original) == (original.address.formatter != "APB"))
            if original.address.formatter == "APB" {
                #expect(adapted.fieldCount == 14 && adapted.description.hasPrefix("$IIAPB,A,A,0.012,L,N,V,V,122.3,T"))
                #expect(adapted.description.hasSuffix(",122.2,T*" + String(adapted.description.suffix(2))))
            } else {
                #expect(adapted == original)
            }
        }
    }

    @Test("2.3 keeps every field; 2.1 drops the FAA mode of each sentence that has one, checksums recomputed")
    func others() throws {
        for body in Self.withMode {
            let original = try sentence(body)
            #expect(NMEADialect.nmea23.adapt(original) == original)
            let old = NMEADialect.nmea21.adapt(original)
            #expect(old.fieldCount == original.fieldCount - 1, "\(old)")
            // Framed again from its bytes: the checksum is right.
            #expect(try Sentence(parsing: old.description) == old)
            #expect(try Message(old).isEncodable)
        }
        let rmc41 = try sentence("GPRMC,100000.00,A,5046.7998,N,00117.9999,W,3.43,115.7,210626,1.5,W,D,S")
        #expect(NMEADialect.nmea21.adapt(rmc41).fieldCount == 11)
        #expect(NMEADialect.nmea21.adapt(try sentence("HCHDT,90.0,T")).fieldCount == 2)
    }
}
