import CPosix
import Glibc
import NMEA
import Platform
import TestSupport
import Testing

@testable import Gateway

/// A serial input that lost its device says why it cannot open it again.
@Suite struct SerialInputTests {
    @Test("after a silent line is closed, a reopen that fails is said in the log, not kept quiet")
    func reopenFailureAfterSilence() throws {
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        try #require(master >= 0)
        defer { close(master) }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        try #require(cposix_ioctl(master, 0x4004_5431, &unlock) == 0)
        try #require(cposix_ioctl(master, 0x8004_5430, &number) == 0)
        // The device by a name of its own, as /dev/serial0 names the GPIO UART; the name goes, as an adapter does.
        let link = temporaryFolder("serial-input") + "/serial0"
        try #require(symlink("/dev/pts/\(number)", link) == 0)
        var events: [LogEvent] = []
        let input = SerialInput(
            name: "instruments", path: link, baud: 4800, framing: FramerConfiguration(), silenceTimeout: 10,
            log: Log { events.append($0) })
        defer { input.close() }
        var fds = PollSet()
        input.prepare(now: 0, into: &fds)
        try #require(input.port.isOpen)
        input.service(now: 11, polled: fds) { _ in }
        #expect(!input.port.isOpen)
        #expect(events.contains { $0.id == "input.lost" })
        unlink(link)
        fds.removeAll()
        input.prepare(now: 12, into: &fds)
        #expect(!input.port.isOpen)
        let said = events.filter { $0.id == "input.waiting" || $0.id == "input.open-failed" }
        #expect(said.count == 1, "the failed reopen was not said: \(events.map(\.message))")
        // Once said, the run of failures stays quiet (the limiter and the backoff keep the log short).
        fds.removeAll()
        input.prepare(now: 14, into: &fds)
        #expect(events.filter { $0.id == "input.waiting" || $0.id == "input.open-failed" }.count == 1)
    }
}
