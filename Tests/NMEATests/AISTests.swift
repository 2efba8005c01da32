import NMEA
import TestSupport
import Testing

/// AIS (ITU-R M.1371-5) read from VDM fragments: the payload's six bits, fragments put together, each message type
/// a chart and a collision alarm need. Expected values: the field tables of M.1371 (worked by hand for the first
/// two), and pyais 3.3 for the rest (an independent decoder; `Tests/Interop/ais-check` compares every message of
/// the recordings with it).
@Suite struct AISTests {
    static func fragment(_ body: String) throws -> VDM {
        let decoded = try message(checksummed(body, start: "!"))
        guard case .vdm(let vdm) = decoded else {
            Issue.record("not a VDM: \(decoded)")
            throw DecodeError.invalidField(index: 0)
        }
        return vdm
    }

    static func report(_ bodies: String...) throws -> AISReport {
        var assembler = AISAssembler()
        var bits: AISBits?
        for (index, body) in bodies.enumerated() {
            bits = assembler.add(try fragment(body), source: 0, at: Double(index))
        }
        let whole = try #require(bits)
        return try #require(AISReport(whole))
    }

    @Test("a class A position report, field by field (M.1371 table 45)")
    func classA() throws {
        let r = try Self.report("AIVDM,1,1,,A,13aEOK?P00PD2wVMdLDRhgvL289?,0")
        #expect(r.messageType == 1 && r.mmsi == 244_670_316 && r.station == .vessel && r.implausible == 0)
        let p = try #require(r.position)
        #expect(p.navigationStatus == 15 && p.rateOfTurn == nil && p.speedOverGround == 0 && p.isAccurate)
        #expect(abs(p.longitude! - 4.379285) < 1e-6 && abs(p.latitude! - 51.89475) < 1e-6)
        #expect(p.courseOverGround == 70.6 && p.heading == nil && p.second == 14 && !p.isClassB)
        // Type 3 with a rate of turn: raw -8 is -(8/4.733)² = -2.857 degrees a minute.
        let type3 = try Self.report("AIVDM,1,1,,B,39NS7>@v2>OqUn0Lu1h3JBeoP000,0")
        let turning = try #require(type3.position)
        #expect(abs(turning.rateOfTurn! + 2.857) < 0.001 && turning.speedOverGround == 14.2)
        #expect(turning.heading == 86 && turning.courseOverGround == 87.3 && turning.second == 59)
    }

    @Test("class B: position (18), extended (19), static data parts A and B (24)")
    func classB() throws {
        let b = try Self.report("AIVDM,1,1,0,,B3aQ5100=p5u4l7PHW0sswP00000,0")
        #expect(b.messageType == 18 && b.mmsi == 244_860_164 && b.position?.isClassB == true)
        #expect(b.position?.speedOverGround == 5.5 && b.position?.courseOverGround == 95.8)
        #expect(abs(b.position!.longitude! - 5.202947) < 1e-6 && abs(b.position!.latitude! - 52.4708) < 1e-6)
        let extended = try Self.report("AIVDM,1,1,,B,C39Lg000?wvUUB7@iFR6abgPl:P@jT00000000000000B0P21120,0")
        #expect(extended.messageType == 19 && extended.mmsi == 211_234_560)
        #expect(extended.position?.heading == 213 && extended.position?.courseOverGround == 215.4)
        #expect(extended.statics?.name == "ZEPHYR" && extended.statics?.shipType == 36)
        #expect(extended.statics?.length == 12 && extended.statics?.beam == 4)
        let a = try Self.report("AIVDM,1,1,,B,H3P=BSA<D61=18U@D00000000000,0")
        #expect(a.messageType == 24 && a.statics?.part == 0 && a.statics?.name == "SEA SPRITE")
        let partB = try Self.report("AIVDM,1,1,,B,H3P=BSDU1230000=123i000p3210,0")
        #expect(partB.statics?.part == 1 && partB.statics?.callsign == "MABC1" && partB.statics?.shipType == 37)
        #expect(partB.statics?.toBow == 7 && partB.statics?.toStern == 3 && partB.statics?.beam == 3)
    }

    @Test("static and voyage data in two fragments (5), and an aid to navigation (21)")
    func staticAndAid() throws {
        let r = try Self.report(
            "AIVDM,2,1,1,A,55?MbV02;H;s<HtKR20EHE:0@T4@Dn2222222216L961O5Gf0NSQEp6ClRp8,0",
            "AIVDM,2,2,1,A,88888888880,2")
        let s = try #require(r.statics)
        #expect(r.messageType == 5 && r.mmsi == 351_759_000 && s.imo == 9_134_270 && s.callsign == "3FOF8")
        #expect(s.name == "EVER DIADEM" && s.shipType == 70 && s.length == 295 && s.beam == 32)
        #expect(s.draught == 12.2 && s.destination == "NEW YORK")
        #expect(s.eta == AISReport.ETA(month: 5, day: 15, hour: 14, minute: 0))
        let aid = try Self.report("AIVDM,1,1,,B,E>jHD0e70Q@:7cRa@2Pab@1Pa24gulmh>OhT010888D01000000000000000,4")
        #expect(aid.messageType == 21 && aid.station == .aidToNavigation && aid.aid?.type == 26)
        #expect(aid.aid?.isVirtual == true && aid.aid?.isOffPosition == false)
        #expect(aid.statics?.name == "NAB TOWER EAST CARDI" && aid.position?.latitude == 50.668)
    }

    @Test("an AIS-SART by its MMSI (970), and VDO as the own vessel's")
    func distressAndOwn() throws {
        let sart = try Self.report("AIVDM,1,1,,B,1>M4nfNP04Orug0M2QD00?v;P000,0")
        #expect(sart.mmsi == 970_012_345 && sart.station == .searchAndRescueTransponder && sart.isDistress)
        #expect(sart.position?.navigationStatus == 14)
        let own = try Self.fragment("AIVDO,1,1,,,B3aQ5100=p5u4l7PHW0sswP00000,0")
        #expect(own.isOwnVessel && own.channel == nil)
    }

    @Test("fragments: put together in order, per source; stray, interleaved and late ones counted, never joined")
    func assembly() throws {
        let first = try Self.fragment("AIVDM,2,1,1,A,55?MbV02;H;s<HtKR20EHE:0@T4@Dn2222222216L961O5Gf0NSQEp6ClRp8,0")
        let second = try Self.fragment("AIVDM,2,2,1,A,88888888880,2")
        var assembler = AISAssembler()
        // The second alone: stray.
        #expect(assembler.add(second, source: 0, at: 0) == nil && assembler.statistics.strayFragments == 1)
        // The first from one input, the second from another: not joined.
        #expect(assembler.add(first, source: 0, at: 1) == nil)
        #expect(assembler.add(second, source: 1, at: 1.1) == nil && assembler.statistics.strayFragments == 2)
        // Too late: the message is dropped as incomplete.
        #expect(assembler.add(second, source: 0, at: 1 + AISAssembler.timeout + 0.1) == nil)
        #expect(assembler.statistics.incomplete == 1)
        // In order and in time: one message of 424 bits (71 characters less 2 fill bits).
        _ = assembler.add(first, source: 0, at: 10)
        let completed = assembler.add(second, source: 0, at: 10.2)
        let bits = try #require(completed)
        #expect(bits.count == 424 && assembler.statistics.messages == 1)
        // A source that sends only first fragments holds at most a few messages.
        for sequence in 0..<9 {
            var begun = first
            begun.sequenceID = sequence
            _ = assembler.add(begun, source: 2, at: 20)
        }
        #expect(assembler.statistics.incomplete == 2)
    }

    @Test("bad fragments are refused: a character outside the armour, fill bits over 5, fragment 3 of 2, no sequence")
    func refused() {
        for body in [
            "AIVDM,1,1,,A,13aEOK?P00PD2wVMdLDRhgvL289X,0", "AIVDM,1,1,,A,13aEOK?P00PD2wVMdLDRhgvL289?,6",
            "AIVDM,2,3,1,A,13aEOK,0", "AIVDM,2,1,,A,13aEOK,0", "AIVDM,0,1,,A,13aEOK,0", "AIVDM,1,1,,A,,0",
            "AIVDM,1,1,,C,13aEOK,0",
        ] {
            #expect(throws: DecodeError.self, "\(body)") { try Self.fragment(body) }
        }
    }

    @Test("a short message never traps and reads no bits that were not sent; impossible values are nil and counted")
    func shortAndImplausible() throws {
        // Type 1 cut after the MMSI: the rest is nil.
        let cut = AISBits(sixBits: [1, 0, 0, 0, 0, 0, 0], fillBits: 0)
        let short = try #require(AISReport(cut))
        #expect(short.messageType == 1 && short.position?.latitude == nil && short.position?.speedOverGround == nil)
        #expect(AISReport(AISBits(sixBits: [1], fillBits: 0)) == nil)
        // Latitude 100° (60,000,000 in 1/10000 minute) and COG 370°: nil, two implausible fields.
        var six = Array(repeating: UInt8(0), count: 28)
        func set(_ start: Int, _ width: Int, _ value: Int) {
            for bit in 0..<width where (value >> (width - 1 - bit)) & 1 == 1 {
                six[(start + bit) / 6] |= 1 << (5 - UInt8((start + bit) % 6))
            }
        }
        set(0, 6, 1)
        set(8, 30, 235_000_001)
        set(89, 27, 60_000_000)
        set(116, 12, 3700)
        let impossible = AISBits(sixBits: six, fillBits: 0)
        let bad = try #require(AISReport(impossible))
        #expect(bad.position?.latitude == nil && bad.position?.courseOverGround == nil && bad.implausible == 2)
    }
}
