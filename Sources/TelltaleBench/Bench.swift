import ArgumentParser
import Engine
import Gateway
import Marine
import NMEA

/// `telltale-bench`: the project's own benchmarks, outside the gateway's binary. Figures come from here and from
/// the scripts under `Benchmarks/`, never from timed unit tests.
@main
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "telltale-bench",
        abstract: "Benchmarks: generate an instrument mix, then time framing and decoding on it.",
        subcommands: [
            Generate.self, Decode.self, EngineTick.self, RouteTick.self, AttitudeAccuracy.self, IMURead.self, AIS.self,
            N2KDecode.self, Watch.self,
        ]
    )

    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a deterministic instrument mix (RMC, GGA, VTG, HDM, VHW, MWV, DPT, XDR) to a file.")

        @Option(help: "Number of sentences.")
        var count = 1_500_000

        @Option(help: "Seed of the generator.")
        var seed: UInt64 = 1

        @Argument(help: "Output file.")
        var output: String

        func run() throws {
            var generator = InstrumentMix(seed: seed)
            var buffer: [UInt8] = []
            buffer.reserveCapacity(1 << 20)
            let file = try OutputFile(path: output)
            for _ in 0..<count {
                generator.next().appendWire(to: &buffer)
                if buffer.count >= 1 << 20 {
                    try file.write(buffer)
                    buffer.removeAll(keepingCapacity: true)
                }
            }
            try file.write(buffer)
        }
    }

    struct Decode: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: """
                Time framing, checksum and typed decode over a file read through a 1 MB buffer (memory flat in the \
                file's size); each pass reads the file again, from the page cache after the first.
                """)

        @Option(help: "Passes over the file; the median and the best are reported.")
        var iterations = 3

        @Flag(help: "Frame and check checksums only, without typed decode.")
        var framingOnly = false

        @Flag(help: "Print one JSON object.")
        var json = false

        @Argument(help: "The file to read (see `telltale-bench generate`).")
        var file: String

        func run() throws {
            var times: [Double] = []
            var sentences = 0
            var decoded = 0
            var rejects = 0
            var bytes = 0
            for _ in 0..<max(iterations, 1) {
                let start = monotonicSeconds()
                var framer = SentenceFramer()
                if framingOnly {
                    // Framing alone, on the framer compiled for a counting sink (as `inspect` has it compiled for
                    // its inspector), not its generic form.
                    var counter = SentenceCounter()
                    bytes = try readChunks(file) { chunk in framer.feed(chunk, into: &counter) }
                    framer.finish(into: &counter)
                } else {
                    // Sentences lent to a sink, as `inspect` and the inputs take them: no copy per sentence.
                    var sink = DecodeSink()
                    bytes = try readChunks(file) { chunk in framer.feed(chunk, into: &sink) }
                    framer.finish(into: &sink)
                    decoded = sink.decoded
                }
                times.append(monotonicSeconds() - start)
                sentences = framer.statistics.sentences
                rejects = framer.statistics.rejects.total
            }
            times.sort()
            let median = times[times.count / 2]
            let perSecond = Double(sentences) / median
            let megabytes = Double(bytes) / 1e6 / median
            let text =
                "\(sentences) sentences (\(decoded) decoded, \(rejects) rejected), median of \(times.count) passes "
                + "\(format(median, decimals: 3)) s (best \(format(times[0], decimals: 3)) s): "
                + "\(format(perSecond, decimals: 0)) sentences/s, \(format(megabytes, decimals: 1)) MB/s"
            report(json: json, text: text) { writer in
                writer.value("sentences", sentences)
                writer.value("decoded", decoded)
                writer.value("rejected", rejects)
                writer.value("bytes", bytes)
                writer.value("seconds_median", median)
                writer.value("seconds_best", times[0])
                writer.value("sentences_per_second", perSecond)
                writer.value("megabytes_per_second", megabytes)
            }
        }
    }
}

/// Decodes what framing lends it, counting the sentences that decode.
struct DecodeSink: FramerSink {
    var decoded = 0

    mutating func take(_ sentence: inout Sentence) {
        if (try? Message(lent: &sentence)) != nil { decoded &+= 1 }
    }

    mutating func reject(_ error: FramingError, _ excerpt: Excerpt) {}
}

/// A deterministic instrument mix at realistic proportions: per second one RMC, GGA and VTG, two MWV, HDM and
/// VHW readings, one DPT and an XDR with heel and pitch.
struct InstrumentMix {
    private var state: UInt64
    private var step = 0
    private var time = UTCTime(hours: 10, minutes: 0, seconds: 0)

    init(seed: UInt64) {
        state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed
    }

    /// xorshift64*: the same seed gives the same file on every machine.
    private mutating func random() -> Double {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return Double((state &* 2_685_821_657_736_338_717) >> 11) / Double(1 << 53)
    }

    private mutating func around(_ centre: Double, _ spread: Double) -> Double {
        centre + (random() * 2 - 1) * spread
    }

    mutating func next() -> Sentence {
        defer { step += 1 }
        let slot = step % 11
        if slot == 0 { time.millisecondsOfDay = (time.millisecondsOfDay + 1000) % 86_400_000 }
        let sentence: any EncodableSentence
        let talker: Talker
        switch slot {
        case 0:
            talker = "GP"
            sentence = RMC(
                time: time, isValid: true, latitude: around(52.85, 0.01), longitude: around(5.31, 0.01),
                speedOverGround: around(6, 1), courseOverGround: around(230, 10),
                date: UTCDate(year: 2026, month: 6, day: 21), magneticVariation: 1.3, mode: .autonomous)
        case 1:
            talker = "GP"
            sentence = GGA(
                time: time, latitude: around(52.85, 0.01), longitude: around(5.31, 0.01), quality: 1, satellites: 12,
                horizontalDilution: 0.6, altitude: -4, geoidSeparation: 46.8)
        case 2:
            talker = "GP"
            sentence = VTG(
                courseTrue: around(230, 10), courseMagnetic: around(229, 10), speedKnots: around(6, 1),
                speedKilometresPerHour: around(11, 2), mode: .autonomous)
        case 3, 7:
            talker = "WI"
            sentence = MWV(angle: around(45, 20), reference: .relative, speed: around(14, 3), isValid: true)
        case 4, 8:
            talker = "HC"
            sentence = HDM(heading: around(228, 5))
        case 5, 9:
            talker = "VW"
            sentence = VHW(headingMagnetic: around(228, 5), speedKnots: around(6.2, 0.5))
        case 6:
            talker = "SD"
            sentence = DPT(depth: around(5.3, 1), offset: 0.4)
        default:
            talker = "II"
            sentence = XDR([.angle(around(12, 8), name: "ROLL"), .angle(around(1, 2), name: "PTCH")])
        }
        // Every value above is in range, so encoding cannot fail.
        return try! sentence.encode(talker: talker)
    }
}
