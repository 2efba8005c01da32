import Gateway
import TestSupport
import Testing

/// A recorded NMEA 2000 bus replayed (Fixtures/n2k, made by Fixtures/n2k/make.sh): the same 0183, byte for byte,
/// every time and as when the fixture was made (the Pi's builds are held to the same file by Tests/Pi/qemu-check.sh).
@Suite struct N2KReplayTests {
    let folder = projectFixtures() + "/n2k"

    func replay() throws -> [UInt8] {
        var options = ReplayOptions()
        options.logs = [folder + "/telltale-demo.candump"]
        options.fast = true
        options.tagTime = true
        var out: [UInt8] = []
        _ = try ReplayCommand.run(options) { out.append(contentsOf: $0) }
        return out
    }

    @Test("the recorded bus replays to telltale-demo.expected.nmea byte for byte: its sentences and what they compute")
    func goldenReplay() throws {
        nonisolated(unsafe) var first: [UInt8] = []
        nonisolated(unsafe) var second: [UInt8] = []
        nonisolated(unsafe) var failure: (any Error)?
        // On a thread of its own: the engine's tick in a debug build wants more stack than a test task has.
        let thread = TestThread {
            do {
                first = try replay()
                second = try replay()
            } catch { failure = error }
        }
        thread.join()
        if let failure { throw failure }
        #expect(first == second)
        let expected = try #require(readFile(folder + "/telltale-demo.expected.nmea"))
        let differences = GoldenComparison.differences(expected: expected, actual: first)
        #expect(differences.isEmpty, "\(differences)")
        let text = String(decoding: first, as: UTF8.self)
        // The bus's wind, heading, position, depth and guidance in 0183, and the engine's true wind from them.
        for address in ["WIMWV", "HEHDT", "GNRMC", "GNGGA", "SDDPT", "INXTE", "INRMB", "IIMWV", "AIVDM"] {
            #expect(text.contains(address), "no \(address) in the replay")
        }
    }
}
