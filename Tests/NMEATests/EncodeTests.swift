import NMEA
import Testing

@Suite struct EncodeTests {
    @Test("encoders reproduce the reference vectors byte for byte")
    func referenceVectors() throws {
        #expect(
            try MWD(directionTrue: 302.4, directionMagnetic: 289.6, speedKnots: 10.5, speedMetresPerSecond: 5.4)
                .encode(talker: "WI").description == "$WIMWD,302.4,T,289.6,M,10.5,N,5.4,M*6F")
        #expect(
            try MWV(angle: 12.1, reference: .true, speed: 10.1, isValid: true).encode(talker: "WI").description
                == "$WIMWV,12.1,T,10.1,N,A*27")
        #expect(
            try HDG(sensorHeading: 98.3, deviation: 0, variation: -12.6).encode(talker: "HC").description
                == "$HCHDG,98.3,0.0,E,12.6,W*57")
        #expect(
            try XTE(status1: false, status2: false, mode: .simulator).encode(talker: "GP").description
                == "$GPXTE,V,V,,,N,S*43")
        let roll = XDR([.angle(3.861, name: "ROLL", decimals: 3)])
        #expect(try roll.encode(talker: "AP").description == "$APXDR,A,3.861,D,ROLL*65")
        #expect(
            try XDR([.angle(0.135, name: "PTCH", decimals: 3)]).encode(talker: "AP").description
                == "$APXDR,A,0.135,D,PTCH*7C")
        #expect(
            try ALR(
                time: UTCTime(hours: 22, minutes: 5, seconds: 16), alarmNumber: 1, isActive: true,
                isAcknowledged: true, text: "Bilge pump alarm1"
            ).encode(talker: "RA").description
                == "$RAALR,220516.00,001,A,A,Bilge pump alarm1*62")
    }

    @Test("numbers: fixed decimals, no -0.0, unknown values as empty fields")
    func numbers() throws {
        #expect(try HDT(heading: -0.04).encode(talker: "II").description == checksummed("IIHDT,0.0,T"))
        #expect(try HDT(heading: .nan).encode(talker: "II").description == checksummed("IIHDT,,T"))
        #expect(try HDT(heading: 1e300).encode(talker: "II").description == checksummed("IIHDT,,T"))
        #expect(try ROT(rate: -12.345, isValid: true).encode(talker: "TI").description == checksummed("TIROT,-12.3,A"))
        #expect(
            try MWV(angle: 359.96, reference: .relative, speed: 0, isValid: true).encode(talker: "WI").description
                == checksummed("WIMWV,0.0,R,0.0,N,A"))
        #expect(
            try MWV(angle: -10, reference: .relative, speed: 5, isValid: true).encode(talker: "WI").description
                == checksummed("WIMWV,350.0,R,5.0,N,A"))
    }

    @Test("positions are written as degrees and minutes, carrying 60 minutes into the next degree")
    func positions() throws {
        let rmc = RMC(
            time: UTCTime(hours: 23, minutes: 59, seconds: 59.999), isValid: true,
            latitude: -(49 + 59.999999 / 60), longitude: 5.5, speedOverGround: 0, courseOverGround: 0,
            date: UTCDate(year: 2026, month: 11, day: 22), magneticVariation: nil, mode: .autonomous)
        #expect(
            try rmc.encode(talker: "GP").description
                == checksummed("GPRMC,000000.00,A,5000.0000,S,00530.0000,E,0.00,0.0,221126,,,A"))
    }

    @Test("a talker is configurable for every encoder")
    func talker() throws {
        #expect(try HDM(heading: 93.8).encode(talker: "HC").description == "$HCHDM,93.8,M*1B")
        #expect(try HDM(heading: 93.8).encode(talker: "YX").address.description == "YXHDM")
    }

    @Test("long waypoint IDs are shortened so the sentence fits in 82 bytes; no field is cut in half")
    func waypointShortening() throws {
        let rmb = RMB(
            isValid: true, crossTrackError: 9.99, steer: .right, originID: "ORIGIN-WAYPOINT-NUMBER-ONE",
            destinationID: "DESTINATION-WAYPOINT-NUMBER-TWO", destinationLatitude: -49.5,
            destinationLongitude: -123.25, range: 999.99, bearingTrue: 359.9, closingVelocity: -12.5,
            arrived: false, mode: .autonomous)
        let encoded = try rmb.encode(talker: "GP")
        #expect(encoded.wireLength <= 82)
        let decoded = try RMB(encoded)
        let origin = try #require(decoded.originID)
        let destination = try #require(decoded.destinationID)
        #expect(rmb.originID!.hasPrefix(origin) && rmb.destinationID!.hasPrefix(destination))
        #expect(decoded.range == 999.99 && decoded.destinationLongitude == -123.25)
        // It is as long as it can be: one more byte of ID would not fit.
        #expect(encoded.wireLength >= 81)

        let short = RMB(isValid: true, originID: "A", destinationID: "B")
        #expect(try RMB(short.encode(talker: "GP")).destinationID == "B")
    }

    @Test("an XDR that would be too long drops whole quadruples from the end")
    func xdrShortening() throws {
        let many = XDR((0..<12).map { .angle(Double($0) * 11.1, name: "ANGLE\($0)") })
        let encoded = try many.encode(talker: "II")
        #expect(encoded.wireLength <= 82)
        let decoded = try XDR(encoded)
        #expect(decoded.measurements.count < 12 && decoded.measurements.count >= 3)
        #expect(decoded.measurements == Array(many.measurements.prefix(decoded.measurements.count)))
    }

    @Test("text fields cannot break framing")
    func textIsSanitised() throws {
        let encoded = try WCV(velocity: 1, waypointID: "A,B*C$D", mode: .autonomous).encode(talker: "GP")
        #expect(encoded.description == checksummed("GPWCV,1.00,N,A_B_C_D,A"))
    }

    @Test("a long notice is split into TXT sentences between words")
    func txtSplit() throws {
        let notice = (0..<30).map { "word\($0)" }.joined(separator: " ")
        let parts = TXT.messages(notice, identifier: 1)
        #expect(parts.count == 4)
        for part in parts {
            let encoded = try part.encode(talker: "II")
            #expect(encoded.wireLength <= 82)
            #expect(try TXT(encoded) == part)
        }
        #expect(parts.map { $0.text! }.joined(separator: " ") == notice)
        #expect(parts.last?.sentenceNumber == 4 && parts.first?.totalSentences == 4)
    }

    @Test("APB writes one reference for all three bearings")
    func apbReference() throws {
        let apb = APB(
            status1: true, status2: true, crossTrackError: 0.123, steer: .left, arrivalCircleEntered: false,
            perpendicularPassed: false, bearingOriginToDestination: 10, destinationID: "WP2",
            bearingToDestination: 12, headingToSteer: 14, reference: .magnetic, mode: .autonomous)
        #expect(
            try apb.encode(talker: "GP").description
                == checksummed("GPAPB,A,A,0.123,L,N,V,V,10.0,M,WP2,12.0,M,14.0,M,A"))
    }
}
