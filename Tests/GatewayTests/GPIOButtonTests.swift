import CPosix
import Engine
import Platform
import Testing

@testable import Gateway

/// The GPIO button input read as the kernel writes its line events, played down a pipe; a missing chip survived.
@Suite struct GPIOButtonTests {
    /// One `gpio_v2_line_event`: the time in nanoseconds, the edge (1 rising, 2 falling), then its counters.
    func event(seconds: Double, rising: Bool) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: POSIX.gpioEdgeSize)
        let nanoseconds = UInt64(seconds * 1e9)
        for index in 0..<8 { bytes[index] = UInt8(truncatingIfNeeded: nanoseconds >> (8 * UInt64(index))) }
        bytes[8] = rising ? 1 : 2
        return bytes
    }

    @Test("edges down a pipe: a press, then a hold fired while still held")
    func edges() throws {
        #expect(POSIX.gpioEdgeSize == 48)
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        _ = cposix_fcntl(ends[0], F_SETFL, cposix_fcntl(ends[0], F_GETFL, 0) | O_NONBLOCK)
        defer { POSIX.close(ends[1]) }
        let button = GPIOButton(descriptor: ends[0], log: .discard)
        defer { button.close() }
        func turn(_ now: Double) -> [InputEvent] {
            var fds = PollSet()
            button.prepare(now: now, into: &fds)
            _ = fds.anyReady()
            var events: [InputEvent] = []
            button.service(now: now, polled: fds) { events.append($0) }
            return events
        }
        let press = event(seconds: 100, rising: false) + event(seconds: 100.3, rising: true)
        press.withUnsafeBytes { _ = POSIX.write(ends[1], $0) }
        let pressed = turn(100.4)
        #expect(pressed.count == 1)
        if case .button(let gesture)? = pressed.first { #expect(gesture == .press) } else { Issue.record("no press") }
        event(seconds: 200, rising: false).withUnsafeBytes { _ = POSIX.write(ends[1], $0) }
        #expect(turn(200.1).isEmpty)
        #expect(button.nextDue(now: 200.1) == 202)
        let held = turn(202.05)
        if case .button(let gesture)? = held.first { #expect(gesture == .hold) } else { Issue.record("no hold") }
        event(seconds: 203, rising: true).withUnsafeBytes { _ = POSIX.write(ends[1], $0) }
        #expect(turn(203.1).isEmpty)
        #expect(button.counts == ", 2 presses")
    }

    @Test("no GPIO chip: said once, tried again every 30 s, the loop never blocked")
    func missingChip() {
        var lines: [String] = []
        let button = GPIOButton(chip: "/nonexistent/gpiochip9", line: 17, log: Log { lines.append($0.message) })
        for now in [0.0, 1, 2, 31, 62] {
            var fds = PollSet()
            button.prepare(now: now, into: &fds)
            #expect(fds.isEmpty)
        }
        #expect(lines.count == 1 && lines[0].contains("/nonexistent/gpiochip9"), "\(lines)")
        #expect(button.nextDue(now: 62) == 92)
    }

    @Test("[race] button: the board's gpio device by default; a chip named; mistakes named")
    func configuration() throws {
        let plain = try ConfigurationFile.parse("[race]\nbutton = 17\n")
        #expect(plain.race.button?.chip == "/dev/gpiochip0" && plain.race.button?.line == 17)
        let named = try ConfigurationFile.parse("[race]\nbutton = 5\nbutton_chip = \"/dev/gpiochip4\"\n")
        #expect(named.race.button?.chip == "/dev/gpiochip4" && named.race.button?.line == 5)
        #expect(throws: ConfigurationFile.Error.self) { try ConfigurationFile.parse("[race]\nbutton = 1.5\n") }
        #expect(throws: ConfigurationFile.Error.self) { try ConfigurationFile.parse("[race]\nbutton_chip = \"x\"\n") }
    }
}
