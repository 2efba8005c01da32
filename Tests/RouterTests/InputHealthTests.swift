import Engine
import NMEA
import TestSupport
import Testing

@testable import Router

/// An input whose bytes make no sentences: said once, with what it is, and said again when it reads well.
@Suite struct InputHealthTests {
    /// What a UART reading at `readBaud` makes of 8N1 text sent at `sentBaud`, `perSecond` sentences a second (the
    /// line idle between them): the line sampled as a receiver samples it, from each falling edge.
    static func misread(_ sentences: [String], sentBaud: Int, readBaud: Int) -> [UInt8] {
        var line: [UInt8] = [1]
        let slot = sentBaud / max(1, sentences.count)
        for text in sentences {
            var bits: [UInt8] = []
            for byte in Array(text.utf8) {
                bits.append(0)
                for k in 0..<8 { bits.append(byte >> UInt8(k) & 1) }
                bits.append(1)
            }
            line += bits + [UInt8](repeating: 1, count: max(0, slot - bits.count))
        }
        let ratio = Double(sentBaud) / Double(readBaud)
        var out: [UInt8] = []
        var index = 1
        while index < line.count {
            guard line[index] == 0 && line[index - 1] == 1 else {
                index += 1
                continue
            }
            var value: UInt8 = 0
            for k in 0..<8 {
                let at = index + Int(ratio * (1.5 + Double(k)))
                guard at < line.count else { return out }
                value |= line[at] << UInt8(k)
            }
            out.append(value)
            index += Int(ratio * 9.5) + 1
        }
        return out
    }

    /// A sentence whose checksum's last digit is wrong.
    static func spoilt(_ line: String) -> String {
        let text = String(line.dropLast(2))
        return String(text.dropLast()) + (text.last == "0" ? "1" : "0") + "\r\n"
    }

    /// One second of a heading sensor's ten HDTs.
    static func second(_ heading: Int) -> [String] {
        (0..<10).map { checksummed("HEHDT,\(heading).\($0),T") + "\r\n" }
    }

    /// A router fed as the runtime feeds it: the bytes framed, sentences ingested, rejects counted, the running total
    /// of bytes handed over once a second. Returns the input changes said.
    static func play(
        _ router: inout Router, _ framer: inout SentenceFramer, _ source: SourceID, seconds: ClosedRange<Int>,
        _ bytes: (Int) -> [UInt8]
    ) -> [(Double, InputHealth.Change)] {
        var said: [(Double, InputHealth.Change)] = []
        for second in seconds {
            let time = Double(second)
            framer.feed(bytes(second)) { event in
                switch event {
                case .sentence(let sentence): router.ingest(sentence, from: source, at: time) { _ in }
                case .rejected(let error, _): router.rejected(from: source, reason: error.reason)
                }
            }
            router.received([(source, framer.statistics.bytes)], at: time) { action in
                if case .input(let from, let name, let change, _, _) = action, from == source, name == "ais" {
                    said.append((time, change))
                }
            }
        }
        return said
    }

    @Test("a 38,400-baud AIS read at 4,800: said unreadable once (a few bytes a second, never a line end), then read")
    func wrongSpeed() {
        var router = Router(engine: Engine(configuration: EngineConfiguration()), outputs: [])
        let source = router.source(named: "ais")
        var framer = SentenceFramer(configuration: FramerConfiguration())
        let garbage = Self.misread(Self.second(111), sentBaud: 38_400, readBaud: 4_800)
        // At the right speed the same model reads the sentences back whole: the model, not the text, is at fault.
        #expect(
            Self.misread(Self.second(111), sentBaud: 4_800, readBaud: 4_800) == Array(Self.second(111).joined().utf8))
        #expect(garbage.count > 10 && garbage.count < 60 && !garbage.contains(0x0A) && !garbage.contains(0x24))
        let wrong = Self.play(&router, &framer, source, seconds: 0...40) { _ in garbage }
        #expect(wrong.count == 1, "\(wrong)")
        guard case .unreadable(let bytes, 0, nil)? = wrong.first?.1 else {
            Issue.record("\(wrong)")
            return
        }
        #expect(bytes >= garbage.count * 9 && bytes <= garbage.count * 11 && wrong[0].0 <= 21)
        #expect(router.health.isUnreadable(source.index))
        #expect(
            InputHealth.words(bytes: bytes, sentences: 0, reason: nil)
                == "\(bytes) bytes in 10 s and no sentence in them (never a line end)")
        // The crew sets the right speed: the next whole window of sentences says so, once.
        let right = Self.play(&router, &framer, source, seconds: 41...80) { Array(Self.second($0).joined().utf8) }
        #expect(right.count == 1 && right.first?.1 == .readable && (right.first?.0 ?? 99) <= 62, "\(right)")
        #expect(!router.health.isUnreadable(source.index))
    }

    @Test("lines that end but never check: the commonest reason said; a sound input with some noise never is")
    func reasons() {
        var router = Router(engine: Engine(configuration: EngineConfiguration()), outputs: [])
        let source = router.source(named: "ais")
        var framer = SentenceFramer(configuration: FramerConfiguration())
        // Every checksum wrong (a bit dropped on a long cable), and a line without a start now and then.
        let corrupt = Self.play(&router, &framer, source, seconds: 0...25) { second in
            Array(Self.second(second).map(Self.spoilt).joined().utf8) + (second % 3 == 0 ? Array("noise\r\n".utf8) : [])
        }
        #expect(corrupt.count == 1)
        if case .unreadable(_, 0, .checksum)? = corrupt.first?.1 {} else { Issue.record("\(corrupt)") }

        var sound = Router(engine: Engine(configuration: EngineConfiguration()), outputs: [])
        let other = sound.source(named: "ais")
        var framer2 = SentenceFramer(configuration: FramerConfiguration())
        // A sixth of its bytes noise, and then silence: neither is unreadable.
        let noisy = Self.play(&sound, &framer2, other, seconds: 0...40) { second in
            second > 25 ? [] : Array(Self.second(second).joined().utf8) + Array("~~~~~~~~~~~~~~~~~~~~~~~~~~\r\n".utf8)
        }
        #expect(noisy.isEmpty, "\(noisy)")
    }

    @Test("a window under 100 bytes, a counter started again, a clock gone back: nothing said wrongly")
    func edges() {
        var health = InputHealth()
        health.received(0, total: 0)
        #expect(health.check(at: 0).isEmpty)
        health.received(0, total: 90)
        #expect(health.check(at: 10).isEmpty, "90 bytes of nothing: too few to judge")
        // The transport made again (its count from 0): the window starts again rather than counting negative bytes.
        health.received(0, total: 5)
        #expect(health.check(at: 20).isEmpty)
        health.received(0, total: 400)
        #expect(health.check(at: 25).isEmpty, "half a window")
        #expect(health.check(at: 5).isEmpty, "a clock gone back")
        health.received(0, total: 800)
        let said = health.check(at: 16)
        #expect(said.count == 1 && said.first?.index == 0)
        #expect(said.first?.change == .unreadable(bytes: 400, sentences: 0, reason: nil))
    }
}
