import NMEA
import Testing

@Suite struct ChecksumTests {
    /// The vectors the field reference (../shared/REFERENCE.md, section 1) verified by XOR.
    static let vectors = [
        "$GPXTE,V,V,,,N,S*43", "$WIMWD,302.4,T,289.6,M,10.5,N,5.4,M*6F", "$GPHDT,274.07,T*03", "$INDPT,2.3,0.0*46",
        "$WIMWV,12.1,T,10.1,N,A*27", "$IIVWT,030.,R,10.1,N,05.2,M,018.7,K*75", "$IIVWR,75,R,1.0,N,0.51,M,1.85,K*6C",
        "$VWVHW,45.0,T,43.0,M,3.5,N,6.4,K*56", "$IIVPW,4.5,N,6.7,M*52", "$HCHDG,98.3,0.0,E,12.6,W*57",
        "$HCHDM,093.8,M*2B", "$RAALR,220516,001,A,A,Bilge pump alarm1*4C", "$APXDR,A,0.135,D,PTCH*7C",
        "$APXDR,A,3.861,D,ROLL*65", "$HCXDR,A,171,D,PITCH,A,-37,D,ROLL,G,367,,MAGX,G,2420,,MAGY,G,-8984,,MAGZ*41",
    ]

    @Test("every reference vector frames with its checksum", arguments: vectors)
    func referenceVectorFrames(_ text: String) throws {
        let parsed = try sentence(text)
        #expect(parsed.description == text)
        let star = text.utf8.firstIndex(of: UInt8(ascii: "*"))!
        let body = text.utf8[text.utf8.index(after: text.utf8.startIndex)..<star]
        #expect(Checksum.xor(body) == parsed.checksum)
    }

    @Test("a changed byte is caught as a checksum mismatch with both values")
    func changedByteIsCaught() {
        #expect(throws: FramingError.checksumMismatch(expected: 0x02, found: 0x03)) {
            try Sentence(parsing: "$GPHDT,274.06,T*03")
        }
    }

    @Test("lower-case and one-digit checksums are read, and re-emitted in upper case")
    func lowerCaseAndOneDigit() throws {
        #expect(
            try sentence("$WIMWD,302.4,T,289.6,M,10.5,N,5.4,M*6f").description
                == "$WIMWD,302.4,T,289.6,M,10.5,N,5.4,M*6F")
        // The XOR of "GPHDT,10.0,T" is 0x04, so a device may send it as one digit.
        #expect(try sentence("$GPHDT,10.0,T*4").description == "$GPHDT,10.0,T*04")
        #expect(try sentence("$GPHDT,10.0,T*04").description == "$GPHDT,10.0,T*04")
    }

    @Test("hex digits decode in both cases and encode in upper case")
    func hexDigits() {
        for nibble in UInt8(0)...15 {
            let digit = Checksum.hexDigit(nibble)
            #expect(Checksum.hexValue(digit) == nibble)
            #expect(!(UInt8(ascii: "a")...UInt8(ascii: "f")).contains(digit))
        }
        #expect(Checksum.hexValue(UInt8(ascii: "g")) == nil)
    }
}
