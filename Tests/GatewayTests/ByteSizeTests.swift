import Fleet
import TestSupport
import Testing

@testable import Gateway

/// Sizes in megabytes from the configuration and the command line, as the bytes the gateway counts: never a trap, on
/// 64 bits or on the Pi's 32-bit build (armhf), where `Int(4000 * 1_048_576)` stopped the gateway (found 2026-12-03;
/// `Tests/Pi/sizes-smoke.sh` runs the ARM builds on the largest sizes the configuration takes).
@Suite struct ByteSizeTests {
    @Test("megabytes as bytes: the size asked for, at most half of Int.max, nothing for what is not a size")
    func conversion() {
        #expect(ByteSize.of(megabytes: 50) == 52_428_800)
        #expect(ByteSize.of(megabytes: 0.05) == 52_428)
        #expect(ByteSize.of(megabytes: 1e300) == Int.max / 2)
        #expect(ByteSize.of(megabytes: .infinity) == Int.max / 2)
        #expect(ByteSize.of(megabytes: Double(Int.max)) == Int.max / 2)
        #expect(ByteSize.of(megabytes: .nan) == 0)
        #expect(ByteSize.of(megabytes: -3) == 0)
    }

    @Test("the largest sizes the configuration takes: recording, uplink queue and history, in full on 64 bits")
    func largestConfigured() throws {
        let configuration = try ConfigurationFile.parse(
            """
            state_file = "/tmp/telltale-byte-size/state.toml"
            [[input]]
            url = "udp://127.0.0.1:10110"
            [record]
            directory = "/tmp/telltale-byte-size/records"
            rotate_size_mb = 10000
            [uplink]
            broker = "mqtt://shore.example"
            queue_mb = 4096
            [history]
            keep_mb = 100000
            """)
        #expect(configuration.record?.rotateBytes == min(10_000 * 1_048_576, Int.max / 2))
        #expect(configuration.uplink?.queueBytes == min(4096 * 1_048_576, Int.max / 2))
        let store = HistoryStore(
            folder: temporaryFolder("byte-size"), keepMegabytes: configuration.history.keepMegabytes, log: nil)
        #expect(store.keep == 104_857_600_000, "the history's bound in 64 bits on every build")
    }

    @Test("telltale record's --rotate-size-mb: any number past zero is taken, the largest at the most")
    func recordOption() throws {
        var options = RecordOptions()
        options.directory = temporaryFolder("byte-size-record")
        options.rotateSizeMegabytes = 1e300
        options.inputs = ["udp://127.0.0.1:10110"]
        let configuration = try RunCommand.recording(options)
        #expect(configuration.record?.rotateBytes == Int.max / 2)
    }
}
