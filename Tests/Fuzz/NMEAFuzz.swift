// libFuzzer entry point for the NMEA codec. Built by `make fuzz` together with Sources/NMEA:
//   swiftc -sanitize=fuzzer,address -parse-as-library Sources/NMEA/*.swift Sources/NMEA/Sentences/*.swift \
//       Sources/NMEA/AIS/*.swift Tests/Fuzz/NMEAFuzz.swift
// Properties: nothing traps; every sentence passed on is at most the configured length; for every sentence that
// decodes and can be encoded, the encoding fits in 82 bytes, frames again, decodes again, and encodes to the same
// bytes (decode(encode(x)) == x once values are on the wire's decimals); AIS fragments are put together and read, and
// every position read is on the earth, every speed and course in range.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data.assumingMemoryBound(to: UInt8.self), count: size)
    // The first byte picks the framer's options, so that lenient and strict paths are both explored.
    let options = bytes.first ?? 0
    let configuration = FramerConfiguration(
        maximumLength: options & 1 == 0 ? FramerConfiguration.lenientMaximumLength : 82,
        requiresChecksum: options & 2 == 0,
        skipsCommentLines: options & 4 == 0)
    var framer = SentenceFramer(configuration: configuration)
    var events = 0
    var assembler = AISAssembler()
    let check: (FramerEvent) -> Void = { event in
        events += 1
        guard case .sentence(let sentence) = event else { return }
        precondition(sentence.wireLength <= configuration.maximumLength)
        if case .vdm(let fragment)? = try? Message(sentence) {
            let source = Int(options >> 4)
            guard let bits = assembler.add(fragment, source: source, at: Double(events)) else { return }
            precondition(bits.count <= bits.sixBits.count * 6)
            guard let report = AISReport(bits), let p = report.position else { return }
            precondition(p.latitude.map { abs($0) <= 90 } ?? true && p.longitude.map { abs($0) <= 180 } ?? true)
            precondition(p.courseOverGround.map { $0 >= 0 && $0 < 360 } ?? true)
            precondition(p.speedOverGround.map { $0 >= 0 && $0 <= 102.2 } ?? true)
            return
        }
        guard let message = try? Message(sentence), message.isEncodable else { return }
        // `try?` over an optional result flattens: nil when the type cannot be encoded or encoding failed.
        guard let talker = sentence.address.talker, let first = try? message.encode(talker: talker) else { return }
        precondition(first.wireLength <= 82)
        guard let reframed = try? Sentence(parsing: first.wireBytes, maximumLength: 82) else {
            preconditionFailure("encoded sentence does not frame: \(first)")
        }
        guard let again = try? Message(reframed), let second = try? again.encode(talker: talker) else {
            preconditionFailure("encoded sentence does not decode: \(first)")
        }
        guard let message = try? Message(second), let third = try? message.encode(talker: talker) else {
            preconditionFailure("re-encoded sentence does not decode: \(second)")
        }
        precondition(second == third, "encoding is not stable: \(first) -> \(second) -> \(third)")
    }
    framer.feed(bytes, check)
    framer.finish(check)
    precondition(events == framer.statistics.sentences + framer.statistics.rejects.total)
    return 0
}
