import NMEA
import Testing

@Suite struct FramerTests {
    struct AnomalyCase: Sendable, CustomTestStringConvertible {
        let name: String
        let input: String
        let sentences: [String]
        let rejects: [RejectReason]
        var configuration = FramerConfiguration()
        var testDescription: String { name }
    }

    /// Every anomaly real recordings show that framing decides (the field reference, ../shared/REFERENCE.md section 1,
    /// lists them; docs/sentences.md says what Telltale does with each), with its expected outcome.
    static let anomalies: [AnomalyCase] = [
        AnomalyCase(
            name: "lower-case checksum", input: "$HCHDM,093.8,M*2b\r\n", sentences: ["$HCHDM,093.8,M*2B"], rejects: []),
        AnomalyCase(
            name: "text <0x0D> after the checksum", input: "$HCHDM,093.8,M*2B<0x0D>\r\n",
            sentences: ["$HCHDM,093.8,M*2B"], rejects: []),
        AnomalyCase(
            name: "a line with no $", input: "GPRMB,A,0.00,R,003,004,4917.24,N,12309.57,W,001.3,052.5,000.5,V*3E\n",
            sentences: [], rejects: [.noStart]),
        AnomalyCase(
            name: "unit letters left out when the value is empty",
            input: checksummed("IIVHW,,,294,M,01.4,N,,") + "\r\n",
            sentences: [checksummed("IIVHW,,,294,M,01.4,N,,")], rejects: []),
        AnomalyCase(
            name: "checksum-valid corrupted address", input: checksummed("GPRWV,031,R,10.5,N,A") + "\r\n",
            sentences: [checksummed("GPRWV,031,R,10.5,N,A")], rejects: []),
        AnomalyCase(
            name: "NUL from line noise", input: "$HCHDM,09\u{0}3.8,M*2B\r\n$HCHDM,093.8,M*2B\r\n",
            sentences: ["$HCHDM,093.8,M*2B"], rejects: [.invalidByte]),
        AnomalyCase(
            name: "8-bit byte from line noise", input: "$HCHDM,09\u{E9}3.8,M*2B\r\n$HCHDM,093.8,M*2B\r\n",
            sentences: ["$HCHDM,093.8,M*2B"], rejects: [.invalidByte]),
        AnomalyCase(
            name: "sentence cut in half by an unplug", input: "$WIMWV,12.1,T,10.$WIMWV,12.1,T,10.1,N,A*27\r\n",
            sentences: ["$WIMWV,12.1,T,10.1,N,A*27"], rejects: [.truncated]),
        AnomalyCase(
            name: "cut at the end of the stream", input: "$WIMWV,12.1,T,10.1,N,A*27\r\n$WIMWV,12.1,T",
            sentences: ["$WIMWV,12.1,T,10.1,N,A*27"], rejects: [.missingChecksum]),
        AnomalyCase(
            name: "garbage then a sentence on the same line", input: "xx\u{7F}$HCHDM,093.8,M*2B\n",
            sentences: ["$HCHDM,093.8,M*2B"], rejects: [.noStart]),
        AnomalyCase(
            name: "wrong checksum", input: "$HCHDM,093.9,M*2B\n", sentences: [], rejects: [.checksum]),
        AnomalyCase(
            name: "no checksum is rejected by default", input: "$HCHDM,093.8,M\n", sentences: [],
            rejects: [.missingChecksum]),
        AnomalyCase(
            name: "no checksum is accepted for old devices", input: "$HCHDM,093.8,M\n",
            sentences: ["$HCHDM,093.8,M*2B"], rejects: [],
            configuration: FramerConfiguration(requiresChecksum: false)),
        AnomalyCase(
            name: "junk after the checksum", input: "$HCHDM,093.8,M*2BZZ\n", sentences: [],
            rejects: [.malformedChecksum]),
        AnomalyCase(
            name: "lower-case address", input: checksummed("hchdm,093.8,M") + "\n", sentences: [],
            rejects: [.badAddress]),
        AnomalyCase(
            name: "numeric talker from an NMEA 2000 converter", input: "$02MWV,327.6,R,1.89,N*62\r\n",
            sentences: ["$02MWV,327.6,R,1.89,N*62"], rejects: []),
        AnomalyCase(
            name: "proprietary address longer than five", input: checksummed("PSKPDPT,0002.5,+00.0,0010,10,03,") + "\n",
            sentences: [checksummed("PSKPDPT,0002.5,+00.0,0010,10,03,")], rejects: []),
        AnomalyCase(
            name: "query sentence", input: checksummed("CCGPQ,GGA") + "\n", sentences: [checksummed("CCGPQ,GGA")],
            rejects: []),
        AnomalyCase(
            name: "encapsulated sentence",
            input: checksummed("AIVDM,1,1,,A,13aEOK?P00PD2wVMdLDRhgvL289?,0", start: "!")
                + "\n",
            sentences: [checksummed("AIVDM,1,1,,A,13aEOK?P00PD2wVMdLDRhgvL289?,0", start: "!")], rejects: []),
        AnomalyCase(
            name: "CR, LF and CR LF endings", input: "$HCHDM,093.8,M*2B\r$HCHDM,093.8,M*2B\n$HCHDM,093.8,M*2B\r\n",
            sentences: ["$HCHDM,093.8,M*2B", "$HCHDM,093.8,M*2B", "$HCHDM,093.8,M*2B"], rejects: []),
        AnomalyCase(
            name: "comment lines rejected on a live bus", input: "# header\n$HCHDM,093.8,M*2B\n",
            sentences: ["$HCHDM,093.8,M*2B"], rejects: [.noStart]),
        AnomalyCase(
            name: "comment lines skipped in a log", input: "# header\n$HCHDM,093.8,M*2B\n",
            sentences: ["$HCHDM,093.8,M*2B"], rejects: [], configuration: FramerConfiguration(skipsCommentLines: true)),
    ]

    @Test("anomalies of real logs are accepted or rejected as documented", arguments: anomalies)
    func anomaly(_ testCase: AnomalyCase) {
        let result = frame(testCase.input, configuration: testCase.configuration)
        #expect(result.sentences.map(\.description) == testCase.sentences)
        #expect(result.rejects.map(\.reason) == testCase.rejects)
        #expect(result.statistics.sentences == testCase.sentences.count)
        #expect(result.statistics.rejects.total == testCase.rejects.count)
    }

    @Test("the same sentences come out however the bytes are chunked", arguments: [1, 2, 3, 7, 64])
    func chunkingDoesNotMatter(chunk: Int) {
        let input = FramerTests.anomalies.map(\.input).joined()
        let whole = frame(input)
        let chunked = frame(input, chunk: chunk)
        #expect(chunked.sentences == whole.sentences)
        #expect(chunked.rejects == whole.rejects)
        #expect(whole.sentences.count > 10)
    }

    @Test("length is limited to 82 bytes in strict mode and a documented lenient limit otherwise")
    func lengthLimits() {
        // 80 bytes before CR LF: exactly the limit.
        let longest = checksummed("IIXDR," + String(repeating: "A", count: 70))
        #expect(longest.utf8.count == 80)
        let tooLong = checksummed("IIXDR," + String(repeating: "A", count: 71))
        let strict = frame(longest + "\r\n" + tooLong + "\r\n", configuration: .strict)
        #expect(strict.sentences.count == 1)
        #expect(strict.rejects == [.tooLong(length: 83)])
        let lenient = frame(longest + "\r\n" + tooLong + "\r\n")
        #expect(lenient.sentences.count == 2)
        #expect(FramerConfiguration.lenientMaximumLength == 164)
        let huge = checksummed("IIXDR," + String(repeating: "A", count: 400))
        let hugeResult = frame(huge + "\r\n$HCHDM,093.8,M*2B\r\n")
        #expect(hugeResult.rejects == [.tooLong(length: 412)])
        #expect(hugeResult.sentences.count == 1)
    }

    @Test("a tag block is parsed, checked and kept with its sentence")
    func tagBlock() throws {
        // The field reference (../shared/REFERENCE.md) prints this block with *4A; the XOR of its bytes is 0x79.
        let result = frame("\\c:1241544035,s:r003669945*79\\$GPHDT,274.07,T*03\r\n")
        let tagged = try #require(result.sentences.first)
        #expect(tagged.tagBlock?.unixMilliseconds == 1_241_544_035_000)
        #expect(tagged.tagBlock?.source == "r003669945")
        #expect(tagged.description == "$GPHDT,274.07,T*03")

        let block = TagBlock(
            unixMilliseconds: 1_700_000_000_123, source: "telltale", lineCount: 7,
            group: TagBlock.Group(sentenceNumber: 1, totalSentences: 2, groupID: 3))
        let line = String(decoding: block.encoded(), as: UTF8.self) + "$GPHDT,274.07,T*03\n"
        let roundTrip = try #require(frame(line).sentences.first)
        #expect(roundTrip.tagBlock == block)
    }

    @Test("a tag block's numbers past 32 bits reject its sentence (they trapped `Int` on a 32-bit Pi)")
    func tagBlockPast32Bits() {
        func tagged(_ body: String) -> String {
            let sum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
            let hex = Array("0123456789ABCDEF".utf8)
            let checksum = String(decoding: [hex[Int(sum >> 4)], hex[Int(sum & 0xF)]], as: UTF8.self)
            return "\\" + body + "*" + checksum + "\\$GPHDT,274.07,T*03\r\n"
        }
        let kept = frame(tagged("g:1-2-2147483647,n:2147483647"))
        #expect(kept.rejects.isEmpty && kept.sentences.first?.tagBlock?.group?.groupID == 2_147_483_647)
        for body in ["g:1-2-99999999999", "g:99999999999-1-1", "n:2147483648"] {
            let result = frame(tagged(body))
            #expect(result.rejects == [.badTagBlock], "\(body)")
            #expect(result.sentences.isEmpty, "\(body)")
        }
    }

    @Test("a tag block with a bad checksum rejects its sentence")
    func badTagBlock() {
        let result = frame("\\c:1241544035,s:r003669945*4A\\$GPHDT,274.07,T*03\r\n$GPHDT,274.07,T*03\r\n")
        #expect(result.rejects == [.badTagBlock])
        #expect(result.sentences.count == 1)
        #expect(result.sentences.first?.tagBlock == nil)
    }

    @Test("rejects carry the line they were found on and their first bytes")
    func rejectExcerpts() {
        var framer = SentenceFramer()
        var excerpts: [Excerpt] = []
        framer.feed(Array("$HCHDM,093.8,M*2B\n\nGARBAGE\u{1}\n".utf8)) { event in
            if case .rejected(_, let excerpt) = event { excerpts.append(excerpt) }
        }
        #expect(excerpts.map(\.line) == [3])
        #expect(excerpts.first?.description == "GARBAGE<0x01>")
    }

    @Test("random bytes never crash the framer and every byte is accounted for")
    func randomBytes() {
        var state: UInt64 = 0x1234_5678
        var bytes: [UInt8] = []
        for _ in 0..<200_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let pick = UInt8(truncatingIfNeeded: state >> 33)
            // Bias towards the characters that matter to framing.
            let special: [UInt8] = [0x24, 0x21, 0x2A, 0x0D, 0x0A, 0x5C, 0x2C]
            bytes.append(pick % 4 == 0 ? special[Int(pick) % special.count] : pick)
        }
        var framer = SentenceFramer()
        var events = 0
        framer.feed(bytes) { _ in events += 1 }
        framer.finish { _ in events += 1 }
        #expect(framer.statistics.bytes == bytes.count)
        #expect(events == framer.statistics.sentences + framer.statistics.rejects.total)
        #expect(framer.statistics.rejects.total > 0)
    }

    @Test("a byte that ends a run is found the same in the 8-byte word path as one byte at a time")
    func wordPathMatchesBytes() {
        // Valid sentences with one or two bytes overwritten anywhere: whole, the framer takes most of each line 8
        // bytes at a time and the bytes before a special one inside a word at once; fed one byte at a time it never
        // uses words. Both must give the same sentences, rejects (with their offsets) and counts.
        let lines = [
            "$GPRMC,100001.00,A,5250.7370,N,00518.8054,E,6.45,226.1,210626,1.3,E,A*02",
            "$GPGGA,100001.00,5250.4674,N,00518.9394,E,1,12,0.6,-4.0,M,46.8,M,,*42",
            "$WIMWV,41.5,R,12.3,N,A*2A", "$HCHDM,093.8,M*2B", "!AIVDM,1,1,,A,13aEOK?P00PD2wVMdLDRhgvL289?,0*26",
        ].map { Array($0.utf8) }
        let replacements: [UInt8] = [0x7F, 0x80, 0xFF, 0x01, 0x09, 0x24, 0x21, 0x5C, 0x2A, 0x2C, 0x61, 0x20, 0x00]
        var state: UInt64 = 0x9E37_79B9
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33) % bound
        }
        var bytes: [UInt8] = []
        for _ in 0..<4000 {
            var line = lines[next(lines.count)]
            for _ in 0..<next(3) {
                line[next(line.count)] = replacements[next(replacements.count)]
            }
            bytes += line + [0x0D, 0x0A]
        }
        func run(chunk: Int) -> (sentences: [String], rejects: [String], statistics: FramerStatistics) {
            var framer = SentenceFramer()
            var sentences: [String] = []
            var rejects: [String] = []
            var start = 0
            let handle: (FramerEvent) -> Void = { event in
                switch event {
                case .sentence(let sentence): sentences.append(sentence.description)
                case .rejected(let error, let excerpt): rejects.append("\(error) \(excerpt.line) \(excerpt)")
                }
            }
            while start < bytes.count {
                let end = min(bytes.count, start + chunk)
                framer.feed(bytes[start..<end], handle)
                start = end
            }
            framer.finish(handle)
            return (sentences, rejects, framer.statistics)
        }
        let whole = run(chunk: bytes.count)
        let single = run(chunk: 1)
        #expect(whole.sentences == single.sentences)
        #expect(whole.rejects == single.rejects)
        #expect(whole.statistics == single.statistics)
        #expect(whole.sentences.count > 1000)
        #expect(whole.statistics.rejects.total > 1000)
        #expect(whole.rejects.contains { $0.contains("invalidByte") })
        // The counting sink sees the same.
        var framer = SentenceFramer()
        var counter = SentenceCounter()
        bytes.withUnsafeBufferPointer { framer.feed($0, into: &counter) }
        framer.finish(into: &counter)
        #expect(counter.sentences == whole.sentences.count)
        #expect(counter.rejects == whole.statistics.rejects.total)
    }
}
