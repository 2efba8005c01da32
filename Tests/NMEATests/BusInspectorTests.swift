import NMEA
import Testing

@Suite struct BusInspectorTests {
    @Test("counts per address and talker, rates from the log's own clock, rejects with their first example")
    func inspectsALog() {
        var lines: [String] = ["# a header line"]
        for second in 0..<10 {
            let time = "1200" + (second < 10 ? "0\(second)" : "\(second)")
            lines.append(checksummed("GPRMC,\(time),A,5251.0094,N,00518.8172,E,6.6,231.3,200818,1.3,E"))
            lines.append("$WIMWV,12.1,T,10.1,N,A*27")
            lines.append("$WIMWV,12.1,T,10.1,N,A*27")
        }
        lines.append("$WIMWV,12.1,T,10.1,N,A*28")
        lines.append("$WIMWV,12.1,T,10.1,N,A*29")
        lines.append(checksummed("IIMWV,-1.-3,R,10,N,A"))
        lines.append("garbage")
        var inspector = BusInspector()
        inspector.feed(Array(lines.joined(separator: "\r\n").utf8))
        inspector.finish()

        #expect(inspector.accepted == 30)
        #expect(inspector.byAddress[Address("GPRMC")!] == 10)
        #expect(inspector.byAddress[Address("WIMWV")!] == 20)
        #expect(inspector.talkers == ["GP": 10, "WI": 20])
        #expect(inspector.duration == 9)
        #expect(inspector.rate(of: Address("WIMWV")!) == 20.0 / 9)
        #expect(inspector.rejects[.checksum] == 2)
        #expect(inspector.rejects[.invalidField] == 1)
        #expect(inspector.rejects[.noStart] == 1)
        #expect(inspector.examples[.checksum] == BusInspector.Example(line: 32, text: "$WIMWV,12.1,T,10.1,N,A*28"))
        #expect(inspector.comments == 1)
    }

    @Test("a log that crosses midnight keeps counting time")
    func midnight() {
        var inspector = BusInspector()
        let text = [
            checksummed("GPGLL,5251.0093,N,00518.8170,E,235959,A,A"),
            checksummed("GPGLL,5251.0093,N,00518.8170,E,000001,A,A"),
        ].joined(separator: "\n")
        inspector.feed(Array(text.utf8))
        inspector.finish()
        #expect(inspector.duration == 2)
    }

    @Test("tag-block times are preferred for the duration")
    func tagTimes() {
        let first = String(decoding: TagBlock(unixMilliseconds: 1_763_800_000_000).encoded(), as: UTF8.self)
        let second = String(decoding: TagBlock(unixMilliseconds: 1_763_800_004_500).encoded(), as: UTF8.self)
        var inspector = BusInspector()
        inspector.feed(Array((first + "$HCHDM,093.8,M*2B\n" + second + "$HCHDM,093.8,M*2B\n").utf8))
        inspector.finish()
        #expect(inspector.duration == 4.5)
    }
}
