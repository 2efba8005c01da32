import NMEA
import Testing

/// The real recordings in `../shared/fixtures`, read in place. Skipped, with a message, when the folder is absent.
@Suite struct SharedFixtureTests {
    struct Expectation: Sendable, CustomTestStringConvertible {
        let file: String
        /// Addresses whose sentences are known to be corrupted in the recording (checksum-valid but spliced).
        let corruptedAddresses: Set<String>
        var testDescription: String { file }
    }

    static let recordings = [
        Expectation(file: "bundg_zeus_9.log", corruptedAddresses: []),
        Expectation(file: "n2kd-183-merrimac.log", corruptedAddresses: []),
        Expectation(file: "plaka.log", corruptedAddresses: []),
        Expectation(file: "pypilot.log", corruptedAddresses: []),
        Expectation(file: "NMEA0004.TXT", corruptedAddresses: ["GPRMB"]),
    ]

    /// The test's own count, written without the codec: one sentence a line, `$` or `!` first, a two-digit
    /// checksum equal to the XOR of the body, printable ASCII, an address of five capitals or digits (or `P...`).
    static func independentCount(_ bytes: [UInt8]) -> (accepted: Int, rejected: Int, comments: Int) {
        var accepted = 0
        var rejected = 0
        var comments = 0
        for rawLine in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            var line = Array(rawLine)
            while let last = line.last, last == 0x0D || last == 0x20 { line.removeLast() }
            if line.isEmpty { continue }
            if line[0] == UInt8(ascii: "#") {
                comments += 1
                continue
            }
            guard line[0] == UInt8(ascii: "$") || line[0] == UInt8(ascii: "!"), line.count + 2 <= 164,
                let star = line.firstIndex(of: UInt8(ascii: "*")), star + 3 == line.count,
                line.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }),
                let found = UInt8(String(decoding: line[(star + 1)...], as: UTF8.self), radix: 16)
            else {
                rejected += 1
                continue
            }
            let body = line[1..<star]
            let address = body.prefix { $0 != UInt8(ascii: ",") }
            let addressOK =
                address.allSatisfy { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) }
                && (address.count == 5 || address.first == UInt8(ascii: "P"))
            if body.reduce(0, ^) == found && addressOK { accepted += 1 } else { rejected += 1 }
        }
        return (accepted, rejected, comments)
    }

    @Test(
        "real recordings frame as an independent count says, and decode apart from known corruption",
        arguments: recordings)
    func recording(_ expectation: Expectation) throws {
        guard let folder = sharedFixtures() else {
            print("SKIPPED: ../shared/fixtures is absent; \(expectation.file) not checked")
            return
        }
        let bytes = try #require(readFile(folder + "/" + expectation.file))
        let independent = SharedFixtureTests.independentCount(bytes)

        var framer = SentenceFramer(configuration: FramerConfiguration(skipsCommentLines: true))
        var decodeFailures: [String: Int] = [:]
        var decoded = 0
        framer.feed(bytes) { event in
            guard case .sentence(let sentence) = event else { return }
            do {
                _ = try Message(sentence)
                decoded += 1
            } catch {
                if case DecodeError.unsupported = error { return }
                decodeFailures[sentence.address.description, default: 0] += 1
            }
        }
        framer.finish { _ in }

        #expect(framer.statistics.sentences == independent.accepted)
        #expect(framer.statistics.rejects.total == independent.rejected)
        #expect(framer.statistics.comments == independent.comments)
        #expect(decoded > 0)
        #expect(Set(decodeFailures.keys).isSubset(of: expectation.corruptedAddresses), "\(decodeFailures)")
        print(
            "\(expectation.file): \(framer.statistics.sentences) framed, \(framer.statistics.rejects.total) rejected, "
                + "\(decoded) decoded, field errors \(decodeFailures)")
    }

    @Test("the B&G heel and trim and the pypilot attitude read with their signs")
    func attitudeFromRecordings() throws {
        guard let folder = sharedFixtures() else {
            print("SKIPPED: ../shared/fixtures is absent; attitude recordings not checked")
            return
        }
        let pypilot = try #require(readFile(folder + "/pypilot.log"))
        var heels: [Double] = []
        var framer = SentenceFramer(configuration: FramerConfiguration(skipsCommentLines: true))
        framer.feed(pypilot) { event in
            if case .sentence(let sentence) = event, case .xdr(let xdr)? = try? Message(sentence), let heel = xdr.heel {
                heels.append(heel)
            }
        }
        let rollLines = pypilot.split(separator: 0x0A).filter { String(decoding: $0, as: UTF8.self).contains(",ROLL*") }
        #expect(heels.count == rollLines.count && heels.count > 5)
        #expect(heels.allSatisfy { (3.8...3.9).contains($0) })
    }
}
